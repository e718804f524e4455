use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, tool};

struct App {
    prefix: String,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Get the weather.
///
/// Second paragraph.
#[tool(read_only, timeout = "10s")]
async fn get_weather(
    ctx: &ToolContext<App>,
    /// City name.
    city: String,
    /// Units.
    units: Option<Units>,
) -> Result<String, String> {
    if city.is_empty() {
        return Err("empty city".into());
    }
    Ok(format!("{} {city} {}", ctx.state().prefix, units.map_or("c", |u| match u { Units::Celsius => "c", Units::Fahrenheit => "f" })))
}

/// Search.
#[tool(context = App)]
#[derive(Deserialize, Serialize, JsonSchema)]
struct WebSearch {
    /// Query.
    query: String,
}

impl WebSearch {
    async fn run(self, ctx: &ToolContext<App>) -> Vec<String> {
        vec![format!("{}{}", ctx.state().prefix, self.query)]
    }
}

#[tokio::test]
async fn smoke() {
    let registry = ToolRegistry::new().with(GetWeather).with(WebSearch::tool());
    println!("{}", serde_json::to_string_pretty(registry.definitions()).unwrap());
    let ctx = ToolContext::new(App { prefix: "p".into() });
    for (name, args) in [
        ("get_weather", json!({"city": "Paris"})),
        ("get_weather", json!({"city": ""})),
        ("get_weather", json!({"city": "Paris", "units": "kelvin"})),
        ("get_weather", json!({"town": "Paris"})),
        ("get_weather", json!(null)),
        ("web_search", json!({"query": "q"})),
        ("nope", json!({})),
    ] {
        let r = registry.call(&ctx, name, args).await;
        println!("{name}: error={} {}", r.is_error(), r.model_text());
    }
}
