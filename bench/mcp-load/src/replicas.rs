//! `--replicas`: tool-mcp served by 1, 2 and 3 stateless processes sharing
//! one Redis (`tool_redis::RedisStore`, given to both the registry and the
//! server), beside one process keeping everything in memory, each row for
//! two tools: `add_note` (a plain tool: the store untouched) and
//! `add_note_later` (the same note, `long_running`: every call claimed,
//! finished and waited for through the store).
//!
//! Each round starts a fresh `redis-server`, then runs the rows in an
//! order rotated by one each round; a row starts its replicas
//! (`tool-mcp-server --stateless [--redis URL --prefix P]`), checks that
//! each is stateless and lists 101 tools, then for each tool (the order
//! reversed every other round) makes the warm-up calls and times the
//! calls, and kills the replicas. No proxy: each client sends its `j`-th
//! call to replica `(c + j) mod n`, `c` being the client's index. Every
//! answer is checked as in the sessions' runs.

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};
use tokio::task::JoinSet;

use crate::client::{self, Via};
use crate::redis::{RedisServer, RedisUse};
use crate::{Options, PROTOCOL_VERSION};

mod report;

/// The two tools every row times.
pub(crate) const TOOLS: [&str; 2] = ["add_note", "add_note_later"];

/// The tools a replica lists: `add_note`, its 99 fillers and
/// `add_note_later`.
const LISTED: usize = 101;

/// One row of the table: where calls and tasks are kept, and how many
/// replicas serve them.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    pub(crate) redis: bool,
    pub(crate) replicas: usize,
}

impl Row {
    pub(crate) const ALL: [Row; 4] = [
        Row {
            redis: false,
            replicas: 1,
        },
        Row {
            redis: true,
            replicas: 1,
        },
        Row {
            redis: true,
            replicas: 2,
        },
        Row {
            redis: true,
            replicas: 3,
        },
    ];

    pub(crate) fn store(self) -> &'static str {
        if self.redis { "redis" } else { "memory" }
    }

    pub(crate) fn name(self) -> String {
        format!("{} ×{}", self.store(), self.replicas)
    }
}

/// One tool's run in one row in one round.
#[derive(Clone)]
pub(crate) struct Sample {
    pub(crate) calls_per_s: f64,
    pub(crate) p50_ms: f64,
    pub(crate) p99_ms: f64,
    /// The slowest call, printed with each run: a notice a waiting call
    /// missed would show here as the store's poll (2 s).
    pub(crate) max_ms: f64,
    /// The replicas' CPU time per timed call (summed over them), µs.
    pub(crate) cpu_us: Option<f64>,
    /// This loader's CPU time per timed call, µs.
    pub(crate) loader_us: Option<f64>,
    /// What Redis spent (rows on Redis).
    pub(crate) redis: Option<RedisUse>,
    /// The timed calls each replica answered.
    pub(crate) served: Vec<usize>,
}

/// A replica serving on `port`, on Redis at `redis` under `prefix` if
/// given.
fn replica(port: u16, redis: Option<(&str, &str)>) -> Result<Child, String> {
    let mut command = Command::new(crate::sibling("tool-mcp-server"));
    command.args(["--port", &port.to_string(), "--stateless"]);
    if let Some((url, prefix)) = redis {
        command.args(["--redis", url, "--prefix", prefix]);
    }
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        // Killed even when the run stops early on an error.
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("starting tool-mcp-server: {e}"))
}

/// Checks that the replica at `url` serves without sessions (its
/// `initialize` answer sets no `Mcp-Session-Id`) and lists [`LISTED`]
/// tools.
async fn check_replica(http: &reqwest::Client, url: &str) -> Result<(), String> {
    let (status, headers, body) =
        client::post(http, url, Via::Stateless, client::initialize()).await?;
    if status != 200 {
        return Err(format!("initialize: HTTP {status}: {body}"));
    }
    let answer = client::answer(&headers, &body, 0)?;
    let version = answer["result"]["protocolVersion"].as_str();
    if version != Some(PROTOCOL_VERSION) {
        return Err(format!("initialize: protocol {version:?}: {body}"));
    }
    if headers.contains_key("mcp-session-id") {
        return Err(format!("{url} opened a session: not stateless"));
    }
    // Pages of 100: follow the cursor.
    let (mut tools, mut cursor) = (0, None::<String>);
    for page in 1.. {
        let params = match &cursor {
            Some(cursor) => serde_json::json!({"cursor": cursor}),
            None => serde_json::json!({}),
        };
        let listed = client::request(http, url, Via::Stateless, page, "tools/list", params).await?;
        tools += listed["tools"].as_array().map_or(0, Vec::len);
        match listed.get("nextCursor").and_then(|next| next.as_str()) {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    if tools != LISTED {
        return Err(format!(
            "{url}: tools/list gave {tools} tools, not {LISTED}"
        ));
    }
    Ok(())
}

/// What a drive gave: each call's latency, and the calls each replica
/// answered.
struct Driven {
    latencies: Vec<Duration>,
    served: Vec<usize>,
}

/// `calls` calls of `tool`, ids from `first`, over `clients` (one call in
/// flight each), client `c`'s `j`-th call to replica `(c + j) mod n`.
/// Fails on the first wrong or missing answer.
async fn drive(
    clients: &[reqwest::Client],
    urls: &Arc<Vec<String>>,
    tool: &'static str,
    calls: usize,
    first: u64,
) -> Result<Driven, String> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = JoinSet::new();
    for (c, http) in clients.iter().enumerate() {
        let (http, urls, next) = (http.clone(), Arc::clone(urls), Arc::clone(&next));
        tasks.spawn(async move {
            let mut latencies = Vec::with_capacity(calls / 2);
            let mut served = vec![0; urls.len()];
            for j in 0.. {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= calls {
                    break;
                }
                let k = first + i as u64;
                let to = (c + j) % urls.len();
                let start = Instant::now();
                let params = client::note_call(tool, k);
                let result =
                    client::request(&http, &urls[to], Via::Stateless, k, "tools/call", params)
                        .await
                        .map_err(|e| format!("{}: {e}", urls[to]))?;
                client::check_note(k, &result)?;
                latencies.push(start.elapsed());
                served[to] += 1;
            }
            Ok::<_, String>((latencies, served))
        });
    }
    let mut driven = Driven {
        latencies: Vec::with_capacity(calls),
        served: vec![0; urls.len()],
    };
    while let Some(done) = tasks.join_next().await {
        let (latencies, served) = done.map_err(|e| e.to_string())??;
        driven.latencies.extend(latencies);
        for (total, one) in driven.served.iter_mut().zip(served) {
            *total += one;
        }
    }
    // Every call answered, each exactly once (the counter hands out each
    // index once, and each answer was checked against its own index).
    if driven.latencies.len() != calls {
        return Err(format!(
            "{} answers to {calls} calls",
            driven.latencies.len()
        ));
    }
    Ok(driven)
}

/// The CPU time of all of `pids`, ns; `None` if `/proc` does not say for
/// one.
fn cpu_ns(pids: &[u32]) -> Option<u64> {
    pids.iter().map(|&pid| crate::cpu_ns(pid)).sum()
}

/// One row in one round: a sample per tool, in [`TOOLS`]' order.
async fn run_row(
    row: Row,
    round: usize,
    redis: &RedisServer,
    options: &Options,
) -> Result<[Sample; 2], String> {
    let url = redis.url();
    // Keys and notices of this row's own: no record of another row's
    // calls (same tools, same titles) is ever found.
    let prefix = format!("bench-{}x{}:", row.store(), row.replicas);
    let mut children = Vec::with_capacity(row.replicas);
    let mut urls = Vec::with_capacity(row.replicas);
    for _ in 0..row.replicas {
        let port = crate::free_port();
        let redis = row.redis.then_some((url.as_str(), prefix.as_str()));
        children.push((replica(port, redis)?, port));
        urls.push(format!("http://127.0.0.1:{port}/mcp"));
    }
    let mut pids = Vec::with_capacity(row.replicas);
    for (child, port) in &mut children {
        crate::wait_ready(child, *port).await?;
        pids.push(child.id().ok_or("no pid")?);
    }
    let clients = (0..options.clients)
        .map(|_| client::http())
        .collect::<Result<Vec<_>, _>>()?;
    for url in &urls {
        check_replica(&clients[0], url).await?;
    }
    let urls = Arc::new(urls);
    let mut order = [0, 1];
    if round % 2 == 1 {
        order.reverse();
    }
    let mut samples: [Option<Sample>; 2] = [None, None];
    // Ids from 1, each call's own over the row.
    let mut first = 1;
    for t in order {
        let tool = TOOLS[t];
        drive(&clients, &urls, tool, options.warmup, first).await?;
        first += options.warmup as u64;
        let cpu_before = cpu_ns(&pids);
        let loader_before = crate::cpu_ns(std::process::id());
        let redis_before = row.redis.then(|| redis.snapshot()).transpose()?;
        let start = Instant::now();
        let mut driven = drive(&clients, &urls, tool, options.calls, first).await?;
        let wall = start.elapsed();
        let redis_after = row.redis.then(|| redis.snapshot()).transpose()?;
        let loader_after = crate::cpu_ns(std::process::id());
        let cpu_after = cpu_ns(&pids);
        first += options.calls as u64;
        if let Some(idle) = driven.served.iter().position(|&served| served == 0) {
            return Err(format!("replica {idle} answered none of the calls"));
        }
        driven.latencies.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let per_call = |before: Option<u64>, after: Option<u64>| {
            before
                .zip(after)
                .map(|(before, after)| (after - before) as f64 / 1e3 / options.calls as f64)
        };
        samples[t] = Some(Sample {
            calls_per_s: options.calls as f64 / wall.as_secs_f64(),
            p50_ms: ms(crate::quantile(&driven.latencies, 0.50)),
            p99_ms: ms(crate::quantile(&driven.latencies, 0.99)),
            max_ms: ms(driven.latencies.last().copied().unwrap_or_default()),
            cpu_us: per_call(cpu_before, cpu_after),
            loader_us: per_call(loader_before, loader_after),
            redis: redis_before
                .zip(redis_after)
                .map(|(before, after)| before.until(&after, options.calls)),
            served: driven.served,
        });
    }
    for (mut child, _) in children {
        let _ = child.kill().await;
    }
    let [Some(a), Some(b)] = samples else {
        unreachable!("both tools ran");
    };
    Ok([a, b])
}

/// Runs the rounds, prints each run, and gives the samples:
/// `[row][tool]`, one per round.
pub(crate) fn measure(options: &Options) -> Result<Vec<[Vec<Sample>; 2]>, String> {
    let binary = crate::redis::binary()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let mut samples: Vec<[Vec<Sample>; 2]> = Row::ALL.iter().map(|_| Default::default()).collect();
    for round in 0..options.rounds {
        // A fresh, empty Redis for each round.
        let redis = RedisServer::start(&binary)?;
        for turn in 0..Row::ALL.len() {
            let r = (turn + round) % Row::ALL.len();
            let row = Row::ALL[r];
            let ran = runtime
                .block_on(run_row(row, round, &redis, options))
                .map_err(|e| format!("round {}, {}: {e}", round + 1, row.name()))?;
            for (t, sample) in ran.into_iter().enumerate() {
                let redis = sample.redis.clone().unwrap_or_default();
                eprintln!(
                    "round {}/{} {:<9} {:<14} {:>6.0} calls/s  p50 {:>6.2} ms  p99 {:>6.2} ms  max {:>7.2} ms  \
                     replicas {:>4.0} µs/call  redis {:>4.0} µs/call {:>5.2} commands/call  \
                     loader {:>4.0} µs/call  served {:?}",
                    round + 1,
                    options.rounds,
                    row.name(),
                    TOOLS[t],
                    sample.calls_per_s,
                    sample.p50_ms,
                    sample.p99_ms,
                    sample.max_ms,
                    sample.cpu_us.unwrap_or(f64::NAN),
                    redis.cpu_us,
                    redis.commands,
                    sample.loader_us.unwrap_or(f64::NAN),
                    sample.served,
                );
                samples[r][t].push(sample);
            }
        }
    }
    Ok(samples)
}

/// `mcp-load --replicas`: measures, prints the table, and with `--write`
/// puts it in BENCHMARKS.md.
pub(crate) fn main(options: &Options) {
    let samples = match measure(options) {
        Ok(samples) => samples,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    };
    let text = report::report(options, &samples);
    println!("{text}");
    if options.write {
        crate::write_benchmarks(report::START, report::END, report::HEADING, &text)
            .expect("BENCHMARKS.md written");
        eprintln!(
            "written to BENCHMARKS.md between {} and {}",
            report::START,
            report::END
        );
    }
}
