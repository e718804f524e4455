//! MCP's `inputSchema` says an optional parameter as its plain type, left
//! out of `required` (`Option<u8>` is `{"type": "integer"}`, not
//! `["integer", "null"]`, which MCP Inspector's `--strict` check flags and
//! its form cannot fill), down into nested structs; the formats schemars
//! writes for Rust's number types go, the range stays, in `outputSchema`
//! too (where the `null`s stay: an output says `null`). A client that sends
//! `null` anyway gets exactly the result of leaving the argument out.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, tool};

/// A page of results.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Page {
    /// The first result, 0-based.
    offset: Option<u32>,
    /// Results per page.
    size: u16,
}

fn three() -> Option<u8> {
    Some(3)
}

/// List the forecasts.
#[tool(tier = Observe)]
fn forecasts(
    /// The city.
    city: String,
    /// Days ahead, today when left out.
    days: Option<u8>,
    /// Lowest temperature to list.
    above: Option<f64>,
    /// Which page.
    page: Option<Page>,
    /// Retries: 3 when left out, none when `null`.
    #[serde(default = "three")]
    retries: Option<u8>,
) -> String {
    format!("city={city} days={days:?} above={above:?} page={page:?} retries={retries:?}")
}

/// The latest reading.
#[tool(
    tier = Observe,
    output_schema = tool_core::schema::input_schema_for::<Measured>()
)]
fn latest_reading() -> Value {
    json!({"celsius": 21.5, "samples": 3, "gust": null})
}

/// A reading, described as schemars writes it.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Measured {
    /// Degrees.
    celsius: f64,
    /// How many.
    samples: u32,
    /// Strongest wind, when measured.
    gust: Option<f32>,
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(Forecasts).with(LatestReading)
}

#[test]
fn the_output_schema_loses_the_formats_and_keeps_its_nulls() {
    let definitions = Provider::Mcp.definitions(&registry()).unwrap();
    // A tool's output does say `null` for an empty `Option`.
    assert_eq!(
        definitions.as_json()[1]["outputSchema"],
        json!({
            "type": "object",
            "properties": {
                "celsius": {"description": "Degrees.", "type": "number"},
                "samples": {"description": "How many.", "type": "integer", "minimum": 0},
                "gust": {"description": "Strongest wind, when measured.", "anyOf": [{"type": "number"}, {"type": "null"}]}
            },
            "required": ["celsius", "samples"]
        })
    );
}

#[test]
fn an_optional_parameter_is_its_plain_type_without_formats() {
    let definitions = Provider::Mcp.definitions(&registry()).unwrap();
    assert_eq!(
        definitions.as_json()[0]["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "city": {"description": "The city.", "type": "string"},
                "days": {
                    "description": "Days ahead, today when left out.",
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 255
                },
                "above": {"description": "Lowest temperature to list.", "type": "number"},
                // Definitions stay where they are, as MCP's JSON Schema
                // 2020-12 has them.
                "page": {"description": "Which page.", "$ref": "#/$defs/Page"},
                "retries": {
                    "description": "Retries: 3 when left out, none when `null`.",
                    "anyOf": [{"type": "integer"}, {"type": "null"}],
                    "minimum": 0,
                    "maximum": 255,
                    "default": 3
                }
            },
            "required": ["city"],
            "additionalProperties": false,
            "$defs": {
                "Page": {
                    "description": "A page of results.",
                    "type": "object",
                    "properties": {
                        "offset": {"description": "The first result, 0-based.", "type": "integer", "minimum": 0},
                        "size": {"description": "Results per page.", "type": "integer", "minimum": 0, "maximum": 65535}
                    },
                    "required": ["size"]
                }
            }
        })
    );
}

/// What the registry answers an MCP `tools/call` with `arguments`.
async fn answer(arguments: Value) -> Value {
    let request = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "forecasts", "arguments": arguments}
    });
    let turn = Provider::Mcp
        .respond(&registry(), &ToolContext::new(()), &request)
        .await
        .expect("a tools/call request");
    turn.reply()[0]["result"].clone()
}

#[tokio::test]
async fn null_from_a_client_is_the_parameter_left_out() {
    let left_out = answer(json!({"city": "Oslo", "page": {"size": 10}})).await;
    assert_eq!(
        left_out,
        json!({
            "content": [{"type": "text", "text": "city=Oslo days=None above=None page=Some(Page { offset: None, size: 10 }) retries=Some(3)"}],
            "isError": false
        })
    );
    let nulls = answer(json!({
        "city": "Oslo", "days": null, "above": null, "page": {"offset": null, "size": 10}
    }))
    .await;
    assert_eq!(nulls, left_out);
    // Where `null` says something else than "absent", it still does.
    let none = answer(json!({"city": "Oslo", "page": null, "retries": null})).await;
    assert_eq!(
        none["content"][0]["text"],
        "city=Oslo days=None above=None page=None retries=None"
    );
}
