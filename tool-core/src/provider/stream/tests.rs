//! The stream readers on the providers' documented streams, on the
//! streamed form of every whole-response fixture (which must come back
//! whole, the same), cut at every byte, and on streams that break.

use serde_json::{Value, json};

use crate::provider::selector::Provider;
use crate::provider::stream::event::StreamEvent;
use crate::provider::stream::reader::StreamReader;

const CHAT: Provider = Provider::OpenAiChat { strict: false };
const ANTHROPIC: Provider = Provider::Anthropic { strict: false };
const RESPONSES: Provider = Provider::OpenAiResponses { strict: true };
const GEMINI: Provider = Provider::Gemini { openapi: false };
const OLLAMA: Provider = Provider::Ollama;

fn fixture(name: &str) -> String {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// Every event of `stream` fed in pieces of `piece` bytes, and the whole
/// response.
fn read(reader: StreamReader, stream: &[u8], piece: usize) -> (Vec<StreamEvent>, Value) {
    let mut reader = reader;
    let mut events = Vec::new();
    for chunk in stream.chunks(piece.max(1)) {
        events.extend(reader.feed(chunk).expect("read"));
    }
    (events, reader.finish().expect("whole"))
}

/// A response's model turn, its calls (id, name, arguments) and its text.
type Seen = (
    Vec<Value>,
    Vec<(Option<String>, String, Value)>,
    Option<String>,
);

/// What the registry and the conversation see of a response.
fn seen(provider: Provider, response: &Value) -> Seen {
    let calls = provider
        .parse_calls(response)
        .expect("calls")
        .into_iter()
        .map(|call| {
            (
                call.id().map(str::to_owned),
                call.name().to_owned(),
                call.arguments().clone(),
            )
        })
        .collect();
    (
        provider.model_turn(response).expect("turn"),
        calls,
        provider.text(response),
    )
}

/// The events a reader gives, in a form easy to compare.
fn summary(events: &[StreamEvent]) -> Vec<String> {
    events
        .iter()
        .map(|event| match event {
            StreamEvent::Text(text) => format!("text {text}"),
            StreamEvent::CallStarted { index, id, name } => {
                format!("start {index} {} {name}", id.as_deref().unwrap_or("-"))
            }
            StreamEvent::ArgumentsDelta { index, delta } => format!("args {index} {delta}"),
            StreamEvent::CallComplete { index, call } => {
                format!("call {index} {} {}", call.name(), call.arguments())
            }
            StreamEvent::Done => "done".to_owned(),
        })
        .collect()
}

#[test]
fn openai_chat_text_then_two_calls_each_whole_as_soon_as_the_next_begins() {
    let stream = fixture("streams/openai-chat-tool-calls.sse");
    let (events, response) = read(CHAT.stream_reader(), stream.as_bytes(), usize::MAX);
    let summary = summary(&events);
    let calls: Vec<&String> = summary.iter().filter(|e| !e.starts_with("args")).collect();
    assert_eq!(
        calls,
        [
            "text Let me",
            "text  check",
            "text  both.",
            "start 0 call_DdmO9pD3xa9XTPNJ32zg2hcA get_weather",
            "call 0 get_weather \"{\\\"city\\\":\\\"Paris\\\"}\"",
            "start 1 call_Kq8vN2wX5mT1rY7cB4zL9pHs get_weather",
            "call 1 get_weather \"{\\\"city\\\":\\\"Tokyo\\\"}\"",
            "done",
        ]
    );
    // The first call is whole before the second's arguments come.
    let first_complete = summary
        .iter()
        .position(|e| e.starts_with("call 0"))
        .unwrap();
    let second_args = summary
        .iter()
        .position(|e| e.starts_with("args 1"))
        .unwrap();
    assert!(first_complete < second_args);
    let (_, calls, text) = seen(CHAT, &response);
    assert_eq!(text.as_deref(), Some("Let me check both."));
    assert_eq!(calls.len(), 2);
    assert_eq!(
        response["usage"]["total_tokens"],
        json!(
            response["usage"]["prompt_tokens"].as_u64().unwrap()
                + response["usage"]["completion_tokens"].as_u64().unwrap()
        )
    );
    assert_eq!(response["choices"][0]["finish_reason"], "tool_calls");
}

#[test]
fn recorded_streams_are_read_whole() {
    for (provider, name, calls) in [
        (CHAT, "streams/openai-chat-tool-calls-recorded.sse", 2),
        (Provider::Groq, "streams/groq-tool-calls.sse", 2),
        (Provider::Groq, "streams/groq-tool-calls-recorded.sse", 2),
        (ANTHROPIC, "streams/anthropic-tool-use.sse", 2),
        (ANTHROPIC, "streams/anthropic-tool-use-docs.sse", 1),
        (RESPONSES, "streams/openai-responses-tool-calls.sse", 2),
        (GEMINI, "streams/gemini-function-call.sse", 2),
        (OLLAMA, "streams/ollama-tool-calls.ndjson", 2),
        (OLLAMA, "streams/ollama-tool-calls-impl.ndjson", 2),
        (OLLAMA, "streams/ollama-tool-calls-docs.ndjson", 1),
        // Ollama's `/v1` streams Chat Completions' events.
        (OLLAMA, "streams/openai-chat-tool-calls.sse", 2),
        // The documentation's own text-only examples (one with a literal
        // `...` line standing for events left out).
        (RESPONSES, "streams/openai-responses-streaming-docs.sse", 0),
        (GEMINI, "streams/gemini-streaming-docs.sse", 0),
    ] {
        let stream = fixture(name);
        let (events, response) = read(provider.stream_reader(), stream.as_bytes(), usize::MAX);
        let complete = events
            .iter()
            .filter(|event| matches!(event, StreamEvent::CallComplete { .. }))
            .count();
        assert_eq!(complete, calls, "{name}");
        assert_eq!(seen(provider, &response).1.len(), calls, "{name}");
        // The documented example ends without the blank line after its
        // last event, `message_stop`, which `finish` reads; Gemini's stream
        // has no last event.
        if !name.ends_with("-docs.sse") && provider != GEMINI {
            assert_eq!(events.last(), Some(&StreamEvent::Done), "{name}");
        }
    }
}

#[test]
fn a_stream_cut_at_every_byte_reads_the_same() {
    for (provider, name) in [
        (CHAT, "streams/openai-chat-tool-calls.sse"),
        (ANTHROPIC, "streams/anthropic-tool-use.sse"),
        (RESPONSES, "streams/openai-responses-tool-calls.sse"),
        (GEMINI, "streams/gemini-function-call.sse"),
        (OLLAMA, "streams/ollama-tool-calls.ndjson"),
    ] {
        let stream = fixture(name);
        let whole = read(provider.stream_reader(), stream.as_bytes(), usize::MAX);
        for piece in [1, 2, 3, 7, 64] {
            let (events, response) = read(provider.stream_reader(), stream.as_bytes(), piece);
            // Text may come in other pieces; everything else is the same.
            assert_eq!(response, whole.1, "{name} in pieces of {piece}");
            assert_eq!(
                events
                    .iter()
                    .filter(|e| !matches!(e, StreamEvent::Text(_)))
                    .collect::<Vec<_>>(),
                whole
                    .0
                    .iter()
                    .filter(|e| !matches!(e, StreamEvent::Text(_)))
                    .collect::<Vec<_>>(),
                "{name} in pieces of {piece}"
            );
        }
    }
}

#[test]
fn every_whole_response_fixture_streamed_comes_back_the_same() {
    for (provider, name) in [
        (CHAT, "providers/openai-chat-tool-call-response.json"),
        (
            Provider::Groq,
            "providers/groq-chat-tool-call-response.json",
        ),
        (
            Provider::Vllm { strict: false },
            "providers/vllm-chat-tool-call-response.json",
        ),
        (ANTHROPIC, "providers/anthropic-tool_use-response.json"),
        (GEMINI, "providers/gemini-functionCall-response.json"),
        (OLLAMA, "providers/ollama-chat-tool-call-response.json"),
    ] {
        let whole: Value = serde_json::from_str(&fixture(name)).expect("JSON");
        let stream = provider
            .streamed(&whole)
            .expect("the provider's whole response");
        for piece in [1, 5, usize::MAX] {
            let (_, response) = read(provider.stream_reader(), stream.as_bytes(), piece);
            assert_eq!(seen(provider, &response), seen(provider, &whole), "{name}");
            // A stream's chunks always say what they are; a whole response
            // that does not is rebuilt saying it.
            let mut rebuilt = response.clone();
            if whole.get("object").is_none() {
                rebuilt.as_object_mut().expect("an object").remove("object");
            }
            assert_eq!(rebuilt, whole, "{name}: the response itself");
        }
    }
}

#[test]
fn a_responses_response_streamed_comes_back_the_same() {
    let items: Value = serde_json::from_str(&fixture(
        "providers/openai-responses-function_call-output.json",
    ))
    .expect("JSON");
    let mut output = items.as_array().expect("items").clone();
    output.insert(
        0,
        json!({"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": "Three calls, then.", "annotations": []}]}),
    );
    let whole =
        json!({"id": "resp_1", "object": "response", "status": "completed", "output": output});
    let stream = RESPONSES.streamed(&whole).expect("a whole response");
    for piece in [1, 9, usize::MAX] {
        let (events, response) = read(RESPONSES.stream_reader(), stream.as_bytes(), piece);
        assert_eq!(response, whole);
        assert_eq!(seen(RESPONSES, &response), seen(RESPONSES, &whole));
        let complete = events
            .iter()
            .filter(|e| matches!(e, StreamEvent::CallComplete { .. }))
            .count();
        assert_eq!(complete, output.len() - 1);
    }
}

/// What reading `stream` ends in, as the application reads it.
fn broken(provider: Provider, stream: &str, limit: Option<usize>) -> String {
    let mut reader = provider.stream_reader();
    if let Some(limit) = limit {
        reader = reader.with_max_argument_bytes(limit);
    }
    match reader.feed(stream.as_bytes()) {
        Err(error) => error.to_string(),
        Ok(_) => reader.finish().expect_err("broken").to_string(),
    }
}

#[test]
fn streams_that_break_end_in_an_error_naming_the_provider_and_the_byte() {
    let chunk = |delta: Value| {
        format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": delta}]})
        )
    };
    let call = |index: usize, id: &str, arguments: &str| {
        chunk(
            json!({"tool_calls": [{"index": index, "id": id, "type": "function", "function": {"name": "f", "arguments": arguments}}]}),
        )
    };
    let cut = &fixture("streams/openai-chat-tool-calls.sse")[..600];
    assert_eq!(
        broken(CHAT, cut, None),
        "the openai stream could not be read at byte 503: an event is not JSON (EOF while parsing \
         a string at line 1 column 91): {\"id\":\"chatcmpl-123\",\"object\":\"chat.completion.chunk\",\
         \"created\":1694268190,\"mode"
    );
    let jumped = call(0, "a", "{}") + &call(2, "c", "{}");
    assert_eq!(
        broken(CHAT, &jumped, None),
        format!(
            "the openai stream could not be read at byte {}: call 2 began before call 1: indices must follow one another",
            call(0, "a", "{}").len()
        )
    );
    let twice = call(0, "a", "{}") + &call(1, "a", "{}");
    assert!(broken(CHAT, &twice, None).ends_with("two calls have the id `a`"));
    let grown = call(0, "a", "{\"text\":\"")
        + &chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "0123456789"}}]}));
    assert!(broken(CHAT, &grown, Some(16)).ends_with(
        "the arguments of call 0 grew past 16 bytes (the registry's max_argument_bytes)"
    ));
    // A call is whole at its last bracket: blank text may follow it,
    // nothing else.
    let blank = call(0, "a", "{}")
        + &chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": " "}}]}));
    let (_, whole) = read(
        CHAT.stream_reader(),
        (blank.clone() + "data: [DONE]\n\n").as_bytes(),
        usize::MAX,
    );
    assert_eq!(
        whole["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
        "{}"
    );
    let more = call(0, "a", "{}")
        + &chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"b\":1}"}}]}));
    assert!(broken(CHAT, &more, None).ends_with("call 0 grew after it was whole"));
    let unfinished = call(0, "a", "{}");
    assert!(
        broken(CHAT, &unfinished, None)
            .ends_with("the stream ended before the turn did (no `finish_reason`, no `[DONE]`)")
    );
    let error = fixture("streams/anthropic-error-docs.sse");
    assert!(
        broken(ANTHROPIC, &error, None).contains("the provider sent an error: {"),
        "{}",
        broken(ANTHROPIC, &error, None)
    );
    let start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[]}}\n\n";
    let unknown = format!("{start}event: surprise\ndata: {{\"type\":\"surprise\"}}\n\n");
    // An event of a type not known is passed over: what ends this stream
    // is its missing end.
    assert!(broken(ANTHROPIC, &unknown, None).ends_with("the stream ended before `message_stop`"));
    let bad_json = format!(
        "{start}event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{{}}}}}}\n\n\
         event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"input_json_delta\",\"partial_json\":\"{{\\\"a\\\": tru\"}}}}\n\n\
         event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":0}}\n\n"
    );
    assert!(
        broken(ANTHROPIC, &bad_json, None).contains("the input of tool_use block 0 is not JSON")
    );
    assert!(broken(ANTHROPIC, start, None).ends_with("the stream ended before `message_stop`"));
    assert_eq!(
        broken(Provider::Mcp, "data: {}\n\n", None),
        "the mcp stream could not be read at byte 0: mcp does not stream its responses"
    );
}
