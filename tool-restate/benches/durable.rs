//! What a tool call costs as a durable step through Restate, beside a
//! plain `ToolRegistry::call` and beside the Redis store's waiting call
//! (made, delivered and taken), in paired rounds: wall time, this
//! process's CPU time (the client and the worker), and the server's own
//! (restate-server's, Redis's) per call. Then calls per second through one
//! restate-server node, 8 at a time, and how they grow from one worker
//! process to three (behind one address, the one deployment Restate knows).
//! Last, turns per second on one node (`durable/turns.rs`): a turn of
//! three calls as the turn's workflow, 8 at a time, beside the same turn
//! run in process with `Provider::respond`.
//!
//! Run with `cargo bench -p tool-restate --bench durable` after
//! `scripts/test` has installed restate-server and Redis (or with
//! `TOOL_RESTATE_SERVER` and `TOOL_REDIS_SERVER` naming them); add
//! `-- --write` to put the table into BENCHMARKS.md.

use std::time::{Duration, Instant};

use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_redis::RedisStore;
use tool_restate::RestateService;

#[path = "../../benches/support/cpu.rs"]
mod cpu;
#[allow(dead_code, unreachable_pub)]
#[path = "../tests/support/load.rs"]
mod load;
#[allow(dead_code, unreachable_pub)]
#[path = "../tests/support/proxy.rs"]
mod proxy;
#[allow(dead_code, unreachable_pub)]
#[path = "../../tool-redis/tests/support/server.rs"]
mod redis_server;
#[allow(dead_code, unreachable_pub)]
#[path = "../tests/support/server.rs"]
mod server;
#[path = "../../benches/support/table.rs"]
mod table;
#[path = "durable/turns.rs"]
mod turns;
#[allow(dead_code, unreachable_pub)]
#[path = "../tests/support/worker.rs"]
mod worker;
const ROUNDS: usize = 9;
const CALLS: usize = 100;
/// How many times more plain calls a round makes.
const PLAIN: usize = 1000;
const LOAD_ROUNDS: usize = 5;
const LOAD_CALLS: usize = 1000;
const CONCURRENT: usize = 8;

/// Add two numbers.
#[tool(idempotent)]
fn add(a: i64, b: i64) -> ToolResult {
    ToolResult::text((a + b).to_string())
}

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
fn pick_file(
    /// What the file is for.
    purpose: String,
) -> ToolResult {
    let _ = purpose;
    ToolResult::deferred()
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
    // A worker process is told `<port> <service name>`.
    if let Ok(worker) = std::env::var(worker::WORKER) {
        let (port, name) = worker.split_once(' ').expect("<port> <name>");
        runtime.block_on(serve(port.parse().expect("a port"), name));
        return;
    }
    runtime.block_on(measure());
}

/// Serves `add` as the service `name` on `port`, until killed.
async fn serve(port: u16, name: &str) {
    let service =
        RestateService::new(ToolRegistry::new().with(Add), |_| ToolContext::new(())).name(name);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the worker's port");
    service
        .serve(listener, std::future::pending())
        .await
        .expect("served");
}

/// The process listening on loopback `port`, found through /proc (the
/// Redis harness does not say its pid).
fn listener_pid(port: u16) -> Option<String> {
    let hex = format!(":{port:04X}");
    let tcp = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let inode = tcp.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(1)?.ends_with(&hex) && fields.get(3) == Some(&"0A"))
            .then(|| fields[9].to_owned())
    })?;
    let socket = format!("socket:[{inode}]");
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let fds = std::fs::read_dir(entry.path().join("fd")).ok()?;
            fds.flatten()
                .any(|fd| {
                    std::fs::read_link(fd.path()).is_ok_and(|link| link.to_string_lossy() == socket)
                })
                .then(|| entry.file_name().to_string_lossy().into_owned())
        })
}

/// A variant's figures for one round: wall, own CPU, server CPU, per call
/// in µs.
type Round = [f64; 3];

fn range(values: &[f64]) -> String {
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{}–{}", figure(low), figure(high))
}

/// A figure with as many decimals as it needs to be read.
fn figure(value: f64) -> String {
    match value {
        v if v >= 100.0 => format!("{v:.0}"),
        v if v >= 10.0 => format!("{v:.1}"),
        v => format!("{v:.2}"),
    }
}

async fn measure() {
    let restate = server::Server::start("bench").await;
    let worker = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let uri = format!("http://{}", worker.local_addr().expect("its address"));
    let service = RestateService::new(ToolRegistry::new().with(Add), |_| ToolContext::new(()));
    tokio::spawn(async move { service.serve(worker, std::future::pending()).await });
    restate.register(&uri).await;
    let redis = redis_server::Server::start();
    let redis_port: u16 = redis
        .url()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("a port");
    let redis_pid = listener_pid(redis_port).unwrap_or_default();
    let restate_pid = restate.pid().to_string();
    let stored = ToolRegistry::builder()
        .with(PickFile)
        .store(RedisStore::connect(&redis.url()).await.expect("Redis"))
        .build();
    let plain = ToolRegistry::new().with(Add);
    let ctx = ToolContext::new(());
    let http = restate.http().clone();
    let ingress = restate.ingress().to_owned();

    let mut n = 0_usize;
    // One call of variant `which`: 0 plain, 1 Redis, 2 Restate.
    let mut rounds: [Vec<Round>; 3] = Default::default();
    for round in 0..=ROUNDS {
        for turn in 0..3 {
            let which = (turn + round) % 3;
            let server_pid = match which {
                1 => redis_pid.as_str(),
                2 => restate_pid.as_str(),
                _ => "",
            };
            // A plain call takes under a µs: enough of them to be timed.
            let calls = if which == 0 { CALLS * PLAIN } else { CALLS };
            let (start, own, server) = (Instant::now(), cpu::of("self"), cpu::of(server_pid));
            for _ in 0..calls {
                n += 1;
                let args = json!({"a": n, "b": 1});
                match which {
                    0 => {
                        let result = plain.call(&ctx, "add", args).await;
                        assert_eq!(result.model_text(), (n + 1).to_string());
                    }
                    1 => {
                        let pending = stored
                            .call(&ctx, "pick_file", json!({"purpose": format!("call {n}")}))
                            .await;
                        let id = pending.pending_call_id().expect("pending").to_owned();
                        stored
                            .pending()
                            .deliver(&id, ToolResult::text("notes.txt"))
                            .await
                            .expect("delivered");
                        let result = stored.pending().wait(&id).await.expect("a result");
                        assert_eq!(result.model_text(), "notes.txt");
                    }
                    _ => {
                        let reply = http
                            .post(format!("{ingress}/Tools/add"))
                            .json(&args)
                            .send()
                            .await
                            .expect("the ingress answers");
                        assert!(reply.status().is_success(), "{}", reply.status());
                        let result: ToolResult = reply.json().await.expect("a result");
                        assert_eq!(result.model_text(), (n + 1).to_string());
                    }
                }
            }
            let per = |time: Duration| time.as_secs_f64() * 1e6 / calls as f64;
            // Round 0 warms every variant up and is not kept.
            if round > 0 {
                rounds[which].push([
                    per(start.elapsed()),
                    per(cpu::of("self") - own),
                    if server_pid.is_empty() {
                        0.0
                    } else {
                        per(cpu::of(server_pid) - server)
                    },
                ]);
            }
        }
    }
    let column = |which: usize, field: usize| -> Vec<f64> {
        rounds[which].iter().map(|round| round[field]).collect()
    };
    let ratio = |over: usize, field: usize| -> Vec<f64> {
        let (top, bottom) = (column(2, field), column(over, field));
        top.iter().zip(&bottom).map(|(t, b)| t / b).collect()
    };
    let mut lines = vec![
        "| per call | plain `registry.call` | Redis store's waiting call | Restate durable step | Restate ÷ plain | Restate ÷ Redis |".to_owned(),
        "|---|---:|---:|---:|---:|---:|".to_owned(),
    ];
    for (field, name) in [(0, "wall"), (1, "CPU, this process (client and worker)")] {
        let cells: Vec<String> = (0..3)
            .map(|which| {
                format!(
                    "{} µs ({})",
                    figure(table::median(column(which, field))),
                    range(&column(which, field))
                )
            })
            .collect();
        let (plain_ratio, redis_ratio) = (ratio(0, field), ratio(1, field));
        lines.push(format!(
            "| {name} | {} | {}x ({}) | {}x ({}) |",
            cells.join(" | "),
            figure(table::median(plain_ratio.clone())),
            range(&plain_ratio),
            figure(table::median(redis_ratio.clone())),
            range(&redis_ratio),
        ));
    }
    let server_cells: Vec<String> = (1..3)
        .map(|which| {
            format!(
                "{} µs ({})",
                figure(table::median(column(which, 2))),
                range(&column(which, 2))
            )
        })
        .collect();
    lines.push(format!(
        "| CPU, the server (Redis, restate-server) | – | {} | | |",
        server_cells.join(" | ")
    ));
    for line in &lines {
        println!("{line}");
    }

    // Calls per second on one node, 8 at a time, through one worker and
    // through three (two services, so that both are measured on the same
    // node in turn).
    let one = vec![worker::Worker::started("One")];
    let three: Vec<worker::Worker> = (0..3).map(|_| worker::Worker::started("Three")).collect();
    let proxies = [
        proxy::Proxy::start(one.iter().map(worker::Worker::port).collect()).await,
        proxy::Proxy::start(three.iter().map(worker::Worker::port).collect()).await,
    ];
    for proxy in &proxies {
        restate.register(&proxy.uri()).await;
    }
    let groups = [&one, &three];
    let mut loads: [Vec<[f64; 5]>; 2] = Default::default();
    for round in 0..=LOAD_ROUNDS {
        for turn in 0..2 {
            let which = (turn + round) % 2;
            let workers: Vec<String> = groups[which]
                .iter()
                .filter_map(|worker| worker.pid().map(|pid| pid.to_string()))
                .collect();
            let before_workers: Duration = workers.iter().map(|pid| cpu::of(pid)).sum();
            let before_server = cpu::of(&restate_pid);
            let path = ["One/add", "Three/add"][which];
            let load = load::run(
                std::slice::from_ref(&ingress),
                path,
                &format!("load-{round}-{which}"),
                LOAD_CALLS,
                CONCURRENT,
                |i| json!({"a": i, "b": 1}),
            )
            .await;
            assert!(
                load.answers.iter().all(|(status, _)| *status == 200),
                "a call failed"
            );
            let per = |time: Duration| time.as_secs_f64() * 1e6 / LOAD_CALLS as f64;
            let after_workers: Duration = workers.iter().map(|pid| cpu::of(pid)).sum();
            if round > 0 {
                loads[which].push([
                    load.rate(),
                    load.latency(0.5),
                    load.latency(0.99),
                    per(after_workers - before_workers),
                    per(cpu::of(&restate_pid) - before_server),
                ]);
            }
        }
    }
    lines.push(String::new());
    lines.push(format!("| {LOAD_CALLS} calls, {CONCURRENT} at a time, one node | calls/s | p50 | p99 | workers' CPU per call | restate-server's CPU per call |"));
    lines.push("|---|---:|---:|---:|---:|---:|".to_owned());
    for (which, name) in ["1 worker", "3 workers (one URI)"].iter().enumerate() {
        let field = |f: usize| -> Vec<f64> { loads[which].iter().map(|round| round[f]).collect() };
        lines.push(format!(
            "| {name} | {:.0} ({}) | {:.1} ms | {:.1} ms | {:.0} µs | {:.0} µs |",
            table::median(field(0)),
            range(&field(0)),
            table::median(field(1)),
            table::median(field(2)),
            table::median(field(3)),
            table::median(field(4)),
        ));
        println!("{}", lines[lines.len() - 1]);
    }
    let growth: Vec<f64> = loads[1]
        .iter()
        .zip(&loads[0])
        .map(|(three, one)| three[0] / one[0])
        .collect();
    let connections: Vec<String> = proxies
        .iter()
        .map(|proxy| format!("{:?}", proxy.connections()))
        .collect();
    let summary = format!(
        "3 workers ÷ 1, calls/s: {:.2}x ({}); connections Restate opened to each worker: {}.",
        table::median(growth.clone()),
        range(&growth),
        connections.join(" and ")
    );
    println!("{summary}");
    let turns = turns::measure(&restate, &restate_pid).await;
    if std::env::args().any(|arg| arg == "--write") {
        lines.push(String::new());
        lines.push(summary);
        lines.push(String::new());
        lines.extend(turns);
        lines.push(String::new());
        lines.push(format!(
            "Medians (min–max) of {ROUNDS} paired rounds of {CALLS} sequential calls ({} plain ones), each round running every variant in a turning order, and of {LOAD_ROUNDS} paired rounds of each load (the calls', the turns'); a warm-up round before each is not kept. Everything (client, workers, restate-server 1.7.12, Redis) on the same cores. {} Command: `cargo bench -p tool-restate --bench durable -- --write`, at `{}`, {}.",
            CALLS * PLAIN,
            table::machine(),
            table::shell("git", &["rev-parse", "--short", "HEAD"]),
            table::shell("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        ));
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        table::write_table(&benchmarks, "restate-durable-table", &lines.join("\n"));
    }
}
