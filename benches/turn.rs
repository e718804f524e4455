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

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry};

#[path = "support/three_tools.rs"]
mod three_tools;

use three_tools::{paired, registry, shapes};

const ROUNDS: usize = 15;
const CALLS: usize = 1_000;

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
    let registry = registry();
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
            row.push_str(&paired(ROUNDS, CALLS, |turn| {
                runtime.block_on(block(provider, &registry, &ctx, &response, call, turn))
            }));
        }
        lines.push(row);
    }
    lines.push(String::new());
    lines.push(format!(
        "{} Command: `cargo bench --bench turn -- --write`.",
        three_tools::machine()
    ));
    let out = lines.join("\n");
    println!("{out}");
    if args.iter().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        three_tools::write_table(&benchmarks, "turn-table", &out);
    }
}
