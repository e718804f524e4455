//! Calls started while the model streams: the first call runs before the
//! stream ends, the calls keep the registry's batch rules, and the turn is
//! the one `respond` makes of the whole response.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::provider::selector::Provider;
use crate::provider::stream::early::StreamedTurn;
use crate::registry::tool_registry::ToolRegistry;
use crate::tool;
use crate::tool::context::ToolContext;

#[derive(Default)]
struct Log(Mutex<Vec<String>>);

impl Log {
    fn push(&self, line: String) {
        self.0.lock().expect("unpoisoned").push(line);
    }
    fn lines(&self) -> Vec<String> {
        self.0.lock().expect("unpoisoned").clone()
    }
}

/// Get the weather for a city.
#[tool(read_only, concurrency_safe)]
async fn get_weather(ctx: &ToolContext<Log>, city: String) -> String {
    ctx.state().push(format!("start {city}"));
    tokio::time::sleep(Duration::from_millis(30)).await;
    ctx.state().push(format!("end {city}"));
    format!("15 degrees in {city}")
}

/// Save a note.
#[tool]
async fn save(ctx: &ToolContext<Log>, note: String) -> String {
    ctx.state().push(format!("start save {note}"));
    tokio::time::sleep(Duration::from_millis(30)).await;
    ctx.state().push(format!("end save {note}"));
    format!("saved {note}")
}

fn fixture() -> String {
    let path = format!(
        "{}/../tests/fixtures/streams/openai-chat-tool-calls.sse",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("the fixture")
}

#[tokio::test]
async fn the_first_call_runs_while_the_stream_goes_on_and_the_turn_is_respond_s() {
    let provider = Provider::OpenAiChat { strict: false };
    let log = Arc::new(Log::default());
    let registry = Arc::new(ToolRegistry::new().with(GetWeather));
    let ctx = ToolContext::from_arc(Arc::clone(&log));
    let stream = fixture();
    // Up to the start of the second call: the first is whole, its tool
    // started as soon as its last bracket came.
    let second = stream.find("\"index\":1,").expect("a second call");
    let end = stream[..second].rfind("data: ").expect("its event");
    let mut turn = StreamedTurn::new(provider, Arc::clone(&registry), ctx.clone());
    let events = turn.feed(&stream.as_bytes()[..end]).expect("read");
    assert!(
        events
            .iter()
            .any(|event| matches!(event, super::StreamEvent::CallComplete { index: 0, .. }))
    );
    assert!(
        !events
            .iter()
            .any(|event| matches!(event, super::StreamEvent::CallStarted { index: 1, .. }))
    );
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(
        log.lines(),
        ["start Paris"],
        "started before the stream's end"
    );
    turn.feed(&stream.as_bytes()[end..]).expect("read");
    let streamed = turn.finish().await.expect("a turn");
    // The same turn as the whole response's.
    let mut reader = provider.stream_reader();
    reader.feed(stream.as_bytes()).expect("read");
    let whole = reader.finish().expect("whole");
    let responded = provider
        .respond(&registry, &ctx, &whole)
        .await
        .expect("a turn");
    assert_eq!(streamed.reply(), responded.reply());
    assert_eq!(streamed.model_turn(), responded.model_turn());
    assert_eq!(streamed.text(), Some("Let me check both."));
    assert_eq!(
        streamed
            .results()
            .iter()
            .map(|r| r.model_text().into_owned())
            .collect::<Vec<_>>(),
        ["15 degrees in Paris", "15 degrees in Tokyo"]
    );
}

/// A Chat Completions stream of these calls, each whole in its own chunk.
fn stream_of(calls: &[(&str, Value)]) -> String {
    let mut out = String::new();
    for (index, (name, arguments)) in calls.iter().enumerate() {
        let delta = json!({"tool_calls": [{"index": index, "id": format!("call_{index}"), "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}]});
        out.push_str(&format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": delta}]})
        ));
    }
    out.push_str("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n");
    out
}

#[tokio::test]
async fn a_write_waits_for_the_calls_before_it_and_the_calls_after_it_wait_for_it() {
    let log = Arc::new(Log::default());
    let registry = Arc::new(ToolRegistry::new().with(GetWeather).with(Save));
    let stream = stream_of(&[
        ("get_weather", json!({"city": "Paris"})),
        ("get_weather", json!({"city": "Rome"})),
        ("save", json!({"note": "n1"})),
        ("get_weather", json!({"city": "Oslo"})),
    ]);
    let mut turn = StreamedTurn::new(
        Provider::OpenAiChat { strict: false },
        registry,
        ToolContext::from_arc(Arc::clone(&log)),
    );
    turn.feed(stream.as_bytes()).expect("read");
    let turn = turn.finish().await.expect("a turn");
    let lines = log.lines();
    let at = |line: &str| {
        lines
            .iter()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("{line} in {lines:?}"))
    };
    // The two reads overlap; the write runs after both and before the last read.
    assert!(at("start Rome") < at("end Paris"), "{lines:?}");
    assert!(
        at("end Paris") < at("start save n1") && at("end Rome") < at("start save n1"),
        "{lines:?}"
    );
    assert!(at("end save n1") < at("start Oslo"), "{lines:?}");
    assert_eq!(turn.results()[2].model_text(), "saved n1");
}

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
fn pick_file() -> crate::output::result::ToolResult {
    crate::output::result::ToolResult::deferred()
}

#[tokio::test]
async fn a_client_run_call_waits_as_in_any_turn() {
    let registry = Arc::new(ToolRegistry::new().with(PickFile));
    let stream = stream_of(&[("pick_file", json!({}))]);
    let mut turn = StreamedTurn::new(
        Provider::OpenAiChat { strict: false },
        Arc::clone(&registry),
        ToolContext::new(()),
    );
    turn.feed(stream.as_bytes()).expect("read");
    let mut turn = turn.finish().await.expect("a turn");
    assert!(turn.is_waiting());
    let waiting: Vec<_> = turn.waiting().map(|w| w.call_id().to_owned()).collect();
    assert_eq!(waiting.len(), 1);
    registry
        .pending()
        .deliver(
            &waiting[0],
            crate::output::result::ToolResult::text("notes.txt"),
        )
        .await
        .expect("delivered");
    turn.resume(&registry).await;
    assert!(!turn.is_waiting());
    assert_eq!(turn.results()[0].model_text(), "notes.txt");
    assert_eq!(turn.reply()[0]["tool_call_id"], "call_0");
}
