//! A turn answered from a parsed response: `Provider::respond(&registry,
//! &ctx, &response)` on a response with one call, as each family sends it,
//! beside the same call made on the registry directly
//! (`ToolRegistry::call` with the arguments' value), so the ratio is what
//! the provider's part of a turn adds: reading the call, the model's turn
//! kept for the conversation, and the reply. Three tools of the shapes
//! people write. Blocks of each way alternate, paired, so both see the
//! machine at the same speed. `cargo bench --bench turn -- --write` writes
//! the table into BENCHMARKS.md ("A turn, beside its call"); `--profile
//! FAMILY` runs one family's `add_items` turn alone for a profiler.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::Provider;
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

/// A response of `provider` with one call of `name`, as the provider
/// sends it.
fn response(provider: Provider, name: &str, arguments: &Value) -> Value {
    match provider {
        Provider::Anthropic { .. } => json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [
                {"type": "text", "text": "Let me do that."},
                {"type": "tool_use", "id": "toolu_1", "name": name, "input": arguments}
            ],
            "stop_reason": "tool_use", "usage": {"input_tokens": 412, "output_tokens": 58}
        }),
        Provider::Gemini { .. } => json!({
            "candidates": [{"content": {"role": "model", "parts": [
                {"text": "Let me do that."},
                {"functionCall": {"name": name, "args": arguments}, "thoughtSignature": "c2lnbmF0dXJl"}
            ]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 412, "candidatesTokenCount": 58}
        }),
        Provider::Ollama => json!({
            "model": "qwen3", "created_at": "2026-03-02T09:00:00Z", "done": true,
            "message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": name, "arguments": arguments}}
            ]}
        }),
        Provider::OpenAiResponses { .. } => json!({
            "id": "resp_1", "object": "response", "model": "gpt-5", "status": "completed",
            "output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
                 "arguments": arguments.to_string(), "status": "completed"}
            ],
            "usage": {"input_tokens": 412, "output_tokens": 58}
        }),
        _ => json!({
            "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-5",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null, "tool_calls": [{
                    "id": "call_1", "type": "function",
                    "function": {"name": name, "arguments": arguments.to_string()}
                }]
            }}],
            "usage": {"prompt_tokens": 412, "completion_tokens": 58}
        }),
    }
}

/// The families, as the table names them.
fn families() -> [(&'static str, Provider); 5] {
    [
        ("OpenAI Chat", Provider::OpenAiChat { strict: false }),
        (
            "OpenAI Responses",
            Provider::OpenAiResponses { strict: false },
        ),
        ("Anthropic", Provider::Anthropic { strict: false }),
        ("Gemini", Provider::Gemini { openapi: false }),
        ("Ollama", Provider::Ollama),
    ]
}

/// One block: turns answered, or the same call made directly.
async fn block(
    provider: Provider,
    registry: &ToolRegistry,
    ctx: &ToolContext,
    response: &Value,
    call: (&str, &Value),
    turn: bool,
) -> Duration {
    let start = Instant::now();
    for _ in 0..CALLS {
        if turn {
            let turn = provider.respond(registry, ctx, black_box(response)).await;
            black_box(turn.expect("a turn").reply().len());
        } else {
            let result = registry.call(ctx, black_box(call.0), call.1.clone()).await;
            black_box(result.is_error());
        }
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
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == "--profile") {
        let wanted = args.get(at + 1).map_or("", String::as_str);
        let (_, provider) = families()
            .into_iter()
            .find(|(label, _)| label.eq_ignore_ascii_case(wanted))
            .expect("--profile takes a family's name");
        let [.., (name, arguments)] = shapes();
        let response = response(provider, name, &arguments);
        runtime.block_on(block(
            provider,
            &registry,
            &ctx,
            &response,
            (name, &arguments),
            true,
        ));
        return;
    }
    let mut lines = vec![
        format!(
            "A response with one call, parsed, answered by `Provider::respond`, beside the same call made on the registry with the arguments' value; {ROUNDS} rounds (after one warm-up) of blocks of {CALLS}, the two alternating; each cell the median over rounds of turn ÷ call (min–max), then the ns a turn."
        ),
        String::new(),
        "| family | `add_note`: 3 scalars | `create_event`: a nested struct | `add_items`: `Vec` of 3 structs |".to_owned(),
        "|---|---:|---:|---:|".to_owned(),
    ];
    for (label, provider) in families() {
        let mut row = format!("| {label} |");
        for (name, arguments) in shapes() {
            let response = response(provider, name, &arguments);
            let call = (name, &arguments);
            let (mut ratios, mut turn_ns) = (Vec::new(), Vec::new());
            for round in 0..=ROUNDS {
                let (turn, direct) = runtime.block_on(async {
                    if round % 2 == 0 {
                        let turn = block(provider, &registry, &ctx, &response, call, true).await;
                        (
                            turn,
                            block(provider, &registry, &ctx, &response, call, false).await,
                        )
                    } else {
                        let direct = block(provider, &registry, &ctx, &response, call, false).await;
                        (
                            block(provider, &registry, &ctx, &response, call, true).await,
                            direct,
                        )
                    }
                });
                if round > 0 {
                    ratios.push(turn.as_secs_f64() / direct.as_secs_f64());
                    turn_ns.push(turn.as_secs_f64() * 1e9 / CALLS as f64);
                }
            }
            let (low, high) = ratios.iter().fold((f64::MAX, f64::MIN), |(low, high), &r| {
                (low.min(r), high.max(r))
            });
            row.push_str(&format!(
                " {:.2} ({low:.2}–{high:.2}); {:.0} ns |",
                table::median(ratios),
                table::median(turn_ns)
            ));
        }
        lines.push(row);
    }
    lines.push(String::new());
    lines.push(format!(
        "{} Command: `cargo bench --bench turn -- --write`.",
        table::machine()
    ));
    let out = lines.join("\n");
    println!("{out}");
    if args.iter().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        table::write_table(&benchmarks, "turn-table", &out);
    }
}
