//! How fast a streamed response is read: a large OpenAI Chat Completions
//! stream (text in many small deltas, then calls whose arguments come in
//! thousands of pieces) fed to the reader in network-sized pieces, beside
//! `serde_json` parsing the same response sent whole, in paired rounds.
//! `cargo bench -p tool-core --bench stream -- --write` writes the table
//! into BENCHMARKS.md ("Reading a stream").

use std::hint::black_box;
use std::time::Instant;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::provider::stream::StreamEvent;

#[path = "../../benches/support/table.rs"]
mod table;

const ROUNDS: usize = 15;
/// The size of each piece fed, as a socket read would give them.
const PIECE: usize = 16 * 1024;

/// The stream, and the same content as one JSON message.
fn stream_and_whole() -> (Vec<u8>, Vec<u8>) {
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
    // The same content as one message: every event's JSON, in one array.
    let events: Vec<&str> = stream
        .split("\n\n")
        .filter_map(|event| event.strip_prefix("data: "))
        .filter(|data| *data != "[DONE]")
        .collect();
    let whole = format!("[{}]", events.join(",")).into_bytes();
    (stream.into_bytes(), whole)
}

fn read_stream(stream: &[u8]) -> usize {
    let mut reader = Provider::OpenAiChat { strict: false }.stream_reader();
    let mut calls = 0;
    for piece in stream.chunks(PIECE) {
        for event in reader.feed(piece).expect("read") {
            calls += usize::from(matches!(event, StreamEvent::CallComplete { .. }));
        }
    }
    black_box(reader.finish().expect("whole"));
    calls
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let (stream, whole) = stream_and_whole();
    assert_eq!(read_stream(&stream), 8);
    let mb = |bytes: usize, seconds: f64| bytes as f64 / 1e6 / seconds;
    let (mut reader_mbs, mut whole_mbs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let time = |reader: bool| {
            let start = Instant::now();
            if reader {
                black_box(read_stream(black_box(&stream)));
            } else {
                black_box(serde_json::from_slice::<Value>(black_box(&whole)).expect("JSON"));
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
        reader_mbs.push(mb(stream.len(), read));
        whole_mbs.push(mb(whole.len(), parsed));
        ratios.push(mb(stream.len(), read) / mb(whole.len(), parsed));
    }
    let lines = [
        format!(
            "A Chat Completions stream of {:.1} MB (20,000 text deltas, 8 calls whose 54 KB of arguments come in 24-byte pieces), fed to the reader in {} KB pieces, beside `serde_json::from_slice::<Value>` of the same events as one message (a JSON array of them, {:.1} MB); median of {ROUNDS} paired rounds.",
            stream.len() as f64 / 1e6,
            PIECE / 1024,
            whole.len() as f64 / 1e6
        ),
        String::new(),
        "| | MB/s |".to_owned(),
        "|---|---:|".to_owned(),
        format!(
            "| stream reader, every event read, calls made whole, the response rebuilt | {:.0} |",
            median(reader_mbs.clone())
        ),
        format!(
            "| `serde_json`, the same events as one message | {:.0} |",
            median(whole_mbs.clone())
        ),
        String::new(),
        format!(
            "Reader ÷ `serde_json`, paired per round: {:.2} (min {:.2}, max {:.2}; target ≥ 0.5). {} Command: `cargo bench -p tool-core --bench stream -- --write`.",
            median(ratios.clone()),
            ratios.iter().copied().fold(f64::INFINITY, f64::min),
            ratios.iter().copied().fold(0.0, f64::max),
            table::machine(),
        ),
    ];
    for line in &lines {
        println!("{line}");
    }
    if std::env::args().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        table::write_table(&benchmarks, "stream-read-table", &lines.join("\n"));
    }
}
