//! Turns per second on one node: a model response of three calls of `add`
//! run as the turn's workflow through restate-server (each turn started
//! and waited for by its key, as `load::run_turns` does), 8 at a time,
//! beside the same turn run in this process with `Provider::respond`, 8
//! at a time too, in paired rounds: wall and CPU per turn, this
//! process's (the client and the workflow's worker) and the server's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use restate_sdk::endpoint::Endpoint;
use restate_sdk::http_server::HttpServer;
use serde_json::{Value, json};
use tool_core::provider::{Provider, Turn};
use tool_core::{ToolContext, ToolRegistry};
use tool_restate::TurnWorkflow;

use super::{Add, CONCURRENT, LOAD_ROUNDS, cpu, figure, load, range, server, table};

/// Turns a round runs through Restate.
const TURNS: usize = 500;
/// How many times more turns a round runs in this process.
const PLAIN: usize = 100;
/// Calls in a turn.
const CALLS: usize = 3;

/// The model's response: `CALLS` calls of `add`, call `c` adding `c + 1`.
fn response() -> Value {
    let content: Vec<Value> = (0..CALLS)
        .map(|c| {
            json!({"type": "tool_use", "id": format!("toolu_{c}"), "name": "add",
                   "input": {"a": c, "b": 1}})
        })
        .collect();
    json!({"role": "assistant", "content": content})
}

/// Asserts that `turn` ran each call to its sum.
fn check(turn: &Turn) {
    let texts: Vec<String> = turn
        .results()
        .iter()
        .map(|result| result.model_text().into_owned())
        .collect();
    let sums: Vec<String> = (0..CALLS).map(|c| (c + 1).to_string()).collect();
    assert_eq!(texts, sums);
}

/// Runs `TURNS * PLAIN` turns in this process, `CONCURRENT` at a time.
async fn in_process(registry: &Arc<ToolRegistry>, response: &Arc<Value>) {
    let tasks: Vec<_> = (0..CONCURRENT)
        .map(|_| {
            let (registry, response) = (Arc::clone(registry), Arc::clone(response));
            tokio::spawn(async move {
                let ctx = ToolContext::new(());
                for _ in 0..TURNS * PLAIN / CONCURRENT {
                    let turn = Provider::Anthropic { strict: false }
                        .respond(&registry, &ctx, &response)
                        .await
                        .expect("a turn");
                    check(&turn);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("turns");
    }
}

/// Measures both, on `restate` (its process `restate_pid`), and gives the
/// table's lines.
pub(crate) async fn measure(restate: &server::Server, restate_pid: &str) -> Vec<String> {
    let worker = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let uri = format!("http://{}", worker.local_addr().expect("its address"));
    let turns = TurnWorkflow::new(ToolRegistry::new().with(Add), |_| ToolContext::new(()));
    let endpoint = Endpoint::builder()
        .bind(turns.definition().expect("a workflow"))
        .build();
    tokio::spawn(async move {
        HttpServer::new(endpoint)
            .serve_with_cancel(worker, std::future::pending::<()>())
            .await;
    });
    restate.register(&uri).await;
    let registry = Arc::new(ToolRegistry::new().with(Add));
    let response = Arc::new(response());
    let body = json!({"provider": "anthropic", "response": *response});
    let ingress = [restate.ingress().to_owned()];

    // Per round: turns/s, p50, p99, this process's CPU and the server's
    // per turn (µs); 0 in process, 1 through Restate.
    let mut rounds: [Vec<[f64; 5]>; 2] = Default::default();
    for round in 0..=LOAD_ROUNDS {
        for turn in 0..2 {
            let which = (turn + round) % 2;
            let (own, server) = (cpu::of("self"), cpu::of(restate_pid));
            let (count, figures) = if which == 0 {
                let started = Instant::now();
                in_process(&registry, &response).await;
                let count = TURNS * PLAIN;
                (
                    count,
                    [count as f64 / started.elapsed().as_secs_f64(), 0.0, 0.0],
                )
            } else {
                let load = load::run_turns(
                    &ingress,
                    "Turn",
                    &format!("bench-{round}"),
                    TURNS,
                    CONCURRENT,
                    |_| body.clone(),
                )
                .await;
                for (status, answer) in &load.answers {
                    assert_eq!(*status, 200, "{}", String::from_utf8_lossy(answer));
                    check(&serde_json::from_slice(answer).expect("a turn"));
                }
                (TURNS, [load.rate(), load.latency(0.5), load.latency(0.99)])
            };
            let per = |time: Duration| time.as_secs_f64() * 1e6 / count as f64;
            // Round 0 warms both up and is not kept.
            if round > 0 {
                let [rate, p50, p99] = figures;
                rounds[which].push([
                    rate,
                    p50,
                    p99,
                    per(cpu::of("self") - own),
                    per(cpu::of(restate_pid) - server),
                ]);
            }
        }
    }
    let field = |which: usize, f: usize| -> Vec<f64> {
        rounds[which].iter().map(|round| round[f]).collect()
    };
    let mut lines = vec![
        format!(
            "| turns of {CALLS} calls, {CONCURRENT} at a time, one node | turns/s | p50 | p99 | CPU per turn, this process (client and worker) | restate-server's CPU per turn |"
        ),
        "|---|---:|---:|---:|---:|---:|".to_owned(),
        format!(
            "| in process, `Provider::respond` ({} turns a round) | {} ({}) | – | – | {} µs ({}) | – |",
            TURNS * PLAIN,
            figure(table::median(field(0, 0))),
            range(&field(0, 0)),
            figure(table::median(field(0, 3))),
            range(&field(0, 3)),
        ),
        format!(
            "| `TurnWorkflow` through restate-server ({TURNS} turns a round) | {} ({}) | {:.1} ms | {:.1} ms | {} µs ({}) | {} µs ({}) |",
            figure(table::median(field(1, 0))),
            range(&field(1, 0)),
            table::median(field(1, 1)),
            table::median(field(1, 2)),
            figure(table::median(field(1, 3))),
            range(&field(1, 3)),
            figure(table::median(field(1, 4))),
            range(&field(1, 4)),
        ),
    ];
    // Paired: each round's Restate figure over the same round's in-process
    // one.
    let ratio = |f: &dyn Fn(&[f64; 5]) -> f64| -> Vec<f64> {
        rounds[1]
            .iter()
            .zip(&rounds[0])
            .map(|(restate, plain)| f(restate) / f(plain))
            .collect()
    };
    let wall = ratio(&|round| 1.0 / round[0]);
    let all_cpu = ratio(&|round| round[3] + round[4]);
    lines.push(String::new());
    lines.push(format!(
        "A turn through Restate ÷ in process, paired: wall per turn {}x ({}); CPU per turn (this process and the server) {}x ({}).",
        figure(table::median(wall.clone())),
        range(&wall),
        figure(table::median(all_cpu.clone())),
        range(&all_cpu),
    ));
    for line in &lines {
        println!("{line}");
    }
    lines
}
