//! What a waiting call costs when a store keeps it: a client-run tool's
//! call made, its result delivered and taken (`call`, `deliver`, `wait`),
//! in a registry that keeps its calls in memory (the default), in a
//! `MemoryStore` (the stored path's own cost, records serialized), and in
//! Redis on loopback (a `redis-server` this benchmark starts), in paired
//! rounds: wall time and this process's CPU time per call, and for Redis
//! the commands (round trips), bytes each way and Redis's own CPU time
//! per call, read from `INFO`.
//!
//! Run with `cargo bench -p tool-redis --bench waiting` after
//! `scripts/test` has installed Redis (or with `TOOL_REDIS_SERVER` naming
//! a redis-server); see BENCHMARKS.md.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::json;
use tool_core::store::{MemoryStore, Store, StoreError, Watch, When};
use tool_core::{BoxFuture, ToolContext, ToolRegistry, ToolResult, tool};
use tool_redis::RedisStore;

#[path = "../../benches/support/cpu.rs"]
mod cpu;
#[allow(dead_code)]
#[path = "../tests/support/server.rs"]
mod server;
#[path = "../../benches/support/table.rs"]
mod table;

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
fn pick_file(
    /// What the file is for.
    purpose: String,
) -> ToolResult {
    let _ = purpose;
    ToolResult::deferred()
}

/// A store that counts what it is asked: each ask is one round trip to
/// Redis, and the bytes written.
#[derive(Clone)]
struct Counted {
    inner: RedisStore,
    asks: Arc<AtomicU64>,
    written: Arc<AtomicU64>,
}

impl Store for Counted {
    fn kind(&self) -> &str {
        self.inner.kind()
    }
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        self.asks.fetch_add(1, Ordering::Relaxed);
        self.inner.get(key)
    }
    fn put<'a>(
        &'a self,
        key: &'a str,
        value: Vec<u8>,
        ttl: Duration,
        when: When<'a>,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.asks.fetch_add(1, Ordering::Relaxed);
        self.written
            .fetch_add(value.len() as u64, Ordering::Relaxed);
        self.inner.put(key, value, ttl, when)
    }
    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.asks.fetch_add(1, Ordering::Relaxed);
        self.inner.delete(key)
    }
    fn watch(&self, key: &str) -> Watch {
        self.inner.watch(key)
    }
}

const ROUNDS: usize = 15;
const CALLS: usize = 200;

/// One waiting call, start to end: the arguments differ each time, so
/// each is a call of its own.
async fn waiting_call(registry: &ToolRegistry, ctx: &ToolContext, n: usize) {
    let pending = registry
        .call(ctx, "pick_file", json!({"purpose": format!("call {n}")}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    registry
        .pending()
        .deliver(&id, ToolResult::text("notes.txt"))
        .await
        .expect("delivered");
    let result = registry.pending().wait(&id).await.expect("a result");
    assert_eq!(result.model_text(), "notes.txt");
}

fn info(port_url: &str, section: &str) -> String {
    let address = port_url.trim_start_matches("redis://");
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .write_all(format!("INFO {section}\r\n").as_bytes())
        .expect("send");
    let mut reply = Vec::new();
    let mut buffer = [0; 65536];
    loop {
        let read = stream.read(&mut buffer).expect("read");
        reply.extend_from_slice(&buffer[..read]);
        // A bulk string: `$<len>\r\n<body>\r\n`.
        let text = String::from_utf8_lossy(&reply);
        if let Some((len, rest)) = text.strip_prefix('$').and_then(|t| t.split_once("\r\n"))
            && rest.len() >= len.parse::<usize>().unwrap_or(usize::MAX)
        {
            return rest.to_owned();
        }
        if read == 0 {
            return text.into_owned();
        }
    }
}

fn stat(info: &str, key: &str) -> f64 {
    info.lines()
        .find_map(|line| line.strip_prefix(&format!("{key}:")))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(0.0)
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
    runtime.block_on(measure());
}

async fn measure() {
    let server = server::Server::start();
    let redis = Counted {
        inner: RedisStore::connect(&server.url()).await.expect("connect"),
        asks: Arc::default(),
        written: Arc::default(),
    };
    let counted = redis.clone();
    let ctx = ToolContext::new(());
    let variants: [(&str, ToolRegistry); 3] = [
        ("memory (no store)", ToolRegistry::new().with(PickFile)),
        (
            "MemoryStore",
            ToolRegistry::builder()
                .with(PickFile)
                .store(MemoryStore::new())
                .build(),
        ),
        (
            "RedisStore, loopback",
            ToolRegistry::builder().with(PickFile).store(redis).build(),
        ),
    ];
    // Warm up every variant.
    let mut n = 0;
    for (_, registry) in &variants {
        for _ in 0..CALLS {
            waiting_call(registry, &ctx, n).await;
            n += 1;
        }
    }
    let mut wall: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    let mut cpu_time: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    for round in 0..ROUNDS {
        // Paired: each round runs every variant, in a turning order.
        for turn in 0..variants.len() {
            let which = (turn + round) % variants.len();
            let registry = &variants[which].1;
            let (start, cpu_start) = (Instant::now(), cpu::of("self"));
            for _ in 0..CALLS {
                waiting_call(registry, &ctx, n).await;
                n += 1;
            }
            wall[which].push(start.elapsed().as_secs_f64() * 1e6 / CALLS as f64);
            cpu_time[which].push((cpu::of("self") - cpu_start).as_secs_f64() * 1e6 / CALLS as f64);
        }
    }
    let base = table::median(wall[0].clone());
    println!("a waiting call (call, deliver, wait), median of {ROUNDS} paired rounds of {CALLS}:");
    let mut table = vec![
        format!(
            "| per waiting call | {} |",
            variants
                .iter()
                .map(|(name, _)| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        format!("|---|{}", "---:|".repeat(variants.len())),
    ];
    let (mut wall_row, mut cpu_row) = (vec!["wall".to_owned()], vec!["CPU".to_owned()]);
    for (i, (name, _)) in variants.iter().enumerate() {
        let time = table::median(wall[i].clone());
        let cpu = table::median(cpu_time[i].clone());
        println!(
            "  {name:<22} {time:>8.1} µs wall  {cpu:>8.1} µs CPU  {:>6.1}x",
            time / base
        );
        wall_row.push(format!("{time:.1} µs ({:.1}x)", time / base));
        cpu_row.push(format!("{cpu:.1} µs"));
    }
    table.push(format!("| {} |", wall_row.join(" | ")));
    table.push(format!("| {} |", cpu_row.join(" | ")));

    // What Redis does for one waiting call.
    let variant = &variants[2].1;
    let (before_stats, before_cpu) = (info(&server.url(), "all"), info(&server.url(), "cpu"));
    let measured = 1000;
    let (asks, written) = (
        counted.asks.load(Ordering::Relaxed),
        counted.written.load(Ordering::Relaxed),
    );
    for _ in 0..measured {
        waiting_call(variant, &ctx, n).await;
        n += 1;
    }
    let (after_stats, after_cpu) = (info(&server.url(), "all"), info(&server.url(), "cpu"));
    let per = |key: &str| (stat(&after_stats, key) - stat(&before_stats, key)) / measured as f64;
    let redis_cpu = (stat(&after_cpu, "used_cpu_user") + stat(&after_cpu, "used_cpu_sys")
        - stat(&before_cpu, "used_cpu_user")
        - stat(&before_cpu, "used_cpu_sys"))
        * 1e6
        / measured as f64;
    let by_command = |info: &str| -> Vec<(String, f64)> {
        info.lines()
            .filter_map(|line| {
                let (name, rest) = line.strip_prefix("cmdstat_")?.split_once(':')?;
                let calls = rest
                    .split("calls=")
                    .nth(1)?
                    .split(',')
                    .next()?
                    .parse()
                    .ok()?;
                Some((name.to_owned(), calls))
            })
            .collect()
    };
    let before = by_command(&before_stats);
    let counts: Vec<String> = by_command(&after_stats)
        .into_iter()
        .filter(|(name, _)| name != "info")
        .map(|(name, calls)| {
            let was = before
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(0.0, |(_, c)| *c);
            format!("{name} {:.1}", (calls - was) / measured as f64)
        })
        .collect();
    // A script's own commands are counted under theirs.
    let redis = format!(
        "Redis, per waiting call over {measured}: {:.1} round trips; {:.0} bytes of records written; commands run: {}; {:.0} bytes in, {:.0} bytes out; {redis_cpu:.1} µs of Redis CPU",
        (counted.asks.load(Ordering::Relaxed) - asks) as f64 / measured as f64,
        (counted.written.load(Ordering::Relaxed) - written) as f64 / measured as f64,
        counts.join(", "),
        per("total_net_input_bytes"),
        per("total_net_output_bytes"),
    );
    println!("{redis}");
    if std::env::args().any(|arg| arg == "--write") {
        table.push(String::new());
        table.push(format!("{redis}."));
        table.push(String::new());
        table.push(format!(
            "Median of {ROUNDS} paired rounds of {CALLS} calls, each round running every variant in a turning order. {} Command: `cargo bench -p tool-redis --bench waiting -- --write`, at `{}`, {}.",
            table::machine(),
            table::shell("git", &["rev-parse", "--short", "HEAD"]),
            table::shell("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        ));
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        table::write_table(&benchmarks, "store-waiting-table", &table.join("\n"));
    }
}
