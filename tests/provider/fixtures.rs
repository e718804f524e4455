//! The provider layer against real provider payloads (the files in
//! `tests/fixtures/providers/`, copied verbatim from the providers'
//! documentation and specifications):
//!
//! - each response fixture parses into exactly the calls it holds;
//! - `respond` answers them in the shape the documentation shows, equal to
//!   the documented result messages where the tool returns the same thing;
//! - `Provider::definitions` gives the tool definitions the fixtures show;
//! - the model's own turn is echoed as each provider wants it back;
//! - a response of the wrong shape is a `ParseError` with a stated text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::{ParseError, Provider};

use crate::payloads::{calls_of, fixture, some};
use tool_core::{ToolContext, ToolRegistry, tool};

fn ctx() -> ToolContext<()> {
    ToolContext::new(())
}

const ANTHROPIC: Provider = Provider::Anthropic { strict: false };
const CHAT: Provider = Provider::OpenAiChat { strict: false };
const RESPONSES: Provider = Provider::OpenAiResponses { strict: false };
const GEMINI: Provider = Provider::Gemini { openapi: false };

// ---------------------------------------------------------------------------
// The tools the fixtures call. Several are named `get_weather`, each for the
// registry of one test, since the fixtures expect different answers.
// ---------------------------------------------------------------------------

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Get the current weather in a given location.
#[tool(tier = Observe)]
fn get_current_weather(
    /// The city and state, e.g. San Francisco, CA.
    location: String,
) -> String {
    format!("72 degrees Fahrenheit in {location}")
}

/// Get the current weather in a given location.
#[tool(name = "get_weather", tier = Observe)]
fn fifteen_degrees(
    /// The city and state, e.g. San Francisco, CA.
    location: String,
    /// The unit of temperature.
    unit: Option<Unit>,
) -> String {
    let _ = (location, unit);
    "15 degrees".to_owned()
}

/// Get the current weather in a given location.
#[tool(name = "get_weather", tier = Observe)]
fn weather_service_down(
    /// The city and state, e.g. San Francisco, CA.
    location: String,
    /// The unit of temperature.
    unit: Option<Unit>,
) -> Result<String, String> {
    let _ = (location, unit);
    Err("ConnectionError: the weather service API is not available (HTTP 500)".to_owned())
}

/// Get the current weather in a given location.
#[tool(name = "get_weather", tier = Observe)]
fn weather_by_city(
    /// City and country e.g. Bogotá, Colombia
    location: String,
) -> String {
    format!("15 degrees in {location}")
}

/// Get current weather information for a location
#[tool(name = "get_weather", title = "Weather Information Provider", tier = Observe)]
fn weather_provider(
    /// City name or zip code
    location: String,
) -> String {
    format!("Current weather in {location}:\nTemperature: 72°F\nConditions: Partly cloudy")
}

/// Send an email.
#[tool(tier = Observe)]
fn send_email(
    /// The recipient's address.
    to: String,
    /// The message.
    body: String,
) -> String {
    format!("sent {} characters to {to}", body.len())
}

#[derive(Serialize)]
struct Theater {
    name: &'static str,
    address: &'static str,
}

#[derive(Serialize)]
struct Theaters {
    movie: String,
    theaters: Vec<Theater>,
}

/// find movie titles currently playing in theaters based on any description, genre, title words, etc.
#[tool(tier = Observe)]
fn find_movies(
    /// The city and state, e.g. San Francisco, CA or a zip code e.g. 95616
    location: Option<String>,
    /// Any kind of description including category or genre, title words, attributes, etc.
    description: String,
) -> Vec<String> {
    let _ = (location, description);
    vec!["Barbie".to_owned()]
}

/// find theaters based on location and optionally movie title which are is currently playing in theaters
#[tool(tier = Observe)]
fn find_theaters(
    /// The city and state, e.g. San Francisco, CA or a zip code e.g. 95616
    location: String,
    /// Any movie title
    movie: Option<String>,
) -> Theaters {
    let _ = location;
    Theaters {
        movie: movie.unwrap_or_default(),
        theaters: vec![
            Theater {
                name: "AMC Mountain View 16",
                address: "2000 W El Camino Real, Mountain View, CA 94040",
            },
            Theater {
                name: "Regal Edwards 14",
                address: "245 Castro St, Mountain View, CA 94040",
            },
        ],
    }
}

/// Find the start times for movies playing in a specific theater
#[tool(tier = Observe)]
fn get_showtimes(
    /// The city and state, e.g. San Francisco, CA or a zip code e.g. 95616
    location: String,
    /// Any movie title
    movie: String,
    /// Name of the theater
    theater: String,
    /// Date for requested showtime
    date: String,
) -> Vec<String> {
    let _ = (location, movie, theater, date);
    vec!["10:00".to_owned(), "13:30".to_owned()]
}

/// List the theaters in town.
#[tool(tier = Observe)]
fn list_theaters() -> Vec<&'static str> {
    vec!["AMC Mountain View 16", "Regal Edwards 14"]
}

// ---------------------------------------------------------------------------
// Parsing: every response fixture gives exactly its calls.
// ---------------------------------------------------------------------------

#[test]
fn openai_chat_response_parses_into_its_one_call_with_the_arguments_string() {
    let response = fixture("openai-chat-tool-call-response.json");
    let expected = vec![(
        some("call_abc123"),
        "get_current_weather".to_owned(),
        // Chat Completions sends the arguments as a JSON string, kept as is.
        json!("{\n\"location\": \"Boston, MA\"\n}"),
    )];
    assert_eq!(calls_of(CHAT, &response), expected);
    // The message alone holds the same calls.
    assert_eq!(calls_of(CHAT, &response["choices"][0]["message"]), expected);
}

#[test]
fn openai_responses_output_parses_into_three_calls_keyed_by_call_id() {
    let output = fixture("openai-responses-function_call-output.json");
    let expected = vec![
        (
            some("call_12345xyz"),
            "get_weather".to_owned(),
            json!("{\"location\":\"Paris, France\"}"),
        ),
        (
            some("call_67890abc"),
            "get_weather".to_owned(),
            json!("{\"location\":\"Bogotá, Colombia\"}"),
        ),
        (
            some("call_99999def"),
            "send_email".to_owned(),
            json!("{\"to\":\"bob@email.com\",\"body\":\"Hi bob\"}"),
        ),
    ];
    // The fixture is the `output` array; a whole response holds it.
    assert_eq!(calls_of(RESPONSES, &output), expected);
    let response = json!({"id": "resp_1", "object": "response", "output": output});
    assert_eq!(calls_of(RESPONSES, &response), expected);
}

#[test]
fn anthropic_response_parses_into_its_tool_use_block_only() {
    let response = fixture("anthropic-tool_use-response.json");
    let expected = vec![(
        some("toolu_01A09q90qw90lq917835lq9"),
        "get_weather".to_owned(),
        json!({"location": "San Francisco, CA", "unit": "celsius"}),
    )];
    assert_eq!(calls_of(ANTHROPIC, &response), expected);
    assert_eq!(calls_of(ANTHROPIC, &response["content"]), expected);
}

#[test]
fn gemini_response_parses_into_its_function_call_without_an_id() {
    let response = fixture("gemini-functionCall-response.json");
    let calls = GEMINI.parse_calls(&response).unwrap();
    assert_eq!(
        calls_of(GEMINI, &response),
        vec![(
            None,
            "find_theaters".to_owned(),
            json!({"movie": "Barbie", "location": "Mountain View, CA"}),
        )]
    );
    assert_eq!(calls[0].thought_signature(), None);
    assert_eq!(
        calls_of(GEMINI, &response["candidates"][0]["content"]),
        calls_of(GEMINI, &response)
    );
}

#[test]
fn mcp_tools_call_request_parses_into_one_call_with_the_request_id() {
    let request = fixture("mcp-2025-06-18-tools-call-request.json");
    assert_eq!(
        calls_of(Provider::Mcp, &request),
        vec![(
            some("2"),
            "get_weather".to_owned(),
            json!({"location": "New York"}),
        )]
    );
    // A batch is the calls of its requests, in order.
    let mut second = request.clone();
    second["id"] = json!("b");
    second["params"]["arguments"] = json!({"location": "Boston"});
    assert_eq!(
        calls_of(Provider::Mcp, &json!([request, second])),
        vec![
            (
                some("2"),
                "get_weather".to_owned(),
                json!({"location": "New York"})
            ),
            (
                some("b"),
                "get_weather".to_owned(),
                json!({"location": "Boston"})
            ),
        ]
    );
}

// ---------------------------------------------------------------------------
// Results: `respond` gives the documented result messages.
// ---------------------------------------------------------------------------

#[tokio::test]
async fn anthropic_success_reply_equals_the_documented_tool_result() {
    let registry = ToolRegistry::new().with(FifteenDegrees);
    let response = fixture("anthropic-tool_use-response.json");
    let turn = ANTHROPIC
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert!(!turn.is_done());
    assert_eq!(
        turn.reply(),
        [fixture("anthropic-tool_result-success.json")]
    );
}

#[tokio::test]
async fn anthropic_error_reply_has_is_error_like_the_documented_one() {
    // The tool's own `Err` text is what the model reads, unchanged: the
    // reply equals the documented error result exactly.
    let registry = ToolRegistry::new().with(WeatherServiceDown);
    let response = fixture("anthropic-tool_use-response.json");
    let turn = ANTHROPIC
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(turn.reply(), [fixture("anthropic-tool_result-error.json")]);

    // An error of the framework (here an argument the tool does not have)
    // has the same shape, with the framework's text.
    let registry = ToolRegistry::new().with(WeatherByCity);
    let turn = ANTHROPIC
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "user",
            "content": [{
                "type": "tool_result",
                "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                "content": "invalid arguments for tool `get_weather`: unknown argument `unit`; expected one of `location`. Correct the arguments and call the tool again.",
                "is_error": true
            }]
        })]
    );
}

#[tokio::test]
async fn openai_chat_reply_is_one_tool_message_per_call_in_order() {
    let registry = ToolRegistry::new().with(GetCurrentWeather).with(SendEmail);
    let response = fixture("openai-chat-tool-call-response.json");
    let turn = CHAT.respond(&registry, &ctx(), &response).await.unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "tool",
            "tool_call_id": "call_abc123",
            "content": "72 degrees Fahrenheit in Boston, MA"
        })]
    );

    // The same response with two more calls, the last one failing: one
    // message each, in the calls' order; Chat has no error flag, so a
    // failure is its text.
    let mut response = response;
    let tool_calls = response["choices"][0]["message"]["tool_calls"]
        .as_array_mut()
        .unwrap();
    tool_calls.push(json!({
        "id": "call_def456", "type": "function",
        "function": {"name": "send_email", "arguments": "{\"to\":\"bob@email.com\",\"body\":\"Hi bob\"}"}
    }));
    tool_calls.push(json!({
        "id": "call_ghi789", "type": "function",
        "function": {"name": "get_current_weather", "arguments": "{\"location\": "}
    }));
    let turn = CHAT.respond(&registry, &ctx(), &response).await.unwrap();
    assert_eq!(
        turn.reply(),
        [
            json!({"role": "tool", "tool_call_id": "call_abc123", "content": "72 degrees Fahrenheit in Boston, MA"}),
            json!({"role": "tool", "tool_call_id": "call_def456", "content": "sent 6 characters to bob@email.com"}),
            json!({
                "role": "tool",
                "tool_call_id": "call_ghi789",
                "content": "the arguments for tool `get_current_weather` are not valid JSON (EOF while parsing a value at line 1 column 13); send them as a JSON object"
            }),
        ]
    );
    assert!(turn.results()[2].is_error());
}

#[tokio::test]
async fn openai_responses_reply_is_one_function_call_output_per_call_in_order() {
    let registry = ToolRegistry::new().with(WeatherByCity).with(SendEmail);
    let output = fixture("openai-responses-function_call-output.json");
    let turn = RESPONSES.respond(&registry, &ctx(), &output).await.unwrap();
    assert_eq!(
        turn.reply(),
        [
            json!({"type": "function_call_output", "call_id": "call_12345xyz", "output": "15 degrees in Paris, France"}),
            json!({"type": "function_call_output", "call_id": "call_67890abc", "output": "15 degrees in Bogotá, Colombia"}),
            json!({"type": "function_call_output", "call_id": "call_99999def", "output": "sent 6 characters to bob@email.com"}),
        ]
    );
}

#[tokio::test]
async fn gemini_reply_is_one_user_content_of_function_responses() {
    let registry = ToolRegistry::new().with(FindTheaters);
    let response = fixture("gemini-functionCall-response.json");
    let turn = GEMINI.respond(&registry, &ctx(), &response).await.unwrap();

    // The documented sample (gemini-functionResponse-request.json) is an
    // older one: its results come in a content of role "function" and its
    // `response` object has its own keys (`name`, `content`). The current
    // documentation puts them in a "user" content, and asks for the output
    // under `output` (an error under `error`), which is what we send. No
    // `id`: the call had none.
    let documented = fixture("gemini-functionResponse-request.json");
    let documented_part = &documented["contents"][2]["parts"][0]["functionResponse"];
    assert_eq!(documented["contents"][2]["role"], "function");
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "user",
            "parts": [{
                "functionResponse": {
                    "name": documented_part["name"],
                    "response": {"output": documented_part["response"]["content"]}
                }
            }]
        })]
    );

    // A failing call (here a required argument left out) answers under
    // `error`, with the framework's text.
    let mut response = response;
    response["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] =
        json!({"movie": "Barbie"});
    let turn = GEMINI.respond(&registry, &ctx(), &response).await.unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "user",
            "parts": [{
                "functionResponse": {
                    "name": "find_theaters",
                    "response": {"error": "invalid arguments for tool `find_theaters`: missing argument `location`. Correct the arguments and call the tool again."}
                }
            }]
        })]
    );
}

#[tokio::test]
async fn gemini_call_id_is_echoed_when_the_call_has_one() {
    let registry = ToolRegistry::new().with(FindTheaters);
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "fc-1", "name": "find_theaters", "args": {"location": "Mountain View, CA", "movie": "Barbie"}}}
    ]}}]});
    let turn = GEMINI.respond(&registry, &ctx(), &response).await.unwrap();
    assert_eq!(turn.calls()[0].id(), Some("fc-1"));
    assert_eq!(
        turn.reply()[0]["parts"][0]["functionResponse"]["id"],
        "fc-1"
    );
}

#[tokio::test]
async fn mcp_reply_equals_the_documented_call_tool_result() {
    let registry = ToolRegistry::new().with(WeatherProvider);
    let request = fixture("mcp-2025-06-18-tools-call-request.json");
    let turn = Provider::Mcp
        .respond(&registry, &ctx(), &request)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [fixture("mcp-2025-06-18-tools-call-response.json")]
    );
    // MCP's client keeps the conversation: there is no model turn to echo.
    assert!(turn.model_turn().is_empty());

    // A batch: one response per request, each with its request's id.
    let mut second = request.clone();
    second["id"] = json!("b");
    second["params"]["arguments"] = json!({"location": "Boston"});
    let turn = Provider::Mcp
        .respond(&registry, &ctx(), &json!([request, second]))
        .await
        .unwrap();
    let ids: Vec<&Value> = turn.reply().iter().map(|reply| &reply["id"]).collect();
    assert_eq!(ids, [&json!(2), &json!("b")]);
    assert_eq!(
        turn.reply()[1]["result"]["content"][0]["text"],
        "Current weather in Boston:\nTemperature: 72°F\nConditions: Partly cloudy"
    );
}

#[tokio::test]
async fn mcp_unknown_tool_is_a_json_rpc_error_and_bad_arguments_a_tool_error() {
    let registry = ToolRegistry::new().with(WeatherProvider);
    let mut request = fixture("mcp-2025-06-18-tools-call-request.json");
    request["params"]["name"] = json!("get_wether");
    let turn = Provider::Mcp
        .respond(&registry, &ctx(), &request)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "jsonrpc": "2.0",
            "id": 2,
            "error": {
                "code": -32602,
                "message": "unknown tool `get_wether`. Did you mean `get_weather`? Available tools: `get_weather`."
            }
        })]
    );

    // Arguments that do not fit are a result the model reads (`isError`),
    // as MCP 2025-11-25 asks, not a protocol error.
    let mut request = fixture("mcp-2025-06-18-tools-call-request.json");
    request["params"]["arguments"] = json!({"city": "New York"});
    let turn = Provider::Mcp
        .respond(&registry, &ctx(), &request)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [json!({
            "jsonrpc": "2.0",
            "id": 2,
            "result": {
                "content": [{
                    "type": "text",
                    "text": "invalid arguments for tool `get_weather`: unknown argument `city`; expected one of `location`; missing argument `location`. Correct the arguments and call the tool again."
                }],
                "isError": true
            }
        })]
    );
}

// ---------------------------------------------------------------------------
// Definitions against the documented ones.
// ---------------------------------------------------------------------------

#[test]
fn mcp_definition_is_the_documented_tool_plus_annotations() {
    let registry: ToolRegistry = ToolRegistry::new().with(WeatherProvider);
    let definitions = Provider::Mcp.definitions(&registry).unwrap();
    let mut ours = definitions.as_json()[0].clone();
    let documented = &fixture("mcp-2025-06-18-tools-list-response.json")["result"]["tools"][0];

    // What we add: the annotations (the tool's title; its hints are MCP's
    // defaults, which go without saying)...
    let annotations = ours.as_object_mut().unwrap().remove("annotations");
    assert_eq!(
        annotations,
        Some(json!({"title": "Weather Information Provider"}))
    );
    // ...and `additionalProperties: false`, since a function tool refuses
    // arguments it does not have.
    let closed = ours["inputSchema"]
        .as_object_mut()
        .unwrap()
        .remove("additionalProperties");
    assert_eq!(closed, Some(json!(false)));

    assert_eq!(&ours, documented);
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Retrieves current weather for the given location.
#[tool(name = "get_weather", tier = Observe)]
fn weather_in_units(
    /// City and country e.g. Bogotá, Colombia
    location: String,
    /// Units the temperature will be returned in.
    units: Option<Units>,
) -> String {
    let _ = (location, units);
    "15 degrees".to_owned()
}

#[test]
fn openai_strict_definition_is_the_documented_one_with_null_in_the_enum() {
    let registry: ToolRegistry = ToolRegistry::new().with(WeatherInUnits);
    let definitions = Provider::OpenAiChat { strict: true }
        .definitions(&registry)
        .unwrap();
    assert!(definitions.not_strict().is_empty());
    let ours = &definitions.as_json()[0];

    // The documented definition says `"type": ["string", "null"]` with an
    // `enum` that lacks `null`, which JSON Schema reads as refusing `null`:
    // ours lists `null` among the values. Everything else is the same.
    let units = &ours["function"]["parameters"]["properties"]["units"];
    assert_eq!(units["type"], json!(["string", "null"]));
    assert_eq!(units["enum"], json!(["celsius", "fahrenheit", null]));

    let mut documented = fixture("openai-chat-strict-tool-definition.json");
    documented["function"]["parameters"]["properties"]["units"]["enum"]
        .as_array_mut()
        .unwrap()
        .push(Value::Null);
    assert_eq!(ours, &documented);
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum NamedUnits {
    Celsius,
    Fahrenheit,
}

/// Retrieves current weather for the given location.
#[tool(name = "get_weather", tier = Observe)]
fn weather_in_named_units(
    /// City and country e.g. Bogotá, Colombia
    location: String,
    /// Units the temperature will be returned in.
    units: Option<NamedUnits>,
) -> String {
    let _ = (location, units);
    "15 degrees".to_owned()
}

#[test]
fn openai_strict_definition_of_an_enum_used_once_writes_it_in_place() {
    // Without `#[schemars(inline)]`, schemars refers to the enum in `$defs`;
    // used once, it is written in its place, which costs fewer tokens: the
    // optional `units` is `anyOf: [enum, null]` rather than the documented
    // flat `type` + `enum`. Both accept the same values.
    let registry: ToolRegistry = ToolRegistry::new().with(WeatherInNamedUnits);
    let definitions = Provider::OpenAiChat { strict: true }
        .definitions(&registry)
        .unwrap();
    let parameters = &definitions.as_json()[0]["function"]["parameters"];
    assert_eq!(
        parameters["properties"]["units"],
        json!({
            "anyOf": [
                {"type": "string", "enum": ["celsius", "fahrenheit"]},
                {"type": "null"}
            ],
            "description": "Units the temperature will be returned in."
        })
    );
    assert!(parameters.get("$defs").is_none());
    assert_eq!(parameters["required"], json!(["location", "units"]));
    assert_eq!(parameters["additionalProperties"], json!(false));
}

#[test]
fn gemini_openapi_declarations_are_the_documented_ones_plus_property_ordering() {
    let registry: ToolRegistry = ToolRegistry::new()
        .with(FindMovies)
        .with(FindTheaters)
        .with(GetShowtimes);
    let definitions = Provider::Gemini { openapi: true }
        .definitions(&registry)
        .unwrap();
    let mut ours = definitions.as_json().clone();
    let documented = &fixture("gemini-functionResponse-request.json")["tools"];

    let declarations = ours[0]["functionDeclarations"].as_array_mut().unwrap();
    let mut orderings = Vec::new();
    let mut nullable = Vec::new();
    for declaration in declarations {
        let parameters = declaration["parameters"].as_object_mut().unwrap();
        // We add `propertyOrdering` (the OpenAPI form has no key order of
        // its own)...
        orderings.push(parameters.remove("propertyOrdering").unwrap());
        // ...and `nullable: true` on the `Option` arguments, which accept
        // `null` in Rust too.
        for (name, property) in parameters["properties"].as_object_mut().unwrap() {
            if property.as_object_mut().unwrap().remove("nullable") == Some(json!(true)) {
                nullable.push(name.clone());
            }
        }
    }
    assert_eq!(
        orderings,
        [
            json!(["location", "description"]),
            json!(["location", "movie"]),
            json!(["location", "movie", "theater", "date"]),
        ]
    );
    assert_eq!(nullable, ["location", "movie"]);
    assert_eq!(&ours, documented);
}

// ---------------------------------------------------------------------------
// The model's turn, echoed before the results.
// ---------------------------------------------------------------------------

#[tokio::test]
async fn anthropic_model_turn_is_the_assistant_message_with_every_block() {
    let response = fixture("anthropic-tool_use-response.json");
    let expected = vec![json!({"role": "assistant", "content": response["content"]})];
    assert_eq!(ANTHROPIC.model_turn(&response).unwrap(), expected);

    let registry = ToolRegistry::new().with(FifteenDegrees);
    let turn = ANTHROPIC
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(turn.model_turn(), expected);
    let mut conversation = Vec::new();
    turn.append_to(&mut conversation);
    assert_eq!(
        conversation,
        [
            expected[0].clone(),
            fixture("anthropic-tool_result-success.json")
        ]
    );
}

#[test]
fn openai_chat_model_turn_is_the_assistant_message() {
    let response = fixture("openai-chat-tool-call-response.json");
    assert_eq!(
        CHAT.model_turn(&response).unwrap(),
        [response["choices"][0]["message"].clone()]
    );
}

#[tokio::test]
async fn gemini_model_turn_is_the_content_verbatim_with_its_thought_signature() {
    // A Gemini 3 response: text, then a call without `args` (a tool without
    // arguments) whose part carries the signature Gemini wants back.
    let content = json!({
        "role": "model",
        "parts": [
            {"text": "Let me list the theaters."},
            {"functionCall": {"name": "list_theaters"}, "thoughtSignature": "CiQBcsjafBxZ3Gu0hVvUeQ=="}
        ]
    });
    let response = json!({
        "candidates": [{"content": content, "finishReason": "STOP", "index": 0}],
        "modelVersion": "gemini-3-pro-preview"
    });

    let calls = GEMINI.parse_calls(&response).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name(), "list_theaters");
    assert_eq!(calls[0].id(), None);
    assert_eq!(calls[0].arguments(), &json!({}));
    assert_eq!(
        calls[0].thought_signature(),
        Some("CiQBcsjafBxZ3Gu0hVvUeQ==")
    );
    assert_eq!(
        GEMINI.model_turn(&response).unwrap(),
        std::slice::from_ref(&content)
    );

    let registry = ToolRegistry::new().with(ListTheaters);
    let turn = GEMINI.respond(&registry, &ctx(), &response).await.unwrap();
    assert_eq!(turn.model_turn(), [content]);
    assert_eq!(
        turn.reply(),
        [json!({
            "role": "user",
            "parts": [{
                "functionResponse": {
                    "name": "list_theaters",
                    "response": {"output": ["AMC Mountain View 16", "Regal Edwards 14"]}
                }
            }]
        })]
    );
}

#[tokio::test]
async fn openai_responses_model_turn_is_every_output_item_with_reasoning() {
    let mut output = vec![json!({
        "type": "reasoning",
        "id": "rs_68af",
        "summary": [],
        "encrypted_content": "gAAAAABo..."
    })];
    output.extend(
        fixture("openai-responses-function_call-output.json")
            .as_array()
            .unwrap()
            .iter()
            .cloned(),
    );
    let response = json!({"id": "resp_1", "object": "response", "output": output});
    assert_eq!(RESPONSES.model_turn(&response).unwrap(), output);

    let registry = ToolRegistry::new().with(WeatherByCity).with(SendEmail);
    let turn = RESPONSES
        .respond(&registry, &ctx(), &response)
        .await
        .unwrap();
    assert_eq!(turn.calls().len(), 3);
    assert_eq!(turn.model_turn(), output);
}

// ---------------------------------------------------------------------------
// Responses of the wrong shape.
// ---------------------------------------------------------------------------

/// The error reading `response` as `provider` gives.
fn parse_error(provider: Provider, response: Value) -> ParseError {
    provider
        .parse_calls(&response)
        .expect_err("a response of the wrong shape")
}

#[test]
fn a_gemini_response_of_the_wrong_shape_is_a_parse_error() {
    let error = parse_error(GEMINI, fixture("anthropic-tool_use-response.json"));
    assert_eq!(
        error.to_string(),
        "cannot read the tool calls of this Gemini response: expected a response (with `candidates`), a content (with `parts`) or its parts, got an object"
    );
    assert_eq!(error.provider, GEMINI);
    assert_eq!(
        GEMINI
            .model_turn(&fixture("anthropic-tool_use-response.json"))
            .unwrap_err(),
        error
    );

    let mut safety_stop = fixture("gemini-functionCall-response.json");
    safety_stop["candidates"][0]
        .as_object_mut()
        .unwrap()
        .remove("content");
    safety_stop["candidates"][0]["finishReason"] = json!("SAFETY");
    assert_eq!(
        parse_error(GEMINI, safety_stop).to_string(),
        "cannot read the tool calls of this Gemini response: `candidates[0]` has no `content` (finishReason `SAFETY`)"
    );
}

#[test]
fn a_response_of_the_wrong_shape_is_a_parse_error_for_every_provider() {
    // The other providers' messages; the full text is "cannot read the
    // tool calls of this <what is read>: <message>".
    let cases = [
        (
            ANTHROPIC,
            json!("I'll check the weather."),
            "expected a message (with `content`) or its content blocks, got a string",
        ),
        (
            ANTHROPIC,
            json!({"content": [{"type": "tool_use", "name": "get_weather", "input": {}}]}),
            "`content[0]` has no `id`",
        ),
        (
            ANTHROPIC,
            json!({"id": "msg_1", "role": "assistant"}),
            "expected a message (with `content`) or its content blocks, got an object without `content`",
        ),
        (
            CHAT,
            fixture("gemini-functionCall-response.json"),
            "expected a chat completion (with `choices`), its message or its `tool_calls`, got an object",
        ),
        (
            CHAT,
            json!({"choices": []}),
            "`choices[0]` has no `message`",
        ),
        (
            CHAT,
            json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "custom", "custom": {}}]}),
            "`tool_calls[0]` is a `custom` call, not a function call",
        ),
        (
            CHAT,
            json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": 7}}]}),
            "`tool_calls[0]`.function has a `name` that is not a string: 7",
        ),
        (
            RESPONSES,
            json!(42),
            "expected a response (with `output`) or its output items, got a number",
        ),
        (
            RESPONSES,
            json!([{"type": "function_call", "name": "get_weather", "arguments": "{}"}]),
            "`output[0]` has no `call_id`",
        ),
        (
            RESPONSES,
            json!({"id": "resp_1", "status": "completed"}),
            "expected a response (with `output`) or its output items, got an object without `output`",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            "expected a `tools/call` request, got `tools/list`",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
            "the request has no `params`",
        ),
        (
            Provider::Mcp,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "isError": false}}),
            "expected a `tools/call` request, got a JSON-RPC response (it has `result` and no `method`)",
        ),
    ];
    for (provider, response, message) in cases {
        let error = parse_error(provider, response);
        assert_eq!(error.provider, provider);
        assert_eq!(error.message, message, "{provider}");
    }
}

/// A bare list of calls is read alike for every provider: Chat's
/// `tool_calls`, Responses' output items, Anthropic's content blocks,
/// Gemini's parts; and the turn carried back is the message that holds it.
#[test]
fn bare_lists_of_calls_are_read_alike() {
    let cases = [
        (
            CHAT,
            json!([{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]),
            json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}),
        ),
        (
            RESPONSES,
            json!([{"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}]),
            json!({"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}),
        ),
        (
            ANTHROPIC,
            json!([{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]),
            json!({"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]}),
        ),
        (
            GEMINI,
            json!([{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]),
            json!({"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}),
        ),
    ];
    for (provider, bare, turn) in cases {
        let calls = provider.parse_calls(&bare).expect("a bare list reads");
        assert_eq!(calls.len(), 1, "{provider}");
        assert_eq!(calls[0].name(), "get_weather", "{provider}");
        let turns = provider.model_turn(&bare).expect("a turn");
        assert_eq!(turns.first(), Some(&turn), "{provider}");
    }
}

#[test]
fn the_text_names_what_was_read() {
    let cases = [
        (
            ANTHROPIC,
            "cannot read the tool calls of this Anthropic Messages response: ",
        ),
        (
            CHAT,
            "cannot read the tool calls of this OpenAI Chat Completions response: ",
        ),
        (
            RESPONSES,
            "cannot read the tool calls of this OpenAI Responses response: ",
        ),
        (
            GEMINI,
            "cannot read the tool calls of this Gemini response: ",
        ),
        (
            Provider::Mcp,
            "cannot read the tool calls of this MCP tools/call request: ",
        ),
    ];
    for (provider, start) in cases {
        let text = parse_error(provider, json!(1)).to_string();
        assert!(text.starts_with(start), "{text}");
    }
}

#[tokio::test]
async fn an_api_error_body_is_a_parse_error_not_a_final_answer() {
    // An agent loop ends on `turn.is_done()`: an overloaded or rate-limited
    // API must not end it as if the model had answered.
    let anthropic_error = json!({"type": "error", "error": {
        "type": "overloaded_error", "message": "Overloaded"
    }});
    let openai_error = json!({"error": {
        "message": "Rate limit reached", "type": "requests", "param": null, "code": "rate_limit_exceeded"
    }});
    let gemini_error = json!({"error": {
        "code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"
    }});
    let registry: ToolRegistry = ToolRegistry::new().with(FifteenDegrees);
    let cases = [
        (ANTHROPIC, &anthropic_error),
        (CHAT, &openai_error),
        (RESPONSES, &openai_error),
        (GEMINI, &gemini_error),
    ];
    for (provider, body) in cases {
        let error = provider.respond(&registry, &ctx(), body).await.unwrap_err();
        assert_eq!(error.provider, provider);
        assert_eq!(
            error.message,
            format!("the provider answered with an error: {}", body["error"]),
            "{provider}"
        );
    }
    assert_eq!(
        parse_error(ANTHROPIC, anthropic_error).to_string(),
        "cannot read the tool calls of this Anthropic Messages response: the provider answered with an error: \
         {\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}"
    );
}
