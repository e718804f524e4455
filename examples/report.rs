//! A tool that returns an image and one that reports its progress, in one
//! turn of an Anthropic conversation: the observer prints the progress as
//! it comes, then the reply shows the chart as Claude receives it, and as
//! OpenAI Chat Completions does (named in the `tool` message, attached in a
//! `user` message after it).
//!
//! Run with `cargo run --example report`.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::observe::{CallObserver, CallProgress};
use tool_core::output::{Image, Part};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolError, ToolRegistry, tool};

/// Draw a bar chart of the values, one bar each, as a PNG image.
#[tool(read_only, concurrency_safe)]
fn bar_chart(
    /// The chart's title, said beside the image.
    title: String,
    /// The values, 1 to 12 of them, from 0 to 100.
    #[schemars(length(min = 1, max = 12))]
    values: Vec<u8>,
) -> Result<Vec<Part>, ToolError> {
    if let Some(value) = values.iter().find(|value| **value > 100) {
        return Err(ToolError::Execution {
            tool: "bar_chart".into(),
            message: format!("value {value} is over 100; give percentages").into(),
        });
    }
    let png = png::bars(&values);
    Ok(vec![
        format!("{title}: {} bars.", values.len()).into(),
        Image::png(png).named("chart.png").into(),
    ])
}

/// Add up a quarter's sales, month by month. Takes a while: it reports its
/// progress.
#[tool(read_only, timeout = "30s")]
async fn quarter_total(
    ctx: &ToolContext,
    /// The months' sales.
    months: Vec<u32>,
) -> String {
    let total = months.len() as f64;
    let mut sum = 0;
    for (done, sales) in months.iter().enumerate() {
        ctx.progress(done as f64, Some(total), "adding up a month");
        tokio::time::sleep(Duration::from_millis(50)).await;
        sum += sales;
    }
    ctx.progress(total, Some(total), "done");
    format!("{sum} in total over {} months", months.len())
}

/// Prints each progress report as it comes: an MCP server would send it as
/// `notifications/progress`, a UI would move a bar.
struct PrintProgress;

impl CallObserver for PrintProgress {
    fn call_progress(&self, event: &CallProgress<'_>) {
        let total = event.total.map_or(String::new(), |t| format!("/{t}"));
        println!(
            "  progress of {} ({}…): {}{total} {}",
            event.tool,
            &event.call_id[..8],
            event.done,
            event.message.unwrap_or_default()
        );
    }
}

/// The two tools, with the observer that prints progress.
pub(crate) fn registry() -> ToolRegistry {
    ToolRegistry::builder()
        .with(BarChart)
        .with(QuarterTotal)
        .observer(PrintProgress)
        .build()
}

#[tokio::main]
async fn main() {
    let registry = registry();
    let ctx = ToolContext::new(());

    // What Claude sends: two tool calls in one message.
    let response = json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "Let me chart the quarter and add it up."},
            {"type": "tool_use", "id": "toolu_chart", "name": "bar_chart",
             "input": {"title": "Q1 sales", "values": [40, 65, 90]}},
            {"type": "tool_use", "id": "toolu_total", "name": "quarter_total",
             "input": {"months": [400, 650, 900]}}
        ]
    });

    println!("== The calls run; progress as it comes ==");
    let turn = Provider::Anthropic { strict: false }
        .respond(&registry, &ctx, &response)
        .await
        .expect("a Claude message");

    println!("\n== The reply Claude receives (base64 shortened) ==");
    for message in turn.reply() {
        println!("{}", pretty(message));
    }

    println!("\n== The same results for OpenAI Chat Completions ==");
    let chat = Provider::OpenAiChat { strict: false };
    for message in chat.format_results(turn.calls(), turn.results()) {
        println!("{}", pretty(&message));
    }
}

/// Pretty JSON with long strings (the image's base64) cut short.
fn pretty(value: &Value) -> String {
    fn shorten(value: &mut Value) {
        match value {
            Value::String(text) if text.len() > 60 => {
                let kept: String = text.chars().take(40).collect();
                *text = format!("{kept}… ({} characters)", text.len());
            }
            Value::Array(items) => items.iter_mut().for_each(shorten),
            Value::Object(map) => map.values_mut().for_each(shorten),
            _ => {}
        }
    }
    let mut value = value.clone();
    shorten(&mut value);
    serde_json::to_string_pretty(&value).expect("JSON")
}

#[path = "support/png.rs"]
mod png;
