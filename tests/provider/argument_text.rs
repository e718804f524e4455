//! Streamed calls keep their arguments as text: Anthropic's as its stream
//! sent them, Gemini's and Ollama's as the stream's delta wrote them. The
//! registry then reads a `#[tool]`'s input out of that text, as it reads
//! OpenAI's arguments: the same results as from the value, and, where the
//! text is the provider's own, a key given twice refused as it is in
//! OpenAI's string (a parsed value has already dropped one).

use serde_json::json;
use tool_core::provider::stream::{StreamEvent, StreamReader};
use tool_core::provider::{Provider, ProviderCall};
use tool_core::{ToolContext, ToolRegistry, tool};

#[path = "../support/one_call_stream.rs"]
mod one_call_stream;

use one_call_stream::one_call_stream;

/// Get the weather for a city.
#[tool]
fn get_weather(city: String, days: Option<u8>) -> String {
    format!("{city}: sunny for {} days", days.unwrap_or(1))
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(GetWeather)
}

const ANTHROPIC: Provider = Provider::Anthropic { strict: false };

fn texts(calls: &[ProviderCall]) -> Vec<Option<&str>> {
    calls.iter().map(ProviderCall::arguments_text).collect()
}

#[tokio::test]
async fn from_anthropic_s_stream_a_key_given_twice_is_refused_as_in_openai_s_string() {
    let stream = anthropic_stream(r#"{"city": "Lyon", "city": "Paris"}"#);
    let calls = streamed_calls(ANTHROPIC, &stream);
    // The value has already dropped the first; the text has both.
    assert_eq!(calls[0].arguments(), &json!({"city": "Paris"}));
    let registry = registry();
    let ctx = ToolContext::new(());
    let results = registry
        .call_all(&ctx, calls.iter().map(ProviderCall::to_tool_call))
        .await;
    assert_eq!(
        results[0].model_text(),
        "invalid arguments for tool `get_weather`: argument `city` is given twice; give it once. Correct the arguments and call the tool again."
    );
}

/// Anthropic's stream of one call of `get_weather` whose input is `input`.
fn anthropic_stream(input: &str) -> String {
    one_call_stream(ANTHROPIC, "get_weather", input)
}

/// The calls a stream completes, read whole.
fn streamed_calls(provider: Provider, stream: &str) -> Vec<ProviderCall> {
    let mut reader: StreamReader = provider.stream_reader();
    let mut events = reader.feed(stream.as_bytes()).expect("read");
    events.extend(reader.end().expect("ended"));
    events
        .into_iter()
        .filter_map(|event| match event {
            StreamEvent::CallComplete { call, .. } => Some(call),
            _ => None,
        })
        .collect()
}

#[test]
fn streamed_calls_keep_their_arguments_text() {
    let anthropic = anthropic_stream(r#"{"city": "Oslo"}"#);
    let calls = streamed_calls(ANTHROPIC, &anthropic);
    assert_eq!(texts(&calls), [Some(r#"{"city": "Oslo"}"#)]);

    let gemini = one_call_stream(
        Provider::Gemini { openapi: false },
        "get_weather",
        r#"{"city": "Rome", "days": 3}"#,
    );
    let calls = streamed_calls(Provider::Gemini { openapi: false }, &gemini);
    assert_eq!(texts(&calls), [Some(r#"{"city":"Rome","days":3}"#)]);

    let ollama = one_call_stream(Provider::Ollama, "get_weather", r#"{"city": "Bern"}"#);
    let calls = streamed_calls(Provider::Ollama, &ollama);
    assert_eq!(texts(&calls), [Some(r#"{"city":"Bern"}"#)]);
}

#[tokio::test]
async fn a_streamed_call_gives_the_result_its_value_gives() {
    let registry = registry();
    let ctx = ToolContext::new(());
    let stream = anthropic_stream(r#"{"city": "Lyon", "days": 2}"#);
    let call = streamed_calls(ANTHROPIC, &stream).remove(0);
    let from_text = registry.call_all(&ctx, [call.to_tool_call()]).await;
    let from_value = registry
        .call_all(
            &ctx,
            [tool_core::registry::ToolCall::new(
                call.name(),
                call.arguments().clone(),
            )],
        )
        .await;
    assert_eq!(from_text[0].model_text(), "Lyon: sunny for 2 days");
    assert_eq!(from_text[0].model_text(), from_value[0].model_text());
}
