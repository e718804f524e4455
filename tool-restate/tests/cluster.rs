//! Tools served behind a three-node Restate cluster, under load (1,000
//! calls, 8 at a time, each with an idempotency key, from a client that
//! sends a call again through another node when its connection fails):
//! with one node killed (SIGKILL) mid-load, then with one of three workers
//! killed mid-load, every call ends with its result and each call's side
//! effect is done once, by the key the tool reads (`ctx.call_id()`).
//!
//! The workers are processes of their own: this test's binary, started
//! again with `TOOL_RESTATE_TEST_WORKER` set (so it runs without libtest's
//! harness, and `main` decides which it is).

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;

use restate_sdk::service::ServiceDefinition;
use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::RestateService;

use support::cluster::Cluster;
use support::counter::Counter;
use support::harness::{self, Test};
use support::load::{self, Load};
use support::proxy::Proxy;
use support::worker::Worker;

const CALLS: usize = 1000;
const CONCURRENT: usize = 8;

fn main() {
    let tests: [(&str, Test); 2] = [
        (
            "a_node_killed_under_load_loses_no_call_and_repeats_no_side_effect",
            || Box::pin(node_killed()),
        ),
        (
            "a_worker_killed_under_load_loses_no_call_and_repeats_no_side_effect",
            || Box::pin(worker_killed()),
        ),
    ];
    harness::main(&tests, services);
}

/// What a worker's tool reaches, and which worker it is.
struct Outside {
    counter: String,
    port: String,
    http: reqwest::Client,
}

/// Pay; the payment API is told the call's key.
#[tool(idempotent)]
async fn pay(ctx: &ToolContext<Outside>, cents: u64) -> ToolResult {
    let outside = ctx.state();
    let key = ctx.call_id().unwrap_or_default();
    let sent = outside
        .http
        .post(format!("{}/effect/{key}", outside.counter))
        .send()
        .await
        .and_then(reqwest::Response::error_for_status);
    match sent {
        Ok(_) => ToolResult::text(format!("paid {cents} cents (worker {})", outside.port)),
        Err(error) => ToolResult::error(format!("the payment failed: {error}")),
    }
}

/// The worker's service: the tool, reaching the counter.
fn services(port: &str, counter: &str) -> Vec<ServiceDefinition> {
    let outside = Arc::new(Outside {
        counter: counter.to_owned(),
        port: port.to_owned(),
        http: reqwest::Client::new(),
    });
    let service = RestateService::new(ToolRegistry::new().with(Pay), move |_| {
        ToolContext::from_arc(Arc::clone(&outside))
    });
    vec![service.definition().expect("a service")]
}

async fn node_killed() {
    let mut cluster = Cluster::start("cluster-node", 3).await;
    let counter = Counter::start(|_| {});
    let worker = Worker::started(counter.url());
    cluster.register(&worker.uri()).await;
    // Not counted: its own key, outside the load's.
    cluster
        .wait_serving("Tools/pay", &json!({"cents": 0}))
        .await;
    let warm = counter.hits().len();

    let ingresses = cluster.ingresses();
    let run = tokio::spawn(async move {
        load::run(
            &ingresses,
            "Tools/pay",
            "node",
            CALLS,
            CONCURRENT,
            |i| json!({ "cents": i }),
        )
        .await
    });
    counter.wait_for(warm + CALLS / 4, |_| true).await;
    cluster.kill(1);
    let load = run.await.expect("the load");
    load.report("one of three nodes killed", "calls");
    let (again, _) = check(&load, &counter, warm);
    println!("keys reached twice: {}", again.len());
    // The worker lived, but a call's attempt is driven by the node that
    // leads its partition: one in flight there when it died may have
    // reached the outside world before its result was journaled, and is
    // run again by the node that leads next.
    once_by_key(&again);
}

/// A call run again (its attempt lost before its result was journaled)
/// reaches the outside world with the same key, which the outside world
/// (as a payment API does with an idempotency key) acts on once; only
/// calls in flight can be run again, and once each.
fn once_by_key(again: &BTreeMap<String, usize>) {
    assert!(again.len() <= CONCURRENT, "run again: {again:?}");
    assert!(again.values().all(|count| *count == 2), "{again:?}");
}

/// Checks that every call ended with its result and each call's key
/// reached the outside world (beside the `warm` keys of the calls made
/// before the load); gives the keys it reached more than once, and each
/// worker's share of the calls.
fn check(
    load: &Load,
    counter: &Counter,
    warm: usize,
) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let all = counter.hits();
    assert_eq!(all.len(), CALLS + warm, "keys: {}", all.len());
    let mut workers: BTreeMap<String, usize> = BTreeMap::new();
    for (i, (status, body)) in load.answers.iter().enumerate() {
        assert_eq!(*status, 200, "call {i}: {}", String::from_utf8_lossy(body));
        let result: ToolResult = serde_json::from_slice(body).expect("a result");
        let text = result.model_text();
        let worker = text
            .strip_prefix(&format!("paid {i} cents (worker "))
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("call {i} answered {text}"));
        *workers.entry(worker.to_owned()).or_default() += 1;
    }
    let again = all.into_iter().filter(|(_, count)| *count > 1).collect();
    (again, workers)
}

async fn worker_killed() {
    let cluster = Cluster::start("cluster-worker", 3).await;
    let counter = Counter::start(|_| {});
    let workers: Vec<Worker> = (0..3).map(|_| Worker::started(counter.url())).collect();
    let proxy = Proxy::start(workers.iter().map(Worker::port).collect()).await;
    cluster.register(&proxy.uri()).await;
    cluster
        .wait_serving("Tools/pay", &json!({"cents": 0}))
        .await;
    let warm = counter.hits().len();

    let ingresses = cluster.ingresses();
    let run = tokio::spawn(async move {
        load::run(
            &ingresses,
            "Tools/pay",
            "worker",
            CALLS,
            CONCURRENT,
            |i| json!({ "cents": i }),
        )
        .await
    });
    counter.wait_for(warm + CALLS / 4, |_| true).await;
    workers[1].kill();
    let load = run.await.expect("the load");
    load.report("one of three workers killed", "calls");
    let (again, served) = check(&load, &counter, warm);
    println!(
        "calls answered per worker: {served:?}; connections per worker: {:?}; keys reached twice: {}",
        proxy.connections(),
        again.len()
    );
    // A call in flight on the killed worker is run again on another.
    once_by_key(&again);
    // Restate opens several connections to the one address, which the
    // proxy spreads: the workers share the calls.
    assert!(
        served.len() > 1,
        "one worker answered every call: {served:?}"
    );
}
