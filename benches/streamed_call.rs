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

use tool_core::provider::stream::{StreamEvent, StreamReader};
use tool_core::provider::{Provider, ProviderCall};
use tool_core::registry::ToolCall;
use tool_core::{ToolContext, ToolRegistry};

#[path = "../tests/support/one_call_stream.rs"]
mod one_call_stream;
#[path = "support/three_tools.rs"]
mod three_tools;

use one_call_stream::one_call_stream;
use three_tools::{paired, registry, shapes};

const ROUNDS: usize = 15;
const CALLS: usize = 1_000;

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
    let registry = registry();
    let ctx = ToolContext::new(());
    // `--profile text|value`: Anthropic's `add_items` call alone, for a
    // profiler to watch.
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == "--profile") {
        let text = args.get(at + 1).is_some_and(|way| way == "text");
        let provider = Provider::Anthropic { strict: false };
        let [.., (name, arguments)] = shapes();
        let stream = one_call_stream(provider, name, &arguments.to_string());
        let call = streamed_call(provider, &stream);
        runtime.block_on(block(&registry, &ctx, &call, text));
        return;
    }
    let mut lines = vec![
        format!(
            "One call read from a one-call stream of the provider, given to `ToolRegistry::call_all`: from the text its stream gave (`ProviderCall::to_tool_call`), or from a copy of its value, as before the stream kept the text. {ROUNDS} rounds (after one warm-up) of blocks of {CALLS} calls, the two ways alternating; each cell the median over rounds of text ÷ value (min–max), then the ns a call from the text."
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
            let stream = one_call_stream(provider, name, &arguments.to_string());
            let call = streamed_call(provider, &stream);
            row.push_str(&paired(ROUNDS, CALLS, |text| {
                runtime.block_on(block(&registry, &ctx, &call, text))
            }));
        }
        lines.push(row);
    }
    lines.push(String::new());
    lines.push(format!(
        "{} Command: `cargo bench --bench streamed_call -- --write`.",
        three_tools::machine()
    ));
    let out = lines.join("\n");
    println!("{out}");
    if std::env::args().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        three_tools::write_table(&benchmarks, "streamed-call-table", &out);
    }
}
