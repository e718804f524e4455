//! A set of a hundred thousand tools added to a registry behind a handle,
//! and taken out again in one change, the others left in their order.

use serde_json::{Value, json};
use tool_core::toolset::RegistryHandle;
use tool_core::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult, tool};

/// Add two numbers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Multiply two numbers.
#[tool]
fn mul(a: i64, b: i64) -> i64 {
    a * b
}

/// One of many tools, as a server from elsewhere lists them.
struct Numbered(String);

impl Tool for Numbered {
    fn name(&self) -> &str {
        &self.0
    }
    fn description(&self) -> &str {
        "One of many."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object"})
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("done") })
    }
}

const MANY: usize = 100_000;

fn names() -> Vec<String> {
    (0..MANY).map(|at| format!("tool_{at}")).collect()
}

#[tokio::test]
async fn a_hundred_thousand_tools_join_and_leave_in_one_change_each() {
    let handle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let mut many = ToolRegistry::new();
    for name in names() {
        many.register(Numbered(name)).unwrap();
    }
    // Two of them disabled, one the last: they leave with the others.
    assert!(many.disable("tool_7"));
    assert!(many.disable(&format!("tool_{}", MANY - 1)));
    handle.merge(many).unwrap();
    handle
        .insert(Mul, tool_core::registry::OnDuplicate::Error)
        .unwrap();
    assert_eq!(handle.version(), 2);
    let current = handle.current();
    // The two disabled are not listed; `add` and `mul` are.
    assert_eq!(current.names().len(), MANY - 2 + 2);
    assert_eq!(current.names().next(), Some("add"));
    assert_eq!(current.names().last(), Some("mul"));
    let ctx = ToolContext::new(());
    let last = format!("tool_{}", MANY - 2);
    assert_eq!(
        current.call(&ctx, &last, json!({})).await.model_text(),
        "done"
    );

    let names = names();
    let removed = handle.remove_all(names.iter().map(String::as_str).chain(["nobody"]));
    assert_eq!(handle.remove_all(&names), 0);
    assert_eq!(removed, MANY);
    assert_eq!(handle.version(), 3);
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add", "mul"]);
    let mul = handle.call(&ctx, "mul", json!({"a": 2, "b": 3})).await;
    assert_eq!(mul.model_text(), "6");
    let gone = handle.call(&ctx, "tool_7", json!({})).await;
    assert!(gone.model_text().starts_with("unknown tool `tool_7`"));
}

#[test]
fn removing_a_set_keeps_the_others_order_and_counts_each_tool_once() {
    let mut registry: ToolRegistry = ToolRegistry::new()
        .with(Add)
        .with(Numbered("a_1".into()))
        .with(Mul)
        .with(Numbered("a_2".into()))
        .with(Numbered("a_3".into()));
    assert!(registry.disable("a_3"));
    assert_eq!(registry.remove_all(["a_2", "a_1", "a_2", "a_3", "a_3"]), 3);
    assert_eq!(registry.names().collect::<Vec<_>>(), ["add", "mul"]);
    assert!(!registry.enable("a_3"));
    assert_eq!(registry.remove_all(Vec::<String>::new()), 0);
}
