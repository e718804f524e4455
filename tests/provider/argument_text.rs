//! Calls read from text keep their arguments' text: a body given as text,
//! and Anthropic's, Gemini's and Ollama's streams. The registry then reads
//! a `#[tool]`'s input out of that text, as it reads OpenAI's arguments:
//! the same results as from the value, and a key given twice refused, as
//! it is in OpenAI's string (a parsed value has already dropped one).

use serde_json::{Value, json};
use tool_core::provider::stream::{StreamEvent, StreamReader};
use tool_core::provider::{Provider, ProviderCall};
use tool_core::{ToolContext, ToolRegistry, tool};

/// Get the weather for a city.
#[tool]
fn get_weather(city: String, days: Option<u8>) -> String {
    format!("{city}: sunny for {} days", days.unwrap_or(1))
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(GetWeather)
}

const ANTHROPIC: Provider = Provider::Anthropic { strict: false };

/// An Anthropic message with a web search's input (a server-side block),
/// then two calls of the client's, the second's arguments the search's.
const ANTHROPIC_BODY: &str = r#"{
  "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
  "content": [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "Paris"}},
    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city":"Lyon",  "days": 2}},
    {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": { "city" : "Paris" }}
  ],
  "stop_reason": "tool_use"
}"#;

fn texts(calls: &[ProviderCall]) -> Vec<Option<&str>> {
    calls.iter().map(ProviderCall::arguments_text).collect()
}

#[test]
fn a_body_given_as_text_keeps_each_call_s_arguments_as_they_came() {
    let calls = ANTHROPIC.parse_calls(ANTHROPIC_BODY).expect("calls");
    assert_eq!(
        texts(&calls),
        [
            Some(r#"{"city":"Lyon",  "days": 2}"#),
            Some(r#"{ "city" : "Paris" }"#)
        ]
    );
    // The same calls as from the value, which keeps no text.
    let value: Value = serde_json::from_str(ANTHROPIC_BODY).expect("JSON");
    let from_value = ANTHROPIC.parse_calls(&value).expect("calls");
    assert_eq!(calls, from_value);
    assert_eq!(texts(&from_value), [None, None]);
}

#[test]
fn equal_arguments_each_keep_a_text() {
    let body = r#"{"content": [
        {"type": "tool_use", "id": "a", "name": "get_weather", "input": {"city": "Oslo"}},
        {"type": "tool_use", "id": "b", "name": "get_weather", "input": {"city":"Oslo"}}
    ]}"#;
    let calls = ANTHROPIC.parse_calls(body).expect("calls");
    assert_eq!(
        texts(&calls),
        [Some(r#"{"city": "Oslo"}"#), Some(r#"{"city":"Oslo"}"#)]
    );
}

#[test]
fn every_family_with_object_arguments_keeps_their_text() {
    let gemini = r#"{"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}}
    ]}}]}"#;
    let ollama = r#"{"model": "qwen3", "message": {"role": "assistant", "content": "",
        "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Bern"}}}]}}"#;
    let mcp = r#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"city": "Kyiv"}}}"#;
    for (provider, body, text) in [
        (
            Provider::Gemini { openapi: false },
            gemini,
            r#"{"city": "Rome"}"#,
        ),
        (Provider::Ollama, ollama, r#"{"city": "Bern"}"#),
        (Provider::Mcp, mcp, r#"{"city": "Kyiv"}"#),
    ] {
        let calls = provider.parse_calls(body).expect("calls");
        assert_eq!(texts(&calls), [Some(text)], "{provider}");
    }
    // OpenAI's arguments are text already.
    let chat = r#"{"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\":\"Nice\"}"}}
    ]}}]}"#;
    let calls = Provider::OpenAiChat { strict: false }
        .parse_calls(chat)
        .expect("calls");
    assert_eq!(texts(&calls), [Some(r#"{"city":"Nice"}"#)]);
}

#[test]
fn a_body_that_is_not_json_is_a_parse_error() {
    let error = ANTHROPIC
        .parse_calls(r#"{"content": [}"#)
        .expect_err("not JSON");
    assert_eq!(
        error.to_string(),
        "cannot read the tool calls of this Anthropic Messages response: the body is not JSON (expected value at line 1 column 14)"
    );
}

#[tokio::test]
async fn respond_to_the_text_gives_the_turn_the_value_gives() {
    let registry = registry();
    let ctx = ToolContext::new(());
    let value: Value = serde_json::from_str(ANTHROPIC_BODY).expect("JSON");
    let from_text = ANTHROPIC
        .respond(&registry, &ctx, ANTHROPIC_BODY)
        .await
        .expect("turn");
    let from_value = ANTHROPIC
        .respond(&registry, &ctx, &value)
        .await
        .expect("turn");
    assert_eq!(from_text.reply(), from_value.reply());
    assert_eq!(from_text.model_turn(), from_value.model_turn());
    assert_eq!(
        from_text.reply(),
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Lyon: sunny for 2 days"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "Paris: sunny for 1 days"}
        ]})]
    );
}

#[tokio::test]
async fn from_the_text_a_key_given_twice_is_refused_as_in_openai_s_string() {
    let body = r#"{"content": [
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Lyon", "city": "Paris"}}
    ]}"#;
    let registry = registry();
    let ctx = ToolContext::new(());
    let turn = ANTHROPIC
        .respond(&registry, &ctx, body)
        .await
        .expect("turn");
    assert_eq!(
        turn.results()[0].model_text(),
        "invalid arguments for tool `get_weather`: argument `city` is given twice; give it once. Correct the arguments and call the tool again."
    );
    // The value has already dropped the first.
    let value: Value = serde_json::from_str(body).expect("JSON");
    let turn = ANTHROPIC
        .respond(&registry, &ctx, &value)
        .await
        .expect("turn");
    assert_eq!(turn.results()[0].model_text(), "Paris: sunny for 1 days");
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
    let event = |kind: &str, data: Value| format!("event: {kind}\ndata: {data}\n\n");
    let anthropic = [
        event(
            "message_start",
            json!({"type": "message_start", "message": {"role": "assistant", "content": []}}),
        ),
        event(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
        ),
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": "{\"city\": "}}),
        ),
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": "\"Oslo\"}"}}),
        ),
        event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        event("message_stop", json!({"type": "message_stop"})),
    ]
    .concat();
    let calls = streamed_calls(ANTHROPIC, &anthropic);
    assert_eq!(texts(&calls), [Some(r#"{"city": "Oslo"}"#)]);

    let gemini = format!(
        "data: {}\r\n\r\n",
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "Rome", "days": 3}}}
        ]}}]})
    );
    let calls = streamed_calls(Provider::Gemini { openapi: false }, &gemini);
    assert_eq!(texts(&calls), [Some(r#"{"city":"Rome","days":3}"#)]);

    let ollama = [
        json!({"message": {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "get_weather", "arguments": {"city": "Bern"}}}
        ]}, "done": false}),
        json!({"message": {"role": "assistant", "content": ""}, "done": true}),
    ]
    .map(|line| format!("{line}\n"))
    .concat();
    let calls = streamed_calls(Provider::Ollama, &ollama);
    assert_eq!(texts(&calls), [Some(r#"{"city":"Bern"}"#)]);
}
