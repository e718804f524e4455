//! A streamed call given to the registry: from the text its stream gave
//! (`ProviderCall::to_tool_call` hands the registry the arguments' text,
//! which a `#[tool]` reads its input straight out of), or from its value
//! (a copy of the parsed object, as a call read from a parsed response
//! is). Three tools of the shapes people write, each called once in a
//! one-call stream of every family whose calls carry an object (Anthropic,
//! whose text is the provider's own; Gemini and Ollama, whose text is the
//! object written once for the stream's delta). Blocks of each way
//! alternate, paired, so both see the machine at the same speed; the ratio
//! is text ÷ value per round. `cargo bench --bench streamed_call --
//! --write` writes the table into BENCHMARKS.md ("A streamed call from its
//! text").

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::stream::{StreamEvent, StreamReader};
use tool_core::provider::{Provider, ProviderCall};
use tool_core::registry::ToolCall;
use tool_core::{ToolContext, ToolRegistry, tool};

#[path = "support/table.rs"]
mod table;

const ROUNDS: usize = 15;
const CALLS: usize = 1_000;

/// Add a note to the user's notebook.
#[tool]
fn add_note(title: String, body: String, priority: u8) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

/// When an event happens.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Slot {
    date: String,
    start_hour: u8,
    duration_minutes: u16,
}

/// Put an event in the calendar.
#[tool]
fn create_event(title: String, when: Slot) -> String {
    format!(
        "event `{title}` on {} at {:02}:00 for {} minutes",
        when.date, when.start_hour, when.duration_minutes
    )
}

/// A line of an order.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Item {
    sku: String,
    quantity: u32,
}

/// Add lines to an order.
#[tool]
fn add_items(order_id: u64, items: Vec<Item>) -> String {
    let units: u32 = items.iter().map(|item| item.quantity).sum();
    format!("order {order_id}: {} lines, {units} units", items.len())
}

/// Each tool's name and arguments.
fn shapes() -> [(&'static str, Value); 3] {
    [
        (
            "add_note",
            json!({"title": "Groceries", "body": "milk, eggs", "priority": 2}),
        ),
        (
            "create_event",
            json!({"title": "Standup", "when": {"date": "2026-03-02", "start_hour": 9, "duration_minutes": 15}}),
        ),
        (
            "add_items",
            json!({"order_id": 1042, "items": [
                {"sku": "A-1", "quantity": 2}, {"sku": "B-7", "quantity": 5}, {"sku": "C-3", "quantity": 1}
            ]}),
        ),
    ]
}

/// A stream of `provider` with one call of `name`, as the provider
/// sends it.
fn stream(provider: Provider, name: &str, arguments: &Value) -> String {
    let event = |kind: &str, data: Value| format!("event: {kind}\ndata: {data}\n\n");
    match provider {
        Provider::Anthropic { .. } => {
            let text = arguments.to_string();
            let (first, second) = text.split_at(text.len() / 2);
            let delta = |piece: &str| {
                event(
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": piece}}),
                )
            };
            [
                event(
                    "message_start",
                    json!({"type": "message_start", "message": {"role": "assistant", "content": []}}),
                ),
                event(
                    "content_block_start",
                    json!({"type": "content_block_start", "index": 0,
                        "content_block": {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}}),
                ),
                delta(first),
                delta(second),
                event(
                    "content_block_stop",
                    json!({"type": "content_block_stop", "index": 0}),
                ),
                event("message_stop", json!({"type": "message_stop"})),
            ]
            .concat()
        }
        Provider::Gemini { .. } => format!(
            "data: {}\r\n\r\n",
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": name, "args": arguments}}
            ]}}]})
        ),
        _ => [
            json!({"message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": name, "arguments": arguments}}
            ]}, "done": false}),
            json!({"message": {"role": "assistant", "content": ""}, "done": true}),
        ]
        .map(|line| format!("{line}\n"))
        .concat(),
    }
}

/// The call a stream completes.
fn streamed_call(provider: Provider, stream: &str) -> ProviderCall {
    let mut reader: StreamReader = provider.stream_reader();
    let mut events = reader.feed(stream.as_bytes()).expect("read");
    events.extend(reader.end().expect("ended"));
    events
        .into_iter()
        .find_map(|event| match event {
            StreamEvent::CallComplete { call, .. } => Some(call),
            _ => None,
        })
        .expect("a call")
}

/// One block of calls: from the text, or from a copy of the value.
async fn block(
    registry: &ToolRegistry,
    ctx: &ToolContext,
    call: &ProviderCall,
    text: bool,
) -> Duration {
    let start = Instant::now();
    for _ in 0..CALLS {
        let call = black_box(call);
        let tool_call = if text {
            call.to_tool_call()
        } else {
            ToolCall::new(call.name(), call.arguments().clone())
        };
        let results = registry.call_all(ctx, [tool_call]).await;
        black_box(results[0].is_error());
    }
    start.elapsed()
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let registry: ToolRegistry = ToolRegistry::new()
        .with(AddNote)
        .with(CreateEvent)
        .with(AddItems);
    let ctx = ToolContext::new(());
    // `--profile text|value`: Anthropic's `add_items` call alone, for a
    // profiler to watch.
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == "--profile") {
        let text = args.get(at + 1).is_some_and(|way| way == "text");
        let provider = Provider::Anthropic { strict: false };
        let [.., (name, arguments)] = shapes();
        let call = streamed_call(provider, &stream(provider, name, &arguments));
        runtime.block_on(block(&registry, &ctx, &call, text));
        return;
    }
    let mut lines = vec![
        format!(
            "One call read from a one-call stream of the provider, given to `ToolRegistry::call_all`: from the text its stream gave (`ProviderCall::to_tool_call`), or from a copy of its value, as before the stream kept the text. {ROUNDS} rounds (after one warm-up) of blocks of {CALLS} calls, the two ways alternating; each cell the median over rounds of text ÷ value (min–max), and the ns a call from the text (from the value)."
        ),
        String::new(),
        "| family | `add_note`: 3 scalars | `create_event`: a nested struct | `add_items`: `Vec` of 3 structs |".to_owned(),
        "|---|---:|---:|---:|".to_owned(),
    ];
    for (label, provider) in [
        ("Anthropic", Provider::Anthropic { strict: false }),
        ("Gemini", Provider::Gemini { openapi: false }),
        ("Ollama", Provider::Ollama),
    ] {
        let mut row = format!("| {label} |");
        for (name, arguments) in shapes() {
            let call = streamed_call(provider, &stream(provider, name, &arguments));
            let (mut ratios, mut text_ns, mut value_ns) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..=ROUNDS {
                let (text, value) = runtime.block_on(async {
                    if round % 2 == 0 {
                        let text = block(&registry, &ctx, &call, true).await;
                        (text, block(&registry, &ctx, &call, false).await)
                    } else {
                        let value = block(&registry, &ctx, &call, false).await;
                        (block(&registry, &ctx, &call, true).await, value)
                    }
                });
                if round > 0 {
                    ratios.push(text.as_secs_f64() / value.as_secs_f64());
                    text_ns.push(text.as_secs_f64() * 1e9 / CALLS as f64);
                    value_ns.push(value.as_secs_f64() * 1e9 / CALLS as f64);
                }
            }
            let (low, high) = ratios.iter().fold((f64::MAX, f64::MIN), |(low, high), &r| {
                (low.min(r), high.max(r))
            });
            row.push_str(&format!(
                " {:.2} ({low:.2}–{high:.2}); {:.0} ns ({:.0}) |",
                table::median(ratios.clone()),
                table::median(text_ns),
                table::median(value_ns)
            ));
        }
        lines.push(row);
    }
    lines.push(String::new());
    lines.push(format!(
        "{} Command: `cargo bench --bench streamed_call -- --write`.",
        table::machine()
    ));
    let out = lines.join("\n");
    println!("{out}");
    if std::env::args().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        table::write_table(&benchmarks, "streamed-call-table", &out);
    }
}
