//! What else a tool tells a provider (docs/providers.md 13.2): example
//! inputs checked when the tool is registered and sent as Anthropic's
//! `input_examples`, `eager_input_streaming`, and who may call the tool
//! (`allowed_callers`, Anthropic's and OpenAI Responses' names); none of
//! them sent to a provider that takes none.

use serde_json::{Value, json};
use tool_core::policy::Callers;
use tool_core::provider::Provider;
use tool_core::registry::RegistryError;
use tool_core::{BoxFuture, Tool, ToolContext, ToolMetadata, ToolRegistry, ToolResult, tool};

/// Get the current weather in a given location
#[tool(
    example = r#"{"location": "San Francisco, CA", "unit": "fahrenheit"}"#,
    example = r#"{"location": "Tokyo, Japan", "unit": "celsius"}"#,
    example = r#"{"location": "New York, NY"}"#
)]
fn get_weather(
    /// The city and state, e.g. San Francisco, CA
    location: String,
    /// The unit of temperature
    unit: Option<String>,
) -> String {
    format!("sunny in {location} ({})", unit.unwrap_or_default())
}

/// Write text to a file
#[tool(eager_input_streaming)]
fn make_file(
    /// The filename to write text to
    filename: String,
    /// An array of lines of text to write to the file
    lines_of_text: Vec<String>,
) -> String {
    format!("{} lines to {filename}", lines_of_text.len())
}

/// Execute a SQL query against the database
#[tool(callers = "code")]
fn query_database(sql: String) -> String {
    sql
}

/// Look up a customer.
#[tool(callers = "model_and_code")]
fn get_customer(id: String) -> String {
    id
}

pub(crate) fn registry() -> ToolRegistry {
    ToolRegistry::new()
        .with(GetWeather)
        .with(MakeFile)
        .with(QueryDatabase)
        .with(GetCustomer)
}

fn definitions(provider: Provider) -> Value {
    provider
        .definitions(&registry())
        .expect("listed")
        .as_json()
        .clone()
}

#[test]
fn anthropic_gets_each_extra_where_the_guides_put_it() {
    let tools = definitions(Provider::Anthropic { strict: false });
    assert_eq!(
        tools[0]["input_examples"],
        json!([
            {"location": "San Francisco, CA", "unit": "fahrenheit"},
            {"location": "Tokyo, Japan", "unit": "celsius"},
            {"location": "New York, NY"}
        ])
    );
    assert_eq!(tools[1]["eager_input_streaming"], json!(true));
    assert_eq!(
        tools[2]["allowed_callers"],
        json!(["code_execution_20260120"])
    );
    assert_eq!(
        tools[3]["allowed_callers"],
        json!(["direct", "code_execution_20260120"])
    );
    // Nothing where nothing was said.
    assert!(tools[0].get("allowed_callers").is_none());
    assert!(tools[2].get("input_examples").is_none());
}

#[test]
fn openai_responses_gets_who_may_call_in_its_own_names_and_the_others_nothing() {
    let responses = definitions(Provider::OpenAiResponses { strict: false });
    assert_eq!(responses[2]["allowed_callers"], json!(["programmatic"]));
    assert_eq!(
        responses[3]["allowed_callers"],
        json!(["direct", "programmatic"])
    );
    assert!(responses[0].get("input_examples").is_none());
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::Gemini { openapi: false },
        Provider::Mcp,
        Provider::Groq,
    ] {
        let text = definitions(provider).to_string();
        for field in ["input_examples", "eager_input_streaming", "allowed_callers"] {
            assert!(!text.contains(field), "{provider}: {field}");
        }
    }
}

#[test]
fn a_strict_anthropic_tool_that_code_may_call_goes_loose_and_says_why() {
    let registry = registry();
    let strict = Provider::Anthropic { strict: true }
        .definitions(&registry)
        .expect("listed");
    assert_eq!(strict.as_json()[2]["strict"], json!(false));
    assert_eq!(strict.as_json()[0]["strict"], json!(true));
    let loose: Vec<String> = strict
        .not_strict()
        .iter()
        .map(ToString::to_string)
        .collect();
    let why =
        "code may call it (`allowed_callers`), and programmatic tool calling takes no strict tools";
    assert_eq!(
        loose,
        [
            format!(
                "tool `query_database` is sent with `strict: false`: its input schema cannot be made strict ({why})"
            ),
            format!(
                "tool `get_customer` is sent with `strict: false`: its input schema cannot be made strict ({why})"
            ),
        ]
    );
}

/// A tool whose example its schema refuses.
struct Wrong;

impl Tool for Wrong {
    fn name(&self) -> &str {
        "get_time"
    }
    fn description(&self) -> &str {
        "Get the time in a time zone."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]})
    }
    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            // The second names an argument the tool does not take, and
            // leaves out the one it requires.
            input_examples: vec![
                json!({"timezone": "Europe/Paris"}).to_string().into(),
                json!({"zone": 1}).to_string().into(),
            ]
            .into(),
            callers: Callers::Model,
            ..ToolMetadata::DEFAULT
        }
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("noon") })
    }
}

#[test]
fn an_example_the_schema_refuses_is_a_registration_error_naming_it() {
    let mut registry: ToolRegistry = ToolRegistry::new();
    let refused = registry.register(Wrong).expect_err("refused");
    assert!(matches!(
        refused,
        RegistryError::InvalidExample { index: 1, .. }
    ));
    assert_eq!(
        refused.to_string(),
        "example 1 of tool `get_time` does not pass its input schema: missing argument `timezone`"
    );
    assert!(registry.tools().len() == 0);
}

/// Say hello.
#[tool(example = "{\"name\": ")]
fn hello(name: String) -> String {
    name
}

#[test]
fn an_example_that_is_not_json_is_a_registration_error_too() {
    let mut registry: ToolRegistry = ToolRegistry::new();
    let refused = registry.register(Hello).expect_err("refused");
    assert_eq!(
        refused.to_string(),
        "example 0 of tool `hello` does not pass its input schema: it is not JSON: EOF while parsing a value at line 1 column 9"
    );
}
