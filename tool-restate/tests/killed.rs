//! A worker killed with SIGKILL in the middle of a tool's call, right
//! after the tool's side effect reached the outside world and before the
//! tool heard back, then started again: an idempotent tool is run again
//! with the same key, so the side effect is done once; any other is not
//! run again, and its invocation ends as failed.
//!
//! The worker is a process of its own: this test's binary, started again
//! with `TOOL_RESTATE_TEST_WORKER` set (so it runs without libtest's
//! harness, and `main` decides which it is).

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use restate_sdk::service::ServiceDefinition;
use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::RestateService;

use support::counter::Counter;
use support::harness::{self, Test};
use support::server::Server;
use support::worker::Worker;

fn main() {
    let tests: [(&str, Test); 2] = [
        (
            "an_idempotent_tool_killed_after_its_side_effect_does_it_once",
            || Box::pin(idempotent_tool_killed()),
        ),
        (
            "a_tool_not_idempotent_killed_mid_call_is_not_run_again",
            || Box::pin(other_tool_killed()),
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
    /// Does the side effect, keyed by the call's id.
    async fn effect(&self, key: &str) -> Result<(), reqwest::Error> {
        self.http
            .post(format!("{}/effect/{key}", self.counter))
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }
}

/// Pay; the payment API is told the call's key.
#[tool(idempotent)]
async fn pay(ctx: &ToolContext<Outside>, cents: u64) -> ToolResult {
    match ctx.state().effect(ctx.call_id().unwrap_or_default()).await {
        Ok(()) => ToolResult::text(format!("paid {cents} cents")),
        Err(error) => ToolResult::error(format!("the payment failed: {error}")),
    }
}

/// Send an email: sent twice, it is read twice.
#[tool]
async fn send_email(ctx: &ToolContext<Outside>, to: String) -> ToolResult {
    match ctx.state().effect(ctx.call_id().unwrap_or_default()).await {
        Ok(()) => ToolResult::text(format!("sent to {to}")),
        Err(error) => ToolResult::error(format!("the email failed: {error}")),
    }
}

/// The worker's service: the tools, reaching the counter.
fn services(_port: &str, counter: &str) -> Vec<ServiceDefinition> {
    let outside = Arc::new(Outside {
        counter: counter.to_owned(),
        http: reqwest::Client::new(),
    });
    let registry = ToolRegistry::new().with(Pay).with(SendEmail);
    let service = RestateService::new(registry, move |_| {
        ToolContext::from_arc(Arc::clone(&outside))
    });
    vec![service.definition().expect("a service")]
}

/// A counter that kills `worker` (SIGKILL) at its first request, before
/// answering it; `killed` says when it did.
fn killing_counter(worker: &Worker, killed: &Arc<AtomicBool>) -> Counter {
    let killer = worker.killer();
    let killed = Arc::clone(killed);
    Counter::start(move |_| {
        if !killed.load(Ordering::SeqCst) && killer.kill() {
            killed.store(true, Ordering::SeqCst);
        }
    })
}

/// Waits until the counter killed the worker.
async fn wait_killed(killed: &AtomicBool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !killed.load(Ordering::SeqCst) {
        assert!(Instant::now() < deadline, "no side effect in 30 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn idempotent_tool_killed() {
    let server = Server::start("killed-idempotent").await;
    let worker = Worker::new();
    let killed = Arc::default();
    let counter = killing_counter(&worker, &killed);
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    let id = server.send("Tools/pay", json!({"cents": 500})).await;
    wait_killed(&killed).await;
    worker.start(counter.url());
    let (status, body) = server.attach(&id).await;
    assert!((200..300).contains(&status), "{status} {body}");
    let result: ToolResult = serde_json::from_str(&body).expect("a result");
    assert_eq!(result.model_text(), "paid 500 cents");

    // Run twice (the first run's worker killed before it heard back),
    // with one key: the payment API charged once.
    let hits = counter.hits();
    assert_eq!(
        hits.len(),
        1,
        "the tool read another key on retry: {hits:?}"
    );
    assert_eq!(hits.values().copied().collect::<Vec<_>>(), [2], "{hits:?}");
    let row = server.invocation(&id).await;
    assert_eq!(row["status"], "completed", "{row}");
    assert_eq!(row["completion_result"], "success", "{row}");
}

async fn other_tool_killed() {
    let server = Server::start("killed-once").await;
    let worker = Worker::new();
    let killed = Arc::default();
    let counter = killing_counter(&worker, &killed);
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    let id = server
        .send("Tools/send_email", json!({"to": "ada@example.com"}))
        .await;
    wait_killed(&killed).await;
    // A worker is back: the invocation could run again, and must not.
    worker.start(counter.url());
    let (status, body) = server.attach(&id).await;
    assert!(!(200..300).contains(&status), "{status} {body}");
    let row = server.invocation(&id).await;
    assert_eq!(row["status"], "completed", "{row}");
    assert_eq!(row["completion_result"], "failure", "{row}");
    // Given the time a retry would take, still one email sent.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let hits = counter.hits();
    assert_eq!(hits.values().copied().collect::<Vec<_>>(), [1], "{hits:?}");
}
