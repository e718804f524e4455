//! A bare `#[tool(output_schema)]`: the output schema derived from what the
//! tool returns, in its definitions, and each result's structured content
//! checked against it, as with a schema written by hand.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, tool};

/// The weather somewhere.
#[derive(Serialize, JsonSchema)]
struct Weather {
    /// The city.
    city: String,
    /// The temperature.
    celsius: f64,
}

/// Forecast the weather in a city.
#[tool(tier = Observe, output_schema)]
async fn forecast(city: String) -> Result<Weather, String> {
    if city.is_empty() {
        return Err("no city".into());
    }
    Ok(Weather {
        city,
        celsius: 21.5,
    })
}

/// Forecast the weather at home.
#[tool(tier = Observe, output_schema)]
fn home_forecast(ctx: &ToolContext<String>) -> Weather {
    Weather {
        city: ctx.state().clone(),
        celsius: 18.0,
    }
}

/// Forecast the weather in the first of some cities.
#[tool(context = String, tier = Observe, output_schema)]
#[derive(Deserialize, JsonSchema)]
struct FirstForecast {
    /// The cities.
    cities: Vec<String>,
}

impl FirstForecast {
    async fn run(self, ctx: &ToolContext<String>) -> Result<Weather, String> {
        let city = self
            .cities
            .into_iter()
            .next()
            .unwrap_or_else(|| ctx.state().clone());
        Ok(Weather { city, celsius: 9.5 })
    }
}

/// Name the cities, with no output schema.
#[tool(tier = Observe)]
fn cities() -> Vec<String> {
    vec!["Rome".into()]
}

fn registry() -> ToolRegistry<String> {
    ToolRegistry::new()
        .with(Forecast)
        .with(HomeForecast)
        .with(FirstForecastTool)
        .with(Cities)
}

/// The schema schemars derives for `Weather`, as the output schema.
fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"description": "The city.", "type": "string"},
            "celsius": {"description": "The temperature.", "type": "number", "format": "double"}
        },
        "required": ["city", "celsius"]
    })
}

#[test]
fn the_definitions_carry_the_schema_of_the_return_type() {
    let registry = registry();
    for tool in ["forecast", "home_forecast", "first_forecast"] {
        let info = registry.info(tool).expect("registered");
        assert_eq!(info.output_schema, Some(&weather_schema()), "{tool}");
    }
    assert_eq!(
        registry.info("cities").expect("registered").output_schema,
        None
    );
    let mcp: Provider = "mcp".parse().expect("a provider");
    let definitions = mcp.definitions(&registry).expect("definitions");
    let output_schemas: Vec<(&str, bool)> = definitions
        .as_json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| {
            (
                tool["name"].as_str().expect("a name"),
                tool.get("outputSchema").is_some(),
            )
        })
        .collect();
    assert_eq!(
        output_schemas,
        [
            ("forecast", true),
            ("home_forecast", true),
            ("first_forecast", true),
            ("cities", false)
        ]
    );
}

#[tokio::test]
async fn each_result_carries_its_structured_content() {
    let registry = registry();
    let ctx = ToolContext::new("Oslo".to_owned());
    let cases = [
        (
            "forecast",
            json!({"city": "Rome"}),
            json!({"city": "Rome", "celsius": 21.5}),
        ),
        (
            "home_forecast",
            json!({}),
            json!({"city": "Oslo", "celsius": 18.0}),
        ),
        (
            "first_forecast",
            json!({"cities": []}),
            json!({"city": "Oslo", "celsius": 9.5}),
        ),
    ];
    for (tool, args, content) in cases {
        let result = registry.call(&ctx, tool, args).await;
        assert_eq!(result.structured_content(), Some(&content), "{tool}");
        assert_eq!(result.model_text(), content.to_string(), "{tool}");
    }
    // A tool's error is no output.
    let failed = registry.call(&ctx, "forecast", json!({"city": ""})).await;
    assert_eq!(failed.structured_content(), None);
    assert_eq!(failed.model_text(), "no city");
    assert!(failed.is_error());
}
