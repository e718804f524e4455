//! The README example, as a crate outside the workspace would write it.
//!
//! Prints the tool's definition as JSON on one line, then the model text of
//! one call on the next; `tests/outside_crates.rs` checks both.

use tool_core::{ToolContext, ToolRegistry, tool};

/// Get the current weather for a city.
#[tool(read_only, tier = Observe)]
async fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Number of days to forecast.
    days: Option<u8>,
) -> String {
    format!("sunny in {city} for {} days", days.unwrap_or(1))
}

#[tokio::main]
async fn main() {
    let registry: ToolRegistry = ToolRegistry::new().with(GetWeather);
    println!(
        "{}",
        serde_json::to_string(&registry.tool_definitions()[0]).unwrap()
    );

    let ctx = ToolContext::new(());
    let result = registry
        .call(&ctx, "get_weather", serde_json::json!({"city": "Paris"}))
        .await;
    println!("{}", result.model_text());
}
