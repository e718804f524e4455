//! MCP under load: the same tool served three ways, each server its own
//! process, driven over streamable HTTP on loopback by this one client.
//!
//! - `tool-mcp`: this framework, `#[tool]` functions in a `ToolRegistry`
//!   served by `tool_mcp::McpServer::serve_http` (`src/bin/tool_mcp_server.rs`);
//! - `rmcp`: rmcp's `#[tool_router]` served by its `StreamableHttpService`
//!   behind the same HTTP loop and settings (`src/bin/rmcp_server.rs`);
//! - `python`: the official Python SDK's `MCPServer` on uvicorn
//!   (`python_server.py`).
//!
//! For each server, in each round: start it, wait until it accepts
//! connections, open `--clients` sessions (`initialize`, then
//! `notifications/initialized`), check `tools/list` gives 100 tools, make
//! `--warmup` untimed calls, then `--calls` timed `tools/call`s of
//! `add_note`, at most one in flight per session; every answer is checked
//! (its id, and its one text block against the text expected for that
//! call's own arguments), then the sessions are closed and the server
//! killed. Servers take turns, the order reversed every other round, so a
//! change in the machine's load between rounds reaches all three alike, and
//! the ratios are taken per round (paired).
//!
//! The client is plain reqwest posting JSON-RPC, on a current-thread Tokio
//! runtime: it does the same small amount of work for every server (no
//! typed model, no per-session worker task), and takes at most one of the
//! machine's cores, so what differs between the rows is the server.
//!
//! With `--replicas`, it measures tool-mcp alone instead, across
//! stateless replicas sharing one Redis (`src/replicas.rs`).
//!
//! With `--pin`, the load generator runs on the first core and each server
//! on the others (`taskset`), so that the kernel cannot put the client and
//! the server on one core for some rounds and on two for others.
//!
//! Usage: `mcp-load [--rounds R] [--calls N] [--clients C] [--warmup W]
//! [--python PATH] [--only NAME,..] [--pin] [--replicas] [--write]`.

use std::fmt::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};
use tokio::task::JoinSet;

use client::Session;

mod client;
mod redis;
mod replicas;

/// The protocol revision every session asks for: the newest one that still
/// opens with `initialize` and keeps an HTTP session, which all three
/// servers speak.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// The tool every timed call calls.
const TOOL: &str = "add_note";

/// How many tools each server must list.
const TOOLS: usize = 100;

/// The markers of the generated part of BENCHMARKS.md's section: the table
/// of the default 1,000 calls a run, and one a count for any other (a p99
/// of more calls is a steadier figure).
fn markers(calls: usize) -> (String, String) {
    let name = if calls == DEFAULT_CALLS {
        "mcp-load-table".to_owned()
    } else {
        format!("mcp-load-table-{calls}")
    };
    (
        format!("<!-- {name}:start -->"),
        format!("<!-- {name}:end -->"),
    )
}

/// Timed calls a run unless `--calls` says otherwise.
const DEFAULT_CALLS: usize = 1_000;

/// How long a server may take to accept connections (the Python SDK takes
/// a few seconds to import on a busy machine).
const STARTUP: Duration = Duration::from_secs(60);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Server {
    ToolMcp,
    Rmcp,
    Python,
}

impl Server {
    const ALL: [Server; 3] = [Server::ToolMcp, Server::Rmcp, Server::Python];

    fn name(self) -> &'static str {
        match self {
            Server::ToolMcp => "tool-mcp",
            Server::Rmcp => "rmcp",
            Server::Python => "python",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Server::ToolMcp => "tool-mcp (this framework)",
            Server::Rmcp => "rmcp 3.9.0 `StreamableHttpService`",
            Server::Python => "Python SDK `mcp` 2.3.0 `MCPServer`",
        }
    }

    /// The command that serves on `port`: on the cores of `--pin`, if
    /// given (`taskset` runs it in its own process, so its id is the
    /// server's).
    fn command(self, options: &Options, port: u16) -> Command {
        let port = port.to_string();
        let program: PathBuf = match self {
            Server::ToolMcp => sibling("tool-mcp-server"),
            Server::Rmcp => sibling("rmcp-server"),
            Server::Python => options.python.clone(),
        };
        let mut command = match &options.pin {
            Some(cores) => {
                let mut command = Command::new("taskset");
                command.args(["-c", cores]).arg(program);
                command
            }
            None => Command::new(program),
        };
        if self == Server::Python {
            command.arg(manifest_dir().join("python_server.py"));
        }
        command
            .args(["--port", &port])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // Killed even when the run stops early on an error.
            .kill_on_drop(true);
        command
    }
}

struct Options {
    rounds: usize,
    calls: usize,
    clients: usize,
    warmup: usize,
    python: PathBuf,
    servers: Vec<Server>,
    /// `--replicas`: tool-mcp across replicas on Redis (`src/replicas.rs`).
    replicas: bool,
    /// `--pin`: the cores each server runs on (`taskset`'s list), the load
    /// generator on core 0.
    pin: Option<String>,
    write: bool,
    /// The arguments as given, for the command shown with the table.
    args: Vec<String>,
}

const USAGE: &str = "usage: mcp-load [--rounds R] [--calls N] [--clients C] [--warmup W] \
                     [--python PATH] [--only tool-mcp,rmcp,python] [--pin] [--replicas] [--write]";

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options {
        rounds: 5,
        calls: DEFAULT_CALLS,
        clients: 8,
        warmup: 200,
        python: default_python(),
        servers: Server::ALL.to_vec(),
        replicas: false,
        pin: None,
        write: false,
        args: args.clone(),
    };
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "--write" {
            options.write = true;
            continue;
        }
        if flag == "--replicas" {
            options.replicas = true;
            continue;
        }
        if flag == "--pin" {
            options.pin = Some(server_cores());
            continue;
        }
        let value = args.next().unwrap_or_else(|| panic!("{USAGE}"));
        let number = || value.parse::<usize>().unwrap_or_else(|_| panic!("{USAGE}"));
        match flag.as_str() {
            "--rounds" => options.rounds = number(),
            "--calls" => options.calls = number(),
            "--clients" => options.clients = number(),
            "--warmup" => options.warmup = number(),
            "--python" => options.python = value.into(),
            "--only" => {
                options.servers = value
                    .split(',')
                    .map(|name| {
                        *Server::ALL
                            .iter()
                            .find(|server| server.name() == name)
                            .unwrap_or_else(|| panic!("unknown server {name:?}: {USAGE}"))
                    })
                    .collect();
            }
            _ => panic!("{USAGE}"),
        }
    }
    assert!(
        options.rounds > 0 && options.calls > 0 && options.clients > 0,
        "rounds, calls and clients must be positive"
    );
    options
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The SDK venv's interpreter: `TOOL_SDK_PYTHON` as the root tests read it,
/// else the repository's `target/sdk-venv` that `.ci/run` makes.
fn default_python() -> PathBuf {
    match std::env::var_os("TOOL_SDK_PYTHON") {
        Some(python) if !python.is_empty() => python.into(),
        _ => manifest_dir().join("../../target/sdk-venv/bin/python"),
    }
}

/// A binary built next to this one.
fn sibling(name: &str) -> PathBuf {
    std::env::current_exe()
        .expect("the path of this binary")
        .with_file_name(name)
}

/// `cargo run` builds only the binary it runs: build the two server
/// binaries too, with the same profile, when run by cargo.
fn build_servers() {
    let Some(cargo) = std::env::var_os("CARGO") else {
        return;
    };
    let mut command = std::process::Command::new(cargo);
    command.current_dir(manifest_dir()).args([
        "build",
        "--bin",
        "tool-mcp-server",
        "--bin",
        "rmcp-server",
    ]);
    if !cfg!(debug_assertions) {
        command.arg("--release");
    }
    let status = command.status().expect("cargo runs");
    assert!(status.success(), "building the server binaries failed");
}

/// A port nothing listens on now, for the next server to bind.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free loopback port")
        .port()
}

/// `calls` calls, ids from `first`, spread over `sessions` with one call
/// in flight per session; the latency of each call. Fails on the first
/// wrong or missing answer.
async fn drive(
    sessions: &[Arc<Session>],
    calls: usize,
    first: u64,
) -> Result<Vec<Duration>, String> {
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = JoinSet::new();
    for session in sessions {
        let session = Arc::clone(session);
        let next = Arc::clone(&next);
        tasks.spawn(async move {
            let mut latencies = Vec::with_capacity(calls / 2);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= calls {
                    return Ok::<_, String>(latencies);
                }
                let start = Instant::now();
                session.call(first + i as u64).await?;
                latencies.push(start.elapsed());
            }
        });
    }
    let mut latencies = Vec::with_capacity(calls);
    while let Some(done) = tasks.join_next().await {
        latencies.extend(done.map_err(|e| e.to_string())??);
    }
    // Every call answered, each exactly once (the counter hands out each
    // index once, and each answer was checked against its own index).
    if latencies.len() != calls {
        return Err(format!("{} answers to {calls} calls", latencies.len()));
    }
    Ok(latencies)
}

/// The CPU time all of a process's threads have run, in ns (the first
/// field of each thread's `schedstat`): what the server spent, whatever
/// else the machine runs. `None` where `/proc` does not say.
fn cpu_ns(pid: u32) -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// One server's run in one round.
struct Sample {
    calls_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    /// The server's CPU time per timed call, in µs.
    cpu_us: Option<f64>,
}

/// The `p`-quantile by nearest rank.
fn quantile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

async fn wait_ready(child: &mut Child, port: u16) -> Result<(), String> {
    let start = Instant::now();
    loop {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("exited before serving: {status}"));
        }
        if start.elapsed() > STARTUP {
            return Err(format!("not listening after {STARTUP:?}"));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn run_server(server: Server, options: &Options) -> Result<Sample, String> {
    let port = free_port();
    let mut child = server
        .command(options, port)
        .spawn()
        .map_err(|e| format!("starting: {e}"))?;
    let pid = child.id().ok_or("no pid")?;
    let result = async {
        wait_ready(&mut child, port).await?;
        let url = format!("http://127.0.0.1:{port}/mcp");
        let mut sessions = Vec::with_capacity(options.clients);
        for _ in 0..options.clients {
            sessions.push(Arc::new(Session::open(&url).await?));
        }
        let tools = sessions[0].count_tools().await?;
        if tools != TOOLS {
            return Err(format!("tools/list gave {tools} tools, not {TOOLS}"));
        }
        if server == Server::ToolMcp {
            sessions[0].check_served().await?;
        }
        // Ids 1..: the warm-up's, then the timed calls'.
        drive(&sessions, options.warmup, 1).await?;
        let cpu_before = cpu_ns(pid);
        let start = Instant::now();
        let mut latencies = drive(&sessions, options.calls, 1 + options.warmup as u64).await?;
        let wall = start.elapsed();
        let cpu_after = cpu_ns(pid);
        for session in &sessions {
            session.close().await;
        }
        latencies.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        Ok(Sample {
            calls_per_s: options.calls as f64 / wall.as_secs_f64(),
            p50_ms: ms(quantile(&latencies, 0.50)),
            p99_ms: ms(quantile(&latencies, 0.99)),
            cpu_us: cpu_before
                .zip(cpu_after)
                .map(|(before, after)| (after - before) as f64 / 1e3 / options.calls as f64),
        })
    }
    .await;
    let _ = child.kill().await;
    result.map_err(|e| format!("{}: {e}", server.name()))
}

/// The tables, the machine and the command, as markdown.
fn report(options: &Options, samples: &[(Server, Vec<Sample>)]) -> String {
    let mut out = String::new();
    let of = |server: Server| samples.iter().find(|(s, _)| *s == server).map(|(_, v)| v);
    let _ = writeln!(
        out,
        "{} `tools/call`s of `add_note` a run over {} concurrent sessions (one call in flight \
         each) after {} warm-up calls; {} rounds, the servers' order reversed every other \
         round. Medians over the rounds, (min–max), n = {}. Both Rust servers set TCP_NODELAY, as `serve_http` does.{}\n",
        options.calls,
        options.clients,
        options.warmup,
        options.rounds,
        options.rounds,
        match &options.pin {
            Some(cores) => format!(
                " The load generator runs on core 0, each server on cores {cores} (`--pin`)."
            ),
            None => String::new(),
        },
    );
    let _ = writeln!(
        out,
        "| server | calls/s | p50 ms | p99 ms | server CPU µs/call |\n|---|---:|---:|---:|---:|"
    );
    for (server, runs) in samples {
        let column = |f: fn(&Sample) -> Option<f64>, decimals| {
            spread(&runs.iter().filter_map(f).collect::<Vec<_>>(), decimals)
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            server.label(),
            column(|s| Some(s.calls_per_s), 0),
            column(|s| Some(s.p50_ms), 2),
            column(|s| Some(s.p99_ms), 2),
            column(|s| s.cpu_us, 0),
        );
    }
    if let Some(ours) = of(Server::ToolMcp) {
        let mut rows = Vec::new();
        let paired = |peer: &[Sample], f: fn(&Sample) -> Option<f64>| -> Vec<f64> {
            ours.iter()
                .zip(peer)
                .filter_map(|(a, b)| Some(f(a)? / f(b)?))
                .collect()
        };
        if let Some(python) = of(Server::Python) {
            rows.push((
                "calls/s, tool-mcp ÷ Python SDK",
                paired(python, |s| Some(s.calls_per_s)),
                "≥ 5",
            ));
            rows.push((
                "server CPU per call, tool-mcp ÷ Python SDK",
                paired(python, |s| s.cpu_us),
                "",
            ));
        }
        if let Some(rmcp) = of(Server::Rmcp) {
            rows.push((
                "calls/s, tool-mcp ÷ rmcp",
                paired(rmcp, |s| Some(s.calls_per_s)),
                "≥ 1",
            ));
            rows.push((
                "p99 latency, tool-mcp ÷ rmcp",
                paired(rmcp, |s| Some(s.p99_ms)),
                "≤ 1",
            ));
            rows.push((
                "server CPU per call, tool-mcp ÷ rmcp",
                paired(rmcp, |s| s.cpu_us),
                "≤ 1",
            ));
        }
        if !rows.is_empty() {
            let _ = writeln!(
                out,
                "\n| paired per round | median (min–max) | target |\n|---|---:|---|"
            );
            for (label, ratios, target) in rows {
                let _ = writeln!(out, "| {label} | {} | {target} |", spread(&ratios, 2));
            }
        }
    }
    let _ = writeln!(
        out,
        "\nMachine: {} cores ({}), {}. Command: `(cd bench/mcp-load && cargo run --release -- {})`, \
         at `{}`, {}.",
        machine_cores(),
        cpu_model(),
        output("rustc", &["--version"]),
        options.args.join(" "),
        output("git", &["rev-parse", "--short", "HEAD"]),
        output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    );
    out
}
include!("../../report.rs");

/// The machine's cores, as this process found them before `--pin` moved
/// it to one.
fn machine_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(0, usize::from))
}

/// The cores a server runs on with `--pin`: every core but the first,
/// which is the load generator's, to which this process moves itself.
fn server_cores() -> String {
    let cores = machine_cores();
    assert!(
        cores >= 2,
        "--pin needs 2 cores at least, one for the load generator"
    );
    let pid = std::process::id().to_string();
    let pinned = std::process::Command::new("taskset")
        .args(["-a", "-p", "-c", "0", &pid])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        pinned,
        "--pin: taskset could not move the load generator to core 0"
    );
    if cores == 2 {
        "1".to_owned()
    } else {
        format!("1-{}", cores - 1)
    }
}

fn main() {
    let options = options();
    build_servers();
    if options.replicas {
        replicas::main(&options);
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let mut samples: Vec<(Server, Vec<Sample>)> = options
        .servers
        .iter()
        .map(|&server| (server, Vec::new()))
        .collect();
    for round in 0..options.rounds {
        let mut order: Vec<usize> = (0..samples.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for i in order {
            let server = samples[i].0;
            match runtime.block_on(run_server(server, &options)) {
                Ok(sample) => {
                    eprintln!(
                        "round {}/{} {:<8} {:>7.0} calls/s  p50 {:>6.2} ms  p99 {:>6.2} ms  cpu {:>5.0} µs/call",
                        round + 1,
                        options.rounds,
                        server.name(),
                        sample.calls_per_s,
                        sample.p50_ms,
                        sample.p99_ms,
                        sample.cpu_us.unwrap_or(f64::NAN),
                    );
                    samples[i].1.push(sample);
                }
                Err(error) => {
                    eprintln!("{error}");
                    std::process::exit(1);
                }
            }
        }
    }
    let text = report(&options, &samples);
    println!("{text}");
    if options.write {
        let (start, end) = markers(options.calls);
        write_benchmarks(&start, &end, "MCP under load", &text).expect("BENCHMARKS.md written");
        eprintln!("written to BENCHMARKS.md between {start} and {end}");
    }
}
