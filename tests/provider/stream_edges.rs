//! Streams as the providers send them beyond plain calls: Anthropic's
//! server-side tools, whose blocks stream their input as a client call's
//! does; event and delta types added since the reader was written; and a
//! stream whose last event has no blank line after it.

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::provider::stream::{StreamEvent, StreamReader};

/// One server-sent event.
fn event(kind: &str, data: Value) -> String {
    format!("event: {kind}\ndata: {data}\n\n")
}

/// Feeds `stream` in pieces of `size` bytes, then ends it: every event.
fn read(reader: &mut StreamReader, stream: &str, size: usize) -> Vec<StreamEvent> {
    let mut events = Vec::new();
    for piece in stream.as_bytes().chunks(size) {
        events.extend(reader.feed(piece).expect("read"));
    }
    events.extend(reader.end().expect("ended"));
    events
}

/// Anthropic's web search (a `server_tool_use` block, its input streamed as
/// `input_json_delta`, then the search's results), then a call of the
/// client's tool: the turn of a model with web search turned on.
fn web_search_then_a_call() -> String {
    let delta = |index: u64, delta: Value| {
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        )
    };
    let start = |index: u64, block: Value| {
        event(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": block}),
        )
    };
    let stop = |index: u64| {
        event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        )
    };
    [
        event(
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
                "role": "assistant", "content": [], "stop_reason": null,
                "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ),
        start(0, json!({"type": "text", "text": ""})),
        delta(0, json!({"type": "text_delta", "text": "Searching."})),
        stop(0),
        start(
            1,
            json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}),
        ),
        delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "{\"query\": \"Lyon wea"}),
        ),
        delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "ther\"}"}),
        ),
        stop(1),
        start(
            2,
            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
                "content": [{"type": "web_search_result", "title": "Lyon", "url": "https://example.com/lyon",
                    "encrypted_content": "Ev0DCioIAxgC", "page_age": null}]}),
        ),
        stop(2),
        start(
            3,
            json!({"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
        ),
        delta(
            3,
            json!({"type": "input_json_delta", "partial_json": "{\"city\": \"Lyon\"}"}),
        ),
        stop(3),
        event(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"},
                "usage": {"output_tokens": 40}}),
        ),
        event("message_stop", json!({"type": "message_stop"})),
    ]
    .concat()
}

#[test]
fn a_server_tools_block_streams_its_input_and_the_clients_call_after_it_arrives() {
    let provider = Provider::Anthropic { strict: false };
    let stream = web_search_then_a_call();
    for size in [1, 7, 64, stream.len()] {
        let mut reader = provider.stream_reader();
        let events = read(&mut reader, &stream, size);
        let calls: Vec<&StreamEvent> = events
            .iter()
            .filter(|event| !matches!(event, StreamEvent::Text(_)))
            .collect();
        assert!(
            matches!(
                calls.as_slice(),
                [
                    StreamEvent::CallStarted { index: 0, id: Some(id), name },
                    StreamEvent::ArgumentsDelta { index: 0, .. },
                    StreamEvent::CallComplete { index: 0, call },
                    StreamEvent::Done,
                ] if id == "toolu_1" && name == "get_weather" && call.name() == "get_weather"
                    && call.arguments() == &json!({"city": "Lyon"})
            ),
            "pieces of {size}: {events:?}"
        );
        assert_eq!(reader.passed_over(), 0);
        let message = reader.finish().expect("whole");
        // The server's blocks are kept, their input whole, for the next
        // request to echo back.
        assert_eq!(
            message["content"][1],
            json!({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
                "input": {"query": "Lyon weather"}})
        );
        assert_eq!(message["content"][2]["type"], "web_search_tool_result");
        let calls = provider.parse_calls(&message).expect("calls");
        assert_eq!(
            calls.len(),
            1,
            "the server's search is no call of the client's"
        );
        assert_eq!(calls[0].name(), "get_weather");
    }
}

#[test]
fn events_and_deltas_of_new_kinds_are_passed_over_and_counted() {
    let provider = Provider::Anthropic { strict: false };
    let stream = web_search_then_a_call()
        .replace(
            "event: message_stop",
            &format!(
                "{}event: message_stop",
                event(
                    "content_block_compaction",
                    json!({"type": "content_block_compaction", "note": "new"})
                )
            ),
        )
        .replacen(
            "event: content_block_stop",
            &format!(
                "{}event: content_block_stop",
                event(
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": 0,
                        "delta": {"type": "compaction_delta", "summary": "..."}})
                )
            ),
            1,
        );
    let mut reader = provider.stream_reader();
    let events = read(&mut reader, &stream, 13);
    assert_eq!(reader.passed_over(), 2);
    assert!(events.contains(&StreamEvent::Done));
    let message = reader.finish().expect("whole");
    assert_eq!(
        message["content"][0],
        json!({"type": "text", "text": "Searching."})
    );
    assert_eq!(provider.parse_calls(&message).expect("calls").len(), 1);
}

#[test]
fn a_last_event_with_no_blank_line_after_it_is_read_and_its_events_given() {
    // Gemini's stream has no closing event: its last chunk, here without
    // the blank line after it, holds the call.
    let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Lyon"}}}
    ]}, "finishReason": "STOP"}]});
    let stream = format!("data: {chunk}");
    let provider = Provider::Gemini { openapi: false };
    let mut reader = provider.stream_reader();
    assert_eq!(reader.feed(stream.as_bytes()).expect("read"), []);
    let events = reader.end().expect("ended");
    assert!(
        matches!(
            events.as_slice(),
            [
                StreamEvent::CallStarted { index: 0, name, .. },
                ..,
                StreamEvent::CallComplete { index: 0, call },
                StreamEvent::Done,
            ] if name == "get_weather" && call.arguments() == &json!({"city": "Lyon"})
        ),
        "{events:?}"
    );
    let message = reader.finish().expect("whole");
    assert_eq!(provider.parse_calls(&message).expect("calls").len(), 1);

    // OpenAI Chat's `[DONE]`, the body's last bytes with no newline.
    let chat = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]",
    );
    let mut reader = Provider::OpenAiChat { strict: false }.stream_reader();
    let mut events = reader.feed(chat.as_bytes()).expect("read");
    assert!(!events.contains(&StreamEvent::Done));
    events.extend(reader.end().expect("ended"));
    assert_eq!(events, [StreamEvent::Text("Hi".into()), StreamEvent::Done]);
    assert_eq!(
        reader.finish().expect("whole")["choices"][0]["message"]["content"],
        "Hi"
    );
}

/// OpenAI Responses: the model runs the application's tool search
/// (`execution: "client"`), then calls a tool.
fn responses_search_then_a_call() -> String {
    let sse = |data: Value| {
        let kind = data["type"].as_str().unwrap_or_default().to_owned();
        event(&kind, data)
    };
    let search = json!({"type": "tool_search_call", "id": "ts_1", "execution": "client",
        "call_id": "call_search", "status": "completed", "arguments": {"query": "weather"}});
    let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_weather",
        "name": "get_weather", "arguments": "{\"city\":\"Lyon\"}", "status": "completed"});
    let mut added = call.clone();
    added["arguments"] = json!("");
    [
        sse(json!({"type": "response.created", "response": {"id": "resp_1", "output": []}})),
        sse(json!({"type": "response.output_item.added", "output_index": 0, "item": search})),
        sse(json!({"type": "response.output_item.done", "output_index": 0, "item": search})),
        sse(json!({"type": "response.output_item.added", "output_index": 1, "item": added})),
        sse(
            json!({"type": "response.function_call_arguments.delta", "output_index": 1,
            "item_id": "fc_1", "delta": "{\"city\":\"Lyon\"}"}),
        ),
        sse(json!({"type": "response.output_item.done", "output_index": 1, "item": call})),
        sse(
            json!({"type": "response.completed", "response": {"id": "resp_1",
            "status": "completed", "output": [search, call]}}),
        ),
    ]
    .concat()
}

#[test]
fn a_tool_search_the_application_runs_is_a_call_in_the_streams_events_too() {
    let provider = Provider::OpenAiResponses { strict: true };
    let stream = responses_search_then_a_call();
    let mut reader = provider.stream_reader();
    let events = read(&mut reader, &stream, 9);
    let complete: Vec<(usize, String, Option<String>)> = events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::CallComplete { index, call } => {
                Some((*index, call.name().to_owned(), call.id().map(str::to_owned)))
            }
            _ => None,
        })
        .collect();
    let message = reader.finish().expect("whole");
    let whole: Vec<(usize, String, Option<String>)> = provider
        .parse_calls(&message)
        .expect("calls")
        .iter()
        .enumerate()
        .map(|(index, call)| (index, call.name().to_owned(), call.id().map(str::to_owned)))
        .collect();
    assert_eq!(complete, whole);
    assert_eq!(
        whole,
        [
            (0, "search_tools".to_owned(), Some("call_search".to_owned())),
            (1, "get_weather".to_owned(), Some("call_weather".to_owned())),
        ]
    );
}

#[tokio::test]
async fn a_streamed_turn_with_a_tool_search_runs_each_call_once() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tool_core::provider::stream::StreamedTurn;
    use tool_core::{ToolContext, ToolRegistry, tool};

    /// Get the weather.
    #[tool]
    fn get_weather(ctx: &ToolContext<Arc<AtomicUsize>>, city: String) -> String {
        ctx.state().fetch_add(1, Ordering::SeqCst);
        format!("sunny in {city}")
    }

    let runs = Arc::new(AtomicUsize::new(0));
    let registry = Arc::new(ToolRegistry::new().with(GetWeather));
    let ctx = ToolContext::new(Arc::clone(&runs));
    let provider = Provider::OpenAiResponses { strict: true };
    let mut turn = StreamedTurn::new(provider, registry, ctx);
    for piece in responses_search_then_a_call().as_bytes().chunks(11) {
        turn.feed(piece).expect("read");
    }
    let turn = turn.finish().await.expect("a turn");
    // A run started early and left behind would still end: give it time.
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the tool ran once");
    let reply = turn.reply();
    let weather = reply
        .iter()
        .find(|item| item["call_id"] == "call_weather")
        .expect("the call's output");
    assert_eq!(weather["output"], "sunny in Lyon");
}

#[test]
fn a_gemini_call_whose_arguments_stream_over_parts_is_one_call() {
    // Vertex AI with `streamFunctionCallArguments`: the first part names
    // the call, the next set its arguments by JSON path, a string going
    // on across parts, and the last is the one without `willContinue`.
    let chunk = |parts: Value| {
        let body = json!({"candidates": [{"content": {"role": "model", "parts": parts}}]});
        format!("data: {body}\n\n")
    };
    let stream = [
        chunk(json!([{"functionCall": {"name": "get_weather", "id": "fc_1", "willContinue": true},
            "thoughtSignature": "c2ln"}])),
        chunk(json!([{"functionCall": {"partialArgs": [
            {"jsonPath": "$.city", "stringValue": "Ly", "willContinue": true}], "willContinue": true}}])),
        chunk(json!([{"functionCall": {"partialArgs": [
            {"jsonPath": "$.city", "stringValue": "on"},
            {"jsonPath": "$.when.days", "numberValue": 3}], "willContinue": true}}])),
        chunk(json!([{"functionCall": {"partialArgs": [
            {"jsonPath": "$.units[0]", "stringValue": "celsius"}]}}])),
        chunk(json!([{"text": "Checking."}])),
    ]
    .concat();
    let provider = Provider::Gemini { openapi: false };
    for size in [1, 17, stream.len()] {
        let mut reader = provider.stream_reader();
        let events = read(&mut reader, &stream, size);
        let started = events
            .iter()
            .filter(|event| matches!(event, StreamEvent::CallStarted { .. }))
            .count();
        assert_eq!(started, 1, "{events:?}");
        let args = json!({"city": "Lyon", "when": {"days": 3}, "units": ["celsius"]});
        assert!(
            events.iter().any(|event| matches!(event,
                StreamEvent::CallComplete { index: 0, call }
                    if call.name() == "get_weather" && call.arguments() == &args)),
            "{events:?}"
        );
        let message = reader.finish().expect("whole");
        let calls = provider.parse_calls(&message).expect("calls");
        assert_eq!(calls.len(), 1);
        assert_eq!(
            (calls[0].name(), calls[0].arguments()),
            ("get_weather", &args)
        );
        let part = &message["candidates"][0]["content"]["parts"][0];
        assert_eq!(
            part["thoughtSignature"], "c2ln",
            "the signature goes back with the call"
        );
    }
    // Cut before the call is whole: an error that says so.
    let cut: String = stream.split_inclusive("\n\n").take(2).collect();
    let mut reader = provider.stream_reader();
    read(&mut reader, &cut, 64);
    assert_eq!(
        reader.finish().expect_err("cut").to_string(),
        "the gemini stream could not be read at byte 340: the stream ended before the arguments of call 0 were whole"
    );
}
