//! Calls started while the model streams, over HTTP on loopback: a
//! scripted server streams text and three tool calls over about a second,
//! at a steady token pace; the client reads the stream with `StreamedTurn`
//! and each tool starts when its call is whole. Measured, in paired
//! rounds: the time from the chunk that brings a call's last argument
//! byte to its tool starting, and the whole turn (the request to the results all in)
//! streamed with early start beside the same stream read whole and then
//! run (`Provider::respond`). `cargo bench --bench early_start -- --write`
//! writes the table into BENCHMARKS.md ("Calls started while the model
//! streams").

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tool_core::provider::Provider;
use tool_core::provider::stream::{StreamEvent, StreamedTurn};
use tool_core::{ToolContext, ToolRegistry, tool};

#[path = "support/table.rs"]
mod table;

const ROUNDS: usize = 15;
/// How long the server takes to stream the whole response.
const STREAM_TIME: Duration = Duration::from_millis(1000);
/// How long each tool runs.
const TOOL_TIME: Duration = Duration::from_millis(150);

/// When each tool started, by city.
#[derive(Default)]
struct Started(Mutex<Vec<(String, Instant)>>);

/// Get the weather for a city.
#[tool(read_only, concurrency_safe)]
async fn get_weather(
    ctx: &ToolContext<Started>,
    /// The city.
    city: String,
    /// `celsius` or `fahrenheit`.
    units: String,
    /// How many days ahead.
    days: u32,
) -> String {
    let _ = (units, days);
    ctx.state()
        .0
        .lock()
        .expect("unpoisoned")
        .push((city.clone(), Instant::now()));
    tokio::time::sleep(TOOL_TIME).await;
    format!("15 degrees in {city}")
}

/// The response streamed: text, then three calls, as OpenAI streams them.
fn stream() -> Vec<String> {
    let calls: Vec<serde_json::Value> = ["Paris", "Tokyo", "Lima"]
        .iter()
        .enumerate()
        .map(|(i, city)| {
            let arguments = json!({"city": city, "units": "celsius", "days": 3}).to_string();
            json!({"id": format!("call_{i}"), "type": "function",
                "function": {"name": "get_weather", "arguments": arguments}})
        })
        .collect();
    let message = json!({"role": "assistant", "tool_calls": calls,
        "content": "Let me check the three cities you named, one after the other, and then I will compare them for you."});
    let whole = json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}]});
    let streamed = Provider::OpenAiChat { strict: false }
        .streamed(&whole)
        .expect("a whole response");
    streamed
        .split_inclusive("\n\n")
        .map(str::to_owned)
        .collect()
}

/// A server that streams `events` over `STREAM_TIME`, one chunk each, to
/// every request; its address.
async fn server(events: Arc<Vec<String>>) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("bound");
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let events = Arc::clone(&events);
            tokio::spawn(async move {
                // The request: read until its body is in (a small one).
                let mut request = Vec::new();
                let mut buffer = [0_u8; 4096];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    let Ok(n) = socket.read(&mut buffer).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buffer[..n]);
                }
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let pace = STREAM_TIME / u32::try_from(events.len()).unwrap_or(1);
                let mut next = tokio::time::Instant::now();
                for event in events.iter() {
                    next += pace;
                    tokio::time::sleep_until(next).await;
                    let chunk = format!("{:x}\r\n{event}\r\n", event.len());
                    if socket.write_all(chunk.as_bytes()).await.is_err() {
                        return;
                    }
                }
                let _ = socket.write_all(b"0\r\n\r\n").await;
            });
        }
    });
    address
}

struct Round {
    /// Per call: from the chunk with its last argument byte to its tool's
    /// start, µs.
    to_start: Vec<f64>,
    streamed: Duration,
    whole: Duration,
}

async fn round(client: &reqwest::Client, url: &str, streamed_first: bool) -> Round {
    let provider = Provider::OpenAiChat { strict: false };
    let run = |early: bool| async move {
        let started = Arc::new(Started::default());
        let registry = Arc::new(ToolRegistry::new().with(GetWeather));
        let ctx = ToolContext::from_arc(Arc::clone(&started));
        let begin = Instant::now();
        let mut response = client.post(url).body("{}").send().await.expect("an answer");
        let mut completed: Vec<Instant> = Vec::new();
        let results = if early {
            let mut turn = StreamedTurn::new(provider, registry, ctx);
            while let Some(chunk) = response.chunk().await.expect("a chunk") {
                let events = turn.feed(&chunk).expect("read");
                let now = Instant::now();
                completed.extend(
                    events
                        .iter()
                        .filter(|e| matches!(e, StreamEvent::CallComplete { .. }))
                        .map(|_| now),
                );
            }
            let turn = turn.finish().await.expect("a turn");
            (
                turn.results().len(),
                turn.results().iter().all(|r| !r.is_error()),
            )
        } else {
            let mut reader = provider.stream_reader();
            while let Some(chunk) = response.chunk().await.expect("a chunk") {
                reader.feed(&chunk).expect("read");
            }
            let whole = reader.finish().expect("whole");
            let turn = provider
                .respond(&registry, &ctx, &whole)
                .await
                .expect("a turn");
            (
                turn.results().len(),
                turn.results().iter().all(|r| !r.is_error()),
            )
        };
        assert_eq!(results.0, 3, "every call answered");
        assert!(results.1, "every tool ran");
        let took = begin.elapsed();
        let starts = started.0.lock().expect("unpoisoned").clone();
        let to_start = completed
            .iter()
            .zip(&starts)
            .map(|(whole_at, (_, start))| {
                start.saturating_duration_since(*whole_at).as_secs_f64() * 1e6
            })
            .collect::<Vec<_>>();
        (took, to_start)
    };
    let (streamed, whole) = if streamed_first {
        let streamed = run(true).await;
        (streamed, run(false).await)
    } else {
        let whole = run(false).await;
        (run(true).await, whole)
    };
    Round {
        to_start: streamed.1,
        streamed: streamed.0,
        whole: whole.0,
    }
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let events = Arc::new(stream());
        let address = server(Arc::clone(&events)).await;
        let url = format!("http://{address}/v1/chat/completions");
        let client = reqwest::Client::builder().no_proxy().build().expect("a client");
        round(&client, &url, true).await;
        let mut rounds = Vec::new();
        for i in 0..ROUNDS {
            rounds.push(round(&client, &url, i % 2 == 0).await);
        }
        let to_start: Vec<f64> = rounds.iter().flat_map(|r| r.to_start.clone()).collect();
        let streamed: Vec<f64> = rounds.iter().map(|r| r.streamed.as_secs_f64() * 1e3).collect();
        let whole: Vec<f64> = rounds.iter().map(|r| r.whole.as_secs_f64() * 1e3).collect();
        let ratio: Vec<f64> = rounds.iter().map(|r| r.streamed.as_secs_f64() / r.whole.as_secs_f64()).collect();
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let lines = [
            format!(
                "A scripted server on loopback streams OpenAI Chat Completions' {} events (a sentence of text, then three `get_weather` calls) over {} ms at a steady pace; each tool runs {} ms. {ROUNDS} paired rounds, the two ways' order turned each round.",
                events.len(), STREAM_TIME.as_millis(), TOOL_TIME.as_millis()
            ),
            String::new(),
            "| | median | min–max | target |".to_owned(),
            "|---|---:|---:|---|".to_owned(),
            format!("| a call's last argument byte read → its tool started (µs, {} calls) | {:.0} | {:.0}–{:.0} | ≤ 1,000 |", to_start.len(), table::median(to_start.clone()), min(&to_start), max(&to_start)),
            format!("| the turn, streamed and started early (ms) | {:.0} | {:.0}–{:.0} | |", table::median(streamed.clone()), min(&streamed), max(&streamed)),
            format!("| the turn, read whole then run (ms) | {:.0} | {:.0}–{:.0} | |", table::median(whole.clone()), min(&whole), max(&whole)),
            format!("| streamed ÷ whole, paired | {:.2} | {:.2}–{:.2} | |", table::median(ratio.clone()), min(&ratio), max(&ratio)),
            String::new(),
            format!("Command: `cargo bench --bench early_start -- --write`. {}", table::machine()),
        ];
        for line in &lines {
            println!("{line}");
        }
        if std::env::args().any(|arg| arg == "--write") {
            let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
            table::write_table(&benchmarks, "early-start-table", &lines.join("\n"));
        }
    });
}
