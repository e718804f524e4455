//! `Definitions::token_counts` and `ToolResult::model_tokens`: exact
//! `o200k_base` counts of a fixed tool and a fixed result,
//! so that a change to the definitions' shape shows up here as a number.

#![cfg(feature = "tokens")]

use tool_core::provider::{Provider, ToolTokens};
use tool_core::{ToolRegistry, ToolResult, tool};

/// Get the current weather for a city.
#[tool(read_only)]
fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Days ahead, 0 for today.
    days: Option<u8>,
) -> String {
    format!("sunny in {city}, {days:?} days ahead")
}

/// Say hello.
#[tool]
fn hello() -> String {
    "hello".to_owned()
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(GetWeather).with(Hello)
}

/// The counts of each tool for `provider`, and their total.
fn counts(provider: Provider) -> (Vec<(String, usize)>, usize) {
    let definitions = provider
        .definitions(&registry())
        .expect("the tools suit every provider");
    let counts = definitions
        .token_counts()
        .into_iter()
        .map(|ToolTokens { name, tokens }| (name, tokens))
        .collect();
    (counts, definitions.total_tokens())
}

#[test]
fn each_tool_is_counted_and_the_counts_add_up_to_the_total() {
    let expected: [(Provider, [usize; 2]); 4] = [
        (Provider::Mcp, [88, 27]),
        (Provider::OpenAiChat { strict: true }, [94, 39]),
        (Provider::Anthropic { strict: false }, [83, 27]),
        (Provider::Gemini { openapi: false }, [84, 28]),
    ];
    for (provider, [weather, hello]) in expected {
        let (counts, total) = counts(provider);
        assert_eq!(
            counts,
            [
                ("get_weather".to_owned(), weather),
                ("hello".to_owned(), hello)
            ],
            "{provider}"
        );
        assert_eq!(total, weather + hello, "{provider}");
    }
}

#[test]
fn a_count_is_the_tokens_of_the_compact_json_of_the_definition() {
    let definitions = Provider::Mcp.definitions(&registry()).unwrap();
    let hello = &definitions.as_json()[1];
    assert_eq!(
        hello.to_string(),
        r#"{"name":"hello","description":"Say hello.","inputSchema":{"type":"object","additionalProperties":false,"properties":{}}}"#
    );
    assert_eq!(definitions.token_counts()[1].tokens, 27);
}

#[test]
fn a_results_count_is_the_tokens_of_the_text_the_model_reads() {
    let file = "fn main() {\n\tprintln!(\"hello\");\n}\n";
    let text = ToolResult::text(file);
    assert_eq!(text.model_tokens(), 10);
    // The same file as JSON, its newlines, tab and quotes escaped.
    let escaped = ToolResult::json(serde_json::json!({"content": file}));
    assert_eq!(
        escaped.model_text(),
        r#"{"content":"fn main() {\n\tprintln!(\"hello\");\n}\n"}"#
    );
    assert_eq!(escaped.model_tokens(), 20);
}
