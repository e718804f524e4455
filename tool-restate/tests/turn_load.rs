//! Turns under load (1,000 turns, 8 at a time), each a run of the turn's
//! workflow over a model response of three calls: an idempotent tool
//! whose side effect reaches the outside world by the call's key, a
//! read-only one, and one that must not run twice, whose side effect is
//! counted too. Three worker processes sit behind one address (Restate
//! does not spread one service's calls over deployments), and each turn
//! is started and waited for by its key, from a client that sends it
//! again through another node when its connection fails.
//!
//! - One worker killed (SIGKILL) mid-load, on one node: every turn ends
//!   with its exact reply, each idempotent side effect is done once by
//!   its key (a call cut short reaches the outside again with the same
//!   key), and a call that must not run twice ran once or ended as lost,
//!   never twice.
//! - One node of a three-node cluster killed mid-load: the same, and no
//!   turn is lost.
//!
//! The workers are processes of their own: this test's binary, started
//! again with `TOOL_RESTATE_TEST_WORKER` set (`support::harness`).

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;

use restate_sdk::service::ServiceDefinition;
use serde_json::{Value, json};
use tool_core::provider::Turn;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::TurnWorkflow;

use support::cluster::Cluster;
use support::counter::Counter;
use support::harness::{self, Test};
use support::load::{self, Load};
use support::proxy::Proxy;
use support::server::Server;
use support::worker::Worker;

const TURNS: usize = 1000;
const CONCURRENT: usize = 8;
/// What a call of `send_email` ends with when its worker died mid-call.
const LOST: &str =
    "the result of tool `send_email` (call `toolu_3`) was lost: the worker running it stopped";

fn main() {
    let tests: [(&str, Test); 2] = [
        (
            "a_worker_killed_under_load_ends_every_turn_and_repeats_no_side_effect",
            || Box::pin(worker_killed()),
        ),
        (
            "a_node_killed_under_load_loses_no_turn_and_repeats_no_side_effect",
            || Box::pin(node_killed()),
        ),
    ];
    harness::main(&tests, services);
}

/// What the worker's tools reach.
struct Outside {
    counter: String,
    http: reqwest::Client,
}

impl Outside {
    /// Tells the counter of `what` for `whom`, keyed by the call's id.
    async fn hit(
        &self,
        ctx: &ToolContext<Outside>,
        what: &str,
        whom: &str,
    ) -> Result<(), reqwest::Error> {
        let key = ctx.call_id().unwrap_or_default();
        self.http
            .post(format!("{}/effect/{what}.{whom}.{key}", self.counter))
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }
}

/// Reserve an item.
#[tool(idempotent)]
async fn reserve(ctx: &ToolContext<Outside>, item: String) -> ToolResult {
    match ctx.state().hit(ctx, "reserve", &item).await {
        Ok(()) => ToolResult::text(format!("reserved {item}")),
        Err(error) => ToolResult::error(format!("the outside failed: {error}")),
    }
}

/// An item's price.
#[tool(read_only)]
fn price(item: String, cents: u64) -> String {
    format!("{item} costs {cents} cents")
}

/// Send an email: sent twice, it is read twice.
#[tool]
async fn send_email(ctx: &ToolContext<Outside>, to: String) -> ToolResult {
    match ctx.state().hit(ctx, "email", &to).await {
        Ok(()) => ToolResult::text(format!("mailed {to}")),
        Err(error) => ToolResult::error(format!("the outside failed: {error}")),
    }
}

/// The worker's service: the turn's workflow, its tools reaching the
/// counter.
fn services(_port: &str, counter: &str) -> Vec<ServiceDefinition> {
    let outside = Arc::new(Outside {
        counter: counter.to_owned(),
        http: reqwest::Client::new(),
    });
    let registry = ToolRegistry::new()
        .with(Reserve)
        .with(Price)
        .with(SendEmail);
    let turns = TurnWorkflow::new(registry, move |_| {
        ToolContext::from_arc(Arc::clone(&outside))
    });
    vec![turns.definition().expect("a workflow")]
}

/// The run of turn `i`: an Anthropic response of its three calls.
fn turn(i: usize) -> Value {
    let calls = [
        ("toolu_1", "reserve", json!({"item": format!("item-{i}")})),
        (
            "toolu_2",
            "price",
            json!({"item": format!("item-{i}"), "cents": i}),
        ),
        ("toolu_3", "send_email", json!({"to": format!("user-{i}")})),
    ];
    let content: Vec<Value> = calls
        .iter()
        .map(
            |(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input}),
        )
        .collect();
    json!({
        "provider": "anthropic",
        "response": {"role": "assistant", "content": content}
    })
}

/// The reply turn `i` ends with when its email was sent: one user message
/// of the three results.
fn reply(i: usize) -> Vec<Value> {
    let results = [
        ("toolu_1", format!("reserved item-{i}")),
        ("toolu_2", format!("item-{i} costs {i} cents")),
        ("toolu_3", format!("mailed user-{i}")),
    ];
    let content: Vec<Value> = results
        .iter()
        .map(|(id, text)| json!({"type": "tool_result", "tool_use_id": id, "content": text}))
        .collect();
    vec![json!({"role": "user", "content": content})]
}

/// The counter's keys of `what` for `whom`, with their counts.
fn hits_of<'a>(
    hits: &'a BTreeMap<String, usize>,
    what: &str,
    whom: &str,
) -> Vec<(&'a String, usize)> {
    let prefix = format!("{what}.{whom}.");
    hits.iter()
        .filter(|(key, _)| key.starts_with(&prefix))
        .map(|(key, count)| (key, *count))
        .collect()
}

/// Whether `key` is the counter's key of a reservation of the load's
/// items (those of items `0..TURNS`).
fn reserved(key: &str) -> bool {
    key.strip_prefix("reserve.item-")
        .and_then(|rest| rest.split('.').next()?.parse::<usize>().ok())
        .is_some_and(|item| item < TURNS)
}

/// What the load's turns did, beside what [`check`] asserts.
struct Checked {
    /// Turns whose email ended as lost.
    lost: Vec<usize>,
    /// Reservations that reached the outside twice (with one key).
    again: usize,
}

/// Checks that every turn ended with its exact reply, each reservation
/// reached the outside world under one key per turn (twice at most, for
/// a call in flight when a process died), and each email once, or not at
/// all when its call ended as lost: never twice.
fn check(load: &Load, counter: &Counter) -> Checked {
    let hits = counter.hits();
    let (mut lost, mut again) = (Vec::new(), 0);
    for (i, (status, body)) in load.answers.iter().enumerate() {
        assert_eq!(*status, 200, "turn {i}: {}", String::from_utf8_lossy(body));
        let turn: Turn = serde_json::from_slice(body)
            .unwrap_or_else(|error| panic!("turn {i}: {error}: {}", String::from_utf8_lossy(body)));
        let emails = hits_of(&hits, "email", &format!("user-{i}"));
        let email = turn.results()[2].model_text();
        if email.starts_with(LOST) {
            assert_eq!(
                turn.reply()[0]["content"]
                    .as_array()
                    .map(|c| c[..2].to_vec()),
                reply(i)[0]["content"].as_array().map(|c| c[..2].to_vec()),
                "turn {i}"
            );
            assert!(
                emails.len() <= 1 && emails.iter().all(|(_, count)| *count == 1),
                "turn {i} lost its email: {emails:?}"
            );
            lost.push(i);
        } else {
            assert_eq!(turn.reply(), reply(i), "turn {i}");
            assert_eq!(emails.len(), 1, "turn {i}: {emails:?}");
            assert_eq!(emails[0].1, 1, "turn {i} mailed twice: {emails:?}");
        }
        let reserved = hits_of(&hits, "reserve", &format!("item-{i}"));
        assert_eq!(reserved.len(), 1, "turn {i}: {reserved:?}");
        assert!(reserved[0].1 <= 2, "turn {i}: {reserved:?}");
        if reserved[0].1 == 2 {
            again += 1;
        }
    }
    // Only the calls in flight when a process died can reach the outside
    // again (with their key) or end as lost.
    assert!(again <= CONCURRENT, "reserved again: {again}");
    assert!(lost.len() <= CONCURRENT, "lost: {lost:?}");
    Checked { lost, again }
}

/// Three workers behind one proxy, registered at `register`.
async fn workers(counter: &Counter) -> (Vec<Worker>, Proxy) {
    let workers: Vec<Worker> = (0..3).map(|_| Worker::started(counter.url())).collect();
    let proxy = Proxy::start(workers.iter().map(Worker::port).collect()).await;
    (workers, proxy)
}

async fn worker_killed() {
    let server = Server::start("turns-worker").await;
    let counter = Counter::start(|_| {});
    let (workers, proxy) = workers(&counter).await;
    server.register(&proxy.uri()).await;

    let ingresses = vec![server.ingress().to_owned()];
    let run = tokio::spawn(async move {
        load::run_turns(&ingresses, "Turn", "worker", TURNS, CONCURRENT, turn).await
    });
    counter.wait_for(TURNS / 4, reserved).await;
    assert!(workers[1].kill(), "the worker had died");
    let load = run.await.expect("the load");
    load.report("one of three workers killed", "turns");
    let checked = check(&load, &counter);
    let connections = proxy.connections();
    println!(
        "connections per worker: {connections:?}; reserved again: {}; emails lost: {:?}",
        checked.again, checked.lost
    );
    // Restate opens several connections to the one address, which the
    // proxy spreads: the workers share the turns.
    assert!(
        connections.iter().filter(|count| **count > 0).count() > 1,
        "one worker had every connection: {connections:?}"
    );
}

async fn node_killed() {
    let mut cluster = Cluster::start("turns-node", 3).await;
    let counter = Counter::start(|_| {});
    let (_workers, proxy) = workers(&counter).await;
    cluster.register(&proxy.uri()).await;
    // A turn of its own through each node, each attempt keyed anew (a
    // workflow's key runs once), of an item not the load's.
    cluster
        .wait_serving_each(|n| (format!("Turn/warm-{n}/run"), turn(TURNS + n)))
        .await;
    let ingresses = cluster.ingresses();

    let run = tokio::spawn(async move {
        load::run_turns(&ingresses, "Turn", "node", TURNS, CONCURRENT, turn).await
    });
    counter.wait_for(TURNS / 4, reserved).await;
    cluster.kill(1);
    let load = run.await.expect("the load");
    load.report("one of three nodes killed", "turns");
    let checked = check(&load, &counter);
    println!(
        "reserved again: {}; emails lost: {:?}",
        checked.again, checked.lost
    );
}
