//! A `#[tool]` parameter whose type is a qualified path, in both ways a
//! function's parameters are read: one by one (`convert`: `Param<T>`'s type
//! and the check spell `<Metric as Units>::Value` as the user wrote it), and
//! through an input struct (`to_kilometres`, whose `#[serde]` attribute
//! needs one: the struct's field and its serde and schemars bounds).
//!
//! Prints the tool's definition as JSON on one line, then the text of one
//! call on the next; `tests/outside_crates.rs` checks both.

use tool_core::{ToolContext, ToolRegistry, tool};

/// A system of units.
trait Units {
    /// The type a quantity is measured in.
    type Value;
}

/// The metric system, measured in `f64`.
struct Metric;

impl Units for Metric {
    type Value = f64;
}

/// Convert kilometres to metres.
#[tool(read_only, tier = Observe)]
fn convert(
    /// The distance in kilometres.
    amount: <Metric as Units>::Value,
) -> f64 {
    amount * 1000.0
}

/// Convert metres to kilometres.
#[tool(read_only, tier = Observe)]
fn to_kilometres(
    /// The distance in metres.
    #[serde(default)]
    amount: <Metric as Units>::Value,
) -> f64 {
    amount / 1000.0
}

#[tokio::main]
async fn main() {
    let registry: ToolRegistry = ToolRegistry::new().with(Convert).with(ToKilometres);
    println!(
        "{}",
        serde_json::to_string(&registry.tool_definitions()[0]).unwrap()
    );

    let ctx = ToolContext::new(());
    let result = registry
        .call(&ctx, "convert", serde_json::json!({"amount": 1.5}))
        .await;
    let text = result.model_text();
    assert_eq!(text, "1500.0", "the text of the call");
    println!("{text}");

    let back = registry
        .call(&ctx, "to_kilometres", serde_json::json!({"amount": 1500.0}))
        .await;
    assert_eq!(back.model_text(), "1.5", "the text of the call through the struct");
}
