//! Calls started while the model streams, on the streams other projects
//! recorded (`tests/fixtures/streams/recorded/`): each stream with calls
//! is fed to a `StreamedTurn` one event at a time, as a socket would give
//! it, over a registry that holds a tool of each name the stream calls;
//! measured is the time from the feed that brings a call's last argument
//! byte to that call's tool starting. In process, so the figure is the
//! library's own part of the early start; `early_start` measures it over
//! HTTP. `cargo bench --bench early_start_recorded -- --write` writes the
//! table into BENCHMARKS.md ("Early start on the recorded streams").

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::provider::stream::{StreamEvent, StreamedTurn};
use tool_core::{BoxFuture, Tool, ToolContext, ToolMetadata, ToolRegistry, ToolResult};

#[path = "support/recorded.rs"]
mod recorded;
#[path = "support/table.rs"]
mod table;

const ROUNDS: usize = 10;

/// When each call's tool started, in the order they started.
type Starts = Arc<Mutex<Vec<Instant>>>;

/// A tool of any name that takes any object and notes when it starts.
struct Noted {
    name: String,
}

impl Tool<Starts> for Noted {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        "A tool of the recorded stream."
    }

    fn input_schema(&self) -> Value {
        json!({"type": "object"})
    }

    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            concurrency_safe: true,
            ..ToolMetadata::DEFAULT
        }
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext<Starts>, _: Value) -> BoxFuture<'a, ToolResult> {
        let started = Instant::now();
        if let Ok(mut starts) = ctx.state().lock() {
            starts.push(started);
        }
        Box::pin(async { ToolResult::text("ok") })
    }
}

/// The stream's events, each as the bytes that bring it.
fn events(stream: &str) -> Vec<&str> {
    stream.split_inclusive("\n\n").collect()
}

/// The names the stream calls, read once by the library itself.
fn called(provider: Provider, stream: &[u8]) -> Option<BTreeSet<String>> {
    let mut reader = provider.stream_reader();
    let mut names = BTreeSet::new();
    let mut events = reader.feed(stream).ok()?;
    events.extend(reader.end().ok()?);
    reader.finish().ok()?;
    for event in events {
        if let StreamEvent::CallComplete { call, .. } = event {
            names.insert(call.name().to_owned());
        }
    }
    (!names.is_empty()).then_some(names)
}

/// One turn of `stream`: for each call, microseconds from the feed that
/// made it whole to its tool's start.
async fn turn(provider: Provider, stream: &str, names: &BTreeSet<String>) -> Vec<f64> {
    let starts: Starts = Arc::default();
    let mut registry = ToolRegistry::new();
    for name in names {
        registry = registry.with(Noted { name: name.clone() });
    }
    let ctx = ToolContext::new(Arc::clone(&starts));
    let mut turn = StreamedTurn::new(provider, Arc::new(registry), ctx);
    let mut whole = Vec::new();
    for event in events(stream) {
        let before = Instant::now();
        let made = turn.feed(event.as_bytes()).expect("read");
        whole.extend(
            made.iter()
                .filter(|event| matches!(event, StreamEvent::CallComplete { .. }))
                .map(|_| before),
        );
        // The next bytes are awaited: the calls just started run.
        tokio::task::yield_now().await;
    }
    let before = Instant::now();
    let made = turn.end().expect("ended");
    whole.extend(
        made.iter()
            .filter(|event| matches!(event, StreamEvent::CallComplete { .. }))
            .map(|_| before),
    );
    turn.finish().await.expect("a turn");
    let starts = starts
        .lock()
        .map(|starts| starts.clone())
        .unwrap_or_default();
    whole
        .iter()
        .zip(&starts)
        .map(|(made, started)| started.duration_since(*made).as_secs_f64() * 1e6)
        .collect()
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/streams/recorded"
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut lines = vec![
        format!(
            "Each recorded stream with calls fed to a `StreamedTurn` one event at a time (the task yielding between events, as it would awaiting the socket), over a registry holding a tool of each name it calls; the time from the feed that brings a call's last argument byte to its tool's start, in process; every call of {ROUNDS} rounds."
        ),
        String::new(),
        "| family | streams | calls | median µs | p99 µs | max µs | target |".to_owned(),
        "|---|---:|---:|---:|---:|---:|---|".to_owned(),
    ];
    for (label, dirs, provider) in recorded::FAMILIES {
        let mut streams = Vec::new();
        for stream in recorded::recorded(root, dirs) {
            let stream = String::from_utf8(stream).expect("a stream in UTF-8");
            // Gemini's events end in CR LF CR LF: one event a feed.
            let stream = stream.replace("\r\n", "\n");
            if let Some(names) = called(provider, stream.as_bytes()) {
                streams.push((stream, names));
            }
        }
        let mut micros = Vec::new();
        for _ in 0..ROUNDS {
            for (stream, names) in &streams {
                micros.extend(runtime.block_on(turn(provider, stream, names)));
            }
        }
        let calls = micros.len() / ROUNDS;
        micros.sort_by(f64::total_cmp);
        let p99 = micros[(micros.len() * 99 / 100).min(micros.len() - 1)];
        let max = micros.last().copied().unwrap_or_default();
        lines.push(format!(
            "| {label} | {} | {calls} | {:.0} | {p99:.0} | {max:.0} | ≤ 1,000 |",
            streams.len(),
            table::median(micros.clone()),
        ));
    }
    lines.push(String::new());
    lines.push(format!(
        "Command: `cargo bench --bench early_start_recorded -- --write`. {}",
        table::machine()
    ));
    for line in &lines {
        println!("{line}");
    }
    if std::env::args().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        table::write_table(&benchmarks, "early-start-recorded-table", &lines.join("\n"));
    }
}
