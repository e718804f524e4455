//! A tool that returns an image and one that reports its progress, in one
//! turn of an Anthropic conversation: the observer prints the progress as
//! it comes, then the reply shows the chart as Claude receives it, and as
//! OpenAI Chat Completions does (named in the `tool` message, attached in a
//! `user` message after it).
//!
//! Run with `cargo run --example report`.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::{
    CallObserver, CallProgress, Image, Part, ToolContext, ToolError, ToolRegistry, tool,
};

/// Draw a bar chart of the values, one bar each, as a PNG image.
#[tool(read_only, concurrency_safe, tier = Observe)]
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
            message: format!("value {value} is over 100; give percentages"),
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
#[tool(read_only, tier = Observe, timeout = "30s")]
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
    ToolRegistry::new()
        .with(BarChart)
        .with(QuarterTotal)
        .with_observer(PrintProgress)
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

/// Just enough of PNG to draw bars: 8-bit greyscale, the pixels in stored
/// (uncompressed) deflate blocks, checksums as the format defines them.
mod png {
    const WIDTH: usize = 16;
    const HEIGHT: usize = 100;

    /// One dark bar per value, `value` pixels high, on white.
    pub(super) fn bars(values: &[u8]) -> Vec<u8> {
        let width = WIDTH * values.len();
        let mut pixels = Vec::with_capacity((width + 1) * HEIGHT);
        for row in 0..HEIGHT {
            pixels.push(0); // no filter
            for value in values {
                let filled = HEIGHT - row <= usize::from(*value);
                for column in 0..WIDTH {
                    let gap = column == 0 || column == WIDTH - 1;
                    pixels.push(if filled && !gap { 40 } else { 255 });
                }
            }
        }
        let mut header = Vec::new();
        header.extend((width as u32).to_be_bytes());
        header.extend((HEIGHT as u32).to_be_bytes());
        header.extend([8, 0, 0, 0, 0]); // 8 bits, greyscale, no interlace
        let mut png = vec![0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
        chunk(&mut png, b"IHDR", &header);
        chunk(&mut png, b"IDAT", &zlib_stored(&pixels));
        chunk(&mut png, b"IEND", &[]);
        png
    }

    fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        png.extend((data.len() as u32).to_be_bytes());
        let start = png.len();
        png.extend(kind);
        png.extend(data);
        let crc = crc32(&png[start..]);
        png.extend(crc.to_be_bytes());
    }

    fn zlib_stored(data: &[u8]) -> Vec<u8> {
        let mut out = vec![0x78, 0x01];
        let blocks: Vec<&[u8]> = data.chunks(65_535).collect();
        for (at, block) in blocks.iter().enumerate() {
            out.push(u8::from(at + 1 == blocks.len()));
            let len = block.len() as u16;
            out.extend(len.to_le_bytes());
            out.extend((!len).to_le_bytes());
            out.extend(*block);
        }
        let (mut a, mut b) = (1u32, 0u32);
        for byte in data {
            a = (a + u32::from(*byte)) % 65_521;
            b = (b + a) % 65_521;
        }
        out.extend(((b << 16) | a).to_be_bytes());
        out
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for byte in bytes {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
}
