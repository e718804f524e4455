//! The servers of the OpenAI Chat family (docs/providers.md 11): Groq,
//! Ollama and vLLM, against the payloads of their documentation in
//! `tests/fixtures/providers/`:
//!
//! - the names read and print back;
//! - each gets the tool definitions its documentation shows, exactly;
//! - each documented response parses into exactly its calls;
//! - `respond` answers them with the exact messages each server takes,
//!   equal to the documented ones where the tool returns the same thing;
//! - the model's turn goes back as each server takes it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::{ParseError, Provider};

use crate::payloads::{calls_of, fixture, some};
use tool_core::registry::RegistryError;
use tool_core::{ToolContext, ToolRegistry, ToolResult, TypedTool, tool};

fn ctx() -> ToolContext<()> {
    ToolContext::new(())
}

// ---------------------------------------------------------------------------
// The tools the fixtures call.
// ---------------------------------------------------------------------------

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Get current weather for a location
#[tool(tier = Observe)]
fn get_weather(
    /// City and state, e.g. San Francisco, CA
    location: String,
    /// The unit of temperature.
    unit: Option<Unit>,
) -> String {
    let _ = (location, unit);
    r#"{"temperature": 72, "condition": "sunny", "unit": "fahrenheit"}"#.to_owned()
}

/// Get the current weather in a given location
#[tool(tier = Observe)]
fn get_current_weather(
    /// The city and state, e.g. San Francisco, CA
    location: String,
    /// The unit of temperature.
    unit: Option<Unit>,
) -> String {
    let unit = match unit {
        Some(Unit::Fahrenheit) => "°F",
        _ => "°C",
    };
    format!("72{unit} in {location}")
}

/// Get the current weather for a location
#[tool(name = "get_current_weather", tier = Observe)]
fn weather_in_format(
    /// The location to get the weather for, e.g. San Francisco, CA
    location: String,
    /// The format to return the weather in, e.g. 'celsius' or 'fahrenheit'
    format: Unit,
) -> String {
    let degrees = match format {
        Unit::Celsius => "22 degrees celsius",
        Unit::Fahrenheit => "72 degrees fahrenheit",
    };
    format!("{degrees} in {location}")
}

/// Get the current temperature for a city
#[tool(tier = Observe)]
fn get_temperature(
    /// The name of the city
    city: String,
) -> String {
    match city.as_str() {
        "New York" => "22°C",
        "London" => "15°C",
        _ => "Unknown",
    }
    .to_owned()
}

/// Get the current weather conditions for a city
#[tool(tier = Observe)]
fn get_conditions(
    /// The name of the city
    city: String,
) -> String {
    match city.as_str() {
        "New York" => "Partly cloudy",
        "London" => "Rainy",
        _ => "Unknown",
    }
    .to_owned()
}

// ---------------------------------------------------------------------------
// Names.
// ---------------------------------------------------------------------------

#[test]
fn the_family_names_read_and_print_back() {
    let cases = [
        (Provider::Groq, "groq", "Groq", "Groq chat completion"),
        (Provider::Ollama, "ollama", "Ollama", "Ollama chat response"),
        (
            Provider::Vllm { strict: false },
            "vllm",
            "vLLM",
            "vLLM chat completion",
        ),
        (
            Provider::Vllm { strict: true },
            "vllm-strict",
            "vLLM",
            "vLLM chat completion",
        ),
    ];
    for (provider, name, api, kind) in cases {
        assert_eq!(name.parse::<Provider>(), Ok(provider));
        assert_eq!(provider.to_string(), name);
        assert_eq!(provider.api(), api);
        assert_eq!(provider.response_kind(), kind);
        assert!(Provider::ALL.contains(&provider), "{name} in ALL");
    }
    assert!(Provider::Vllm { strict: true }.is_strict());
    assert!(!Provider::Groq.is_strict() && !Provider::Ollama.is_strict());
    for provider in Provider::ALL {
        assert_eq!(provider.name().parse::<Provider>(), Ok(provider));
    }
    let error = "llama.cpp".parse::<Provider>().unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("`mcp`, `groq`, `ollama`, `vllm`, `vllm-strict`"),
        "{error}"
    );
}

// ---------------------------------------------------------------------------
// Definitions: exactly what each server receives.
// ---------------------------------------------------------------------------

/// A tool with a described optional enum and a ranged integer, the keywords
/// the servers treat differently.
#[derive(Deserialize, Serialize, JsonSchema)]
struct ForecastQuery {
    /// City and state, e.g. San Francisco, CA
    location: String,
    /// The unit of temperature.
    unit: Option<Unit>,
    /// Days ahead.
    #[schemars(range(max = 7))]
    days: u8,
}

/// Get the forecast for a location
#[tool(tier = Observe)]
fn forecast(
    /// What to forecast.
    query: ForecastQuery,
) -> String {
    query.location
}

fn weather_registry() -> ToolRegistry {
    ToolRegistry::new().with(GetWeather)
}

#[test]
fn groq_gets_openai_chat_definitions_without_strict() {
    let definitions = Provider::Groq.definitions(&weather_registry()).unwrap();
    assert_eq!(
        definitions.as_json(),
        &json!([{
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Get current weather for a location",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "location": {
                            "description": "City and state, e.g. San Francisco, CA",
                            "type": "string"
                        },
                        "unit": {
                            "description": "The unit of temperature.",
                            "anyOf": [
                                {"type": "string", "enum": ["celsius", "fahrenheit"]},
                                {"type": "null"}
                            ]
                        }
                    },
                    "required": ["location"],
                    "additionalProperties": false
                }
            }
        }])
    );
    assert!(definitions.not_strict().is_empty());
}

#[test]
fn vllm_gets_openai_chat_definitions_strict_or_not() {
    let registry = weather_registry();
    for strict in [false, true] {
        let vllm = Provider::Vllm { strict }.definitions(&registry).unwrap();
        let openai = Provider::OpenAiChat { strict }
            .definitions(&registry)
            .unwrap();
        assert_eq!(vllm.as_json(), openai.as_json(), "strict: {strict}");
        assert_eq!(vllm.as_json()[0]["function"]["strict"], json!(strict));
    }
}

#[test]
fn ollama_gets_only_the_fields_its_server_reads() {
    let registry: ToolRegistry = ToolRegistry::new().with(GetWeather).with(Forecast);
    let definitions = Provider::Ollama.definitions(&registry).unwrap();
    assert_eq!(
        definitions.as_json(),
        &json!([
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Get current weather for a location",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "location": {
                                "description": "City and state, e.g. San Francisco, CA",
                                "type": "string"
                            },
                            "unit": {
                                "description": "The unit of temperature.",
                                "anyOf": [
                                    {"type": "string", "enum": ["celsius", "fahrenheit"]},
                                    {"type": "null"}
                                ]
                            }
                        },
                        "required": ["location"]
                    }
                }
            },
            {
                "type": "function",
                "function": {
                    "name": "forecast",
                    "description": "Get the forecast for a location",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "query": {
                                "description": "What to forecast.\n\nA tool with a described optional enum and a ranged integer, the keywords\nthe servers treat differently.",
                                "type": "object",
                                "properties": {
                                    "location": {
                                        "description": "City and state, e.g. San Francisco, CA",
                                        "type": "string"
                                    },
                                    "unit": {
                                        "description": "The unit of temperature.",
                                        "anyOf": [
                                            {"type": "string", "enum": ["celsius", "fahrenheit"]},
                                            {"type": "null"}
                                        ]
                                    },
                                    "days": {
                                        "description": "Days ahead. (minimum: 0, maximum: 7)",
                                        "type": "integer"
                                    }
                                },
                                "required": ["location", "days"]
                            }
                        },
                        "required": ["query"]
                    }
                }
            }
        ])
    );
}

/// A tool whose arguments are one of several objects (an untagged enum as
/// the whole input).
struct LookUp;

impl TypedTool for LookUp {
    type Input = Value;
    type Output = ToolResult;

    fn name(&self) -> &str {
        "look_up"
    }

    fn description(&self) -> &str {
        "Look a place up, by name or by id."
    }

    fn input_schema(&self) -> Value {
        json!({"anyOf": [
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
        ]})
    }

    async fn execute(&self, _ctx: &ToolContext, _input: Value) -> ToolResult {
        ToolResult::text("found")
    }
}

#[test]
fn ollama_refuses_arguments_that_are_one_of_several_objects() {
    let registry: ToolRegistry = ToolRegistry::new().with(LookUp);
    let error = Provider::Ollama.definitions(&registry).unwrap_err();
    assert!(
        matches!(&error, RegistryError::SchemaRejected { by: "Ollama", .. }),
        "{error}"
    );
    assert!(
        error.to_string().ends_with(
            "the arguments are one of several objects (a flattened enum?), which Ollama's tool parameters cannot say: they keep only `type`, `properties` and `required` at the root"
        ),
        "{error}"
    );
}

// ---------------------------------------------------------------------------
// Groq.
// ---------------------------------------------------------------------------

#[test]
fn groq_response_parses_into_its_call_with_the_arguments_string() {
    let response = fixture("groq-chat-tool-call-response.json");
    let expected = vec![(
        some("call_d5wg"),
        "get_weather".to_owned(),
        json!("{\"location\": \"New York, NY\", \"unit\": \"fahrenheit\"}"),
    )];
    assert_eq!(calls_of(Provider::Groq, &response), expected);
    assert_eq!(
        calls_of(Provider::Groq, &response["choices"][0]["message"]),
        expected
    );
}

#[tokio::test]
async fn groq_reply_names_the_tool_as_groqs_documentation_does() {
    let registry = ToolRegistry::new().with(GetWeather);
    let response = fixture("groq-chat-tool-call-response.json");
    let turn = Provider::Groq
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "tool",
            "tool_call_id": "call_d5wg",
            "name": "get_weather",
            "content": "{\"temperature\": 72, \"condition\": \"sunny\", \"unit\": \"fahrenheit\"}"
        })]
    );
    assert_eq!(
        turn.model_turn(),
        [response["choices"][0]["message"].clone()]
    );
    assert_eq!(turn.text(), None);

    // The documented conversation: the assistant's message, then the tool
    // message, equal to ours for the same call and the same result.
    let documented = fixture("groq-chat-tool-result-messages.json");
    let turn = Provider::Groq
        .respond(&registry, &ctx(), &documented[1])
        .await
        .unwrap();
    assert_eq!(turn.model_turn(), [documented[1].clone()]);
    assert_eq!(turn.reply(), [documented[2].clone()]);
}

#[test]
fn groq_gets_back_only_the_assistant_fields_it_takes() {
    // A reasoning model's message, with the fields a response has and a
    // request refuses (Groq answers 400 "property ... is unsupported").
    let message = json!({
        "role": "assistant",
        "content": null,
        "reasoning": "The user wants the weather.",
        "tool_calls": [{"id": "call_d5wg", "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"}}],
        "executed_tools": [],
        "annotations": []
    });
    let response =
        json!({"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]});
    let mut expected = message.clone();
    let fields = expected.as_object_mut().unwrap();
    fields.remove("executed_tools");
    fields.remove("annotations");
    assert_eq!(Provider::Groq.model_turn(&response).unwrap(), [expected]);
    // OpenAI's own Chat takes the message back as it came.
    assert_eq!(
        Provider::OpenAiChat { strict: false }
            .model_turn(&response)
            .unwrap(),
        [message]
    );
}

// ---------------------------------------------------------------------------
// Ollama.
// ---------------------------------------------------------------------------

#[test]
fn ollama_response_parses_into_its_call_with_object_arguments_and_no_id() {
    let response = fixture("ollama-chat-tool-call-response.json");
    let expected = vec![(
        None,
        "get_current_weather".to_owned(),
        json!({"format": "celsius", "location": "Paris, FR"}),
    )];
    assert_eq!(calls_of(Provider::Ollama, &response), expected);
    assert_eq!(calls_of(Provider::Ollama, &response["message"]), expected);
}

#[tokio::test]
async fn ollama_reply_is_one_tool_message_naming_its_tool() {
    let registry = ToolRegistry::new().with(WeatherInFormat);
    let response = fixture("ollama-chat-tool-call-response.json");
    let turn = Provider::Ollama
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    // The call had no id: no `tool_call_id`, the tool's name says which.
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "tool",
            "tool_name": "get_current_weather",
            "content": "22 degrees celsius in Paris, FR"
        })]
    );
    // The message goes back as it came, as the documentation appends it.
    assert_eq!(turn.model_turn(), [response["message"].clone()]);
    // Ollama's empty `content` beside the calls is no text.
    assert_eq!(turn.text(), None);
    assert!(!turn.is_done());
}

#[tokio::test]
async fn ollama_replies_equal_the_documented_tool_results() {
    let registry = ToolRegistry::new().with(GetTemperature).with(GetConditions);
    for name in [
        "ollama-chat-tool-result-request.json",
        "ollama-chat-parallel-tool-results-request.json",
    ] {
        let documented = fixture(name);
        let messages = documented["messages"].as_array().unwrap();
        let assistant = &messages[1];
        let turn = Provider::Ollama
            .respond(&registry, &ctx(), assistant)
            .await
            .unwrap();
        assert_eq!(turn.model_turn(), std::slice::from_ref(assistant), "{name}");
        assert_eq!(turn.reply(), &messages[2..], "{name}");
    }
}

#[tokio::test]
async fn ollama_echoes_a_call_id_when_the_call_has_one() {
    // Ollama 0.12.10 and later give each call an id (and an index).
    let registry = ToolRegistry::new().with(GetTemperature);
    let response = json!({
        "model": "qwen3",
        "message": {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_k3x9q2ab", "function": {"index": 0, "name": "get_temperature", "arguments": {"city": "London"}}}
        ]},
        "done": true
    });
    let turn = Provider::Ollama
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "tool",
            "tool_call_id": "call_k3x9q2ab",
            "tool_name": "get_temperature",
            "content": "15°C"
        })]
    );
}

#[tokio::test]
async fn ollama_reads_its_openai_compatible_endpoint_too() {
    // `/v1/chat/completions`: OpenAI's shape, arguments as a string; the
    // reply's `tool_call_id` names the call there, `tool_name` is ignored.
    let registry = ToolRegistry::new().with(GetTemperature);
    let completion = json!({
        "id": "chatcmpl-18", "object": "chat.completion", "model": "qwen3",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "",
            "tool_calls": [{"id": "call_wteop8bt", "index": 0, "type": "function",
                            "function": {"name": "get_temperature", "arguments": "{\"city\":\"New York\"}"}}]
        }}]
    });
    let turn = Provider::Ollama
        .respond(&registry, &ctx(), &completion)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "tool",
            "tool_call_id": "call_wteop8bt",
            "tool_name": "get_temperature",
            "content": "22°C"
        })]
    );
    assert_eq!(
        turn.model_turn(),
        [completion["choices"][0]["message"].clone()]
    );
}

// ---------------------------------------------------------------------------
// vLLM.
// ---------------------------------------------------------------------------

#[tokio::test]
async fn vllm_response_is_answered_as_openai_chat() {
    let registry = ToolRegistry::new().with(GetCurrentWeather);
    let response = fixture("vllm-chat-tool-call-response.json");
    let provider = Provider::Vllm { strict: true };
    assert_eq!(
        calls_of(provider, &response),
        vec![(
            some("chatcmpl-tool-b99d32848b324eaea4bac5a5830d00b8"),
            "get_current_weather".to_owned(),
            json!("{\"location\": \"Boston, MA\", \"unit\": \"fahrenheit\"}"),
        )]
    );
    let turn = provider
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "tool",
            "tool_call_id": "chatcmpl-tool-b99d32848b324eaea4bac5a5830d00b8",
            "content": "72°F in Boston, MA"
        })]
    );
    assert_eq!(
        turn.model_turn(),
        [response["choices"][0]["message"].clone()]
    );
    let openai = Provider::OpenAiChat { strict: true }
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(turn.reply(), openai.reply());
}

// ---------------------------------------------------------------------------
// Errors and responses of the wrong shape.
// ---------------------------------------------------------------------------

#[tokio::test]
async fn the_servers_error_bodies_are_parse_errors() {
    let registry: ToolRegistry = ToolRegistry::new().with(GetTemperature);
    // Groq's 400 for a tool call the model got wrong, Ollama's error: both
    // as their documentation shows them.
    let groq = json!({"error": {
        "message": "Invalid tool call generated",
        "type": "invalid_request_error",
        "failed_generation": {
            "reason": "Tool call arguments are not valid JSON",
            "tool_call_id": "call_abc123",
            "attempted_arguments": "{'location': 'New York'}"
        }
    }});
    let ollama = json!({"error": "the model failed to generate a response"});
    for (provider, body) in [(Provider::Groq, &groq), (Provider::Ollama, &ollama)] {
        let error = provider.respond(&registry, &ctx(), body).await.unwrap_err();
        assert_eq!(error.provider, provider);
        assert_eq!(
            error.message,
            format!("the provider answered with an error: {}", body["error"])
        );
    }
}

#[test]
fn a_response_of_the_wrong_shape_says_what_was_expected() {
    let error = |provider: Provider, response: Value| -> ParseError {
        provider.parse_calls(&response).unwrap_err()
    };
    assert_eq!(
        error(Provider::Ollama, json!(1)).to_string(),
        "cannot read the tool calls of this Ollama chat response: expected a chat response (with `message`) or completion (with `choices`), its message or its `tool_calls`, got a number"
    );
    assert_eq!(
        error(Provider::Groq, json!({"model": "llama-3.3-70b-versatile"})).to_string(),
        "cannot read the tool calls of this Groq chat completion: expected a chat completion (with `choices`), its message or its `tool_calls`, got an object"
    );
    // Only Ollama's responses hold their message under `message`.
    let ollama_response = fixture("ollama-chat-tool-call-response.json");
    assert!(
        Provider::Vllm { strict: false }
            .parse_calls(&ollama_response)
            .is_err()
    );
}
