//! How fast a streamed response is read: a recorded OpenAI Chat
//! Completions stream (openai-python's, read 1,000 times), a long one
//! (text in many small deltas, then calls whose arguments come in
//! thousands of pieces), and each family's streams of the recorded corpus
//! (`tests/fixtures/streams/recorded/`), fed to the reader in
//! network-sized pieces, beside `serde_json` parsing the same events as
//! one message, in paired rounds.
//! `cargo bench -p tool-core --bench stream -- --write` writes the table
//! into BENCHMARKS.md ("Reading a stream").

use std::hint::black_box;
use std::time::Instant;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::provider::stream::StreamEvent;

#[path = "../../benches/support/recorded.rs"]
mod recorded;
#[path = "../../benches/support/table.rs"]
mod table;

const ROUNDS: usize = 15;
/// The size of each piece fed, as a socket read would give them.
const PIECE: usize = 16 * 1024;

/// A long stream: many text deltas, then calls whose arguments come in
/// thousands of small pieces.
fn long_stream() -> Vec<u8> {
    let top = json!({"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-mini"});
    let chunk = |delta: Value, finish: Value| {
        let mut chunk = top.clone();
        chunk["choices"] =
            json!([{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]);
        format!("data: {chunk}\n\n")
    };
    let mut stream = chunk(json!({"role": "assistant", "content": ""}), Value::Null);
    for i in 0..20_000 {
        stream.push_str(&chunk(json!({"content": format!(" word{i}")}), Value::Null));
    }
    for call in 0..8 {
        stream.push_str(&chunk(
            json!({"tool_calls": [{"index": call, "id": format!("call_{call}"), "type": "function", "function": {"name": "write_note", "arguments": ""}}]}),
            Value::Null,
        ));
        let arguments = json!({"title": format!("note {call}"), "body": "lorem ipsum dolor sit amet ".repeat(2_000)}).to_string();
        for piece in arguments.as_bytes().chunks(24) {
            let piece = std::str::from_utf8(piece).expect("ASCII");
            stream.push_str(&chunk(
                json!({"tool_calls": [{"index": call, "function": {"arguments": piece}}]}),
                Value::Null,
            ));
        }
    }
    stream.push_str(&chunk(json!({}), "tool_calls".into()));
    stream.push_str("data: [DONE]\n\n");
    stream.into_bytes()
}

fn read_stream(provider: Provider, stream: &[u8]) -> usize {
    let mut reader = provider.stream_reader();
    let mut calls = 0;
    for piece in stream.chunks(PIECE) {
        for event in reader.feed(piece).expect("read") {
            calls += usize::from(matches!(event, StreamEvent::CallComplete { .. }));
        }
    }
    for event in reader.end().expect("ended") {
        calls += usize::from(matches!(event, StreamEvent::CallComplete { .. }));
    }
    black_box(reader.finish().expect("whole"));
    calls
}

/// The calls of a stream read whole, or `None` for one that records an
/// error.
fn try_read(provider: Provider, stream: &[u8]) -> Option<usize> {
    let mut reader = provider.stream_reader();
    let mut events = Vec::new();
    for piece in stream.chunks(PIECE) {
        events.extend(reader.feed(piece).ok()?);
    }
    events.extend(reader.end().ok()?);
    reader.finish().ok()?;
    Some(
        events
            .iter()
            .filter(|event| matches!(event, StreamEvent::CallComplete { .. }))
            .count(),
    )
}

/// A family's streams of the recorded corpus that read whole (not those
/// that record an error), each `copies` times, and their calls.
fn corpus(dirs: &[&str], provider: Provider, copies: usize) -> (Vec<Vec<u8>>, usize) {
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/streams/recorded"
    );
    let mut streams = Vec::new();
    let mut calls = 0;
    for stream in recorded::recorded(root, dirs) {
        if let Some(found) = try_read(provider, &stream) {
            calls += found * copies;
            streams.extend(std::iter::repeat_n(stream, copies));
        }
    }
    (streams, calls)
}

/// Paired rounds of reading `streams` (each by a reader of its own)
/// beside parsing `whole`: the reader's MB/s, `serde_json`'s, and their
/// ratio each round.
fn compare(
    provider: Provider,
    streams: &[Vec<u8>],
    whole: &[u8],
    calls: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let stream_bytes: usize = streams.iter().map(Vec::len).sum();
    let mb = |bytes: usize, seconds: f64| bytes as f64 / 1e6 / seconds;
    let (mut reader_mbs, mut whole_mbs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let time = |reader: bool| {
            let start = Instant::now();
            if reader {
                let read: usize = streams
                    .iter()
                    .map(|stream| read_stream(provider, black_box(stream)))
                    .sum();
                assert_eq!(read, calls);
            } else {
                black_box(serde_json::from_slice::<Value>(black_box(whole)).expect("JSON"));
            }
            start.elapsed().as_secs_f64()
        };
        // Paired, in a turning order.
        let (read, parsed) = if round % 2 == 0 {
            let read = time(true);
            (read, time(false))
        } else {
            let parsed = time(false);
            (time(true), parsed)
        };
        reader_mbs.push(mb(stream_bytes, read));
        whole_mbs.push(mb(whole.len(), parsed));
        ratios.push(mb(stream_bytes, read) / mb(whole.len(), parsed));
    }
    (reader_mbs, whole_mbs, ratios)
}

/// The same events as one message: every `data:` of `stream`, in an array.
fn as_one_message(streams: &[Vec<u8>]) -> Vec<u8> {
    let mut events = Vec::new();
    for stream in streams {
        let text = std::str::from_utf8(stream)
            .expect("UTF-8")
            .replace("\r\n", "\n");
        events.extend(
            text.split("\n\n")
                .filter_map(|event| event.lines().find_map(|line| line.strip_prefix("data: ")))
                .filter(|data| *data != "[DONE]")
                .map(str::to_owned),
        );
    }
    format!("[{}]", events.join(",")).into_bytes()
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let recorded = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/streams/openai-chat-tool-calls-recorded.sse"
    ))
    .expect("the recorded stream");
    let copies = vec![recorded; 1_000];
    let synthetic = long_stream();
    let synthetic = vec![synthetic];
    let chat = Provider::OpenAiChat { strict: false };
    let mut cases = vec![
        (
            "openai-python's recorded stream (two calls, text, usage), 1,000 times, a reader each".to_owned(),
            chat,
            copies,
            2_000,
        ),
        (
            "a long stream: 20,000 text deltas, then 8 calls whose 54 KB of arguments come in 24-byte pieces".to_owned(),
            chat,
            synthetic,
            8,
        ),
    ];
    for (label, dirs, provider) in recorded::FAMILIES {
        let (streams, calls) = corpus(dirs, provider, 20);
        cases.push((
            format!(
                "the recorded corpus, {label}: {} streams, 20 times each",
                streams.len() / 20
            ),
            provider,
            streams,
            calls,
        ));
    }
    let mut rows = Vec::new();
    for (label, provider, streams, calls) in &cases {
        let whole = as_one_message(streams);
        let (reader, parsed, ratios) = compare(*provider, streams, &whole, *calls);
        let bytes: usize = streams.iter().map(Vec::len).sum();
        rows.push(format!(
            "| {label} ({:.1} MB) | {:.0} | {:.0} | {:.2} ({:.2}–{:.2}) |",
            bytes as f64 / 1e6,
            table::median(reader.clone()),
            table::median(parsed.clone()),
            table::median(ratios.clone()),
            ratios.iter().copied().fold(f64::INFINITY, f64::min),
            ratios.iter().copied().fold(0.0, f64::max),
        ));
    }
    let mut lines = vec![
        format!(
            "Streams fed to the reader in {} KB pieces (every event read, the calls made whole, the response rebuilt), beside `serde_json::from_slice::<Value>` of the same events as one message (a JSON array of them); median of {ROUNDS} paired rounds, (min–max) of the ratio. The recorded corpus's rows read every stream of a family that ends whole (those that record an error left out).",
            PIECE / 1024
        ),
        String::new(),
        "| stream | reader MB/s | `serde_json` MB/s | reader ÷ `serde_json` (target ≥ 0.5) |"
            .to_owned(),
        "|---|---:|---:|---:|".to_owned(),
    ];
    lines.extend(rows);
    lines.push(String::new());
    lines.push(format!(
        "{} Command: `cargo bench -p tool-core --bench stream -- --write`.",
        table::machine()
    ));
    for line in &lines {
        println!("{line}");
    }
    if std::env::args().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        table::write_table(&benchmarks, "stream-read-table", &lines.join("\n"));
    }
}
