//! A turn as a Restate workflow, against a real `restate-server`, with the
//! worker a process of its own (this test's binary, started again with
//! `TOOL_RESTATE_TEST_WORKER` set): killed with SIGKILL mid-turn, the
//! turn finishes and each side effect is done once; a call parked for
//! approval survives every process stopped and started again, and runs
//! with the arguments a separate client edited; two conversations making
//! the same calls share nothing.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use restate_sdk::service::ServiceDefinition;
use serde_json::{Value, json};
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
use tool_core::provider::Turn;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::TurnWorkflow;

use support::counter::Counter;
use support::harness::{self, Test};
use support::server::Server;
use support::worker::Worker;

fn main() {
    let tests: [(&str, Test); 5] = [
        (
            "a_turn_killed_twice_finishes_with_each_side_effect_once",
            || Box::pin(killed_twice()),
        ),
        (
            "an_approval_survives_every_process_restarted_and_runs_edited",
            || Box::pin(approval_survives_restarts()),
        ),
        (
            "two_conversations_with_the_same_calls_share_nothing",
            || Box::pin(conversations_apart()),
        ),
        (
            "a_tool_not_idempotent_killed_mid_turn_is_not_run_again",
            || Box::pin(once_killed()),
        ),
        ("a_client_run_call_is_delivered_into_the_turn", || {
            Box::pin(delivered())
        }),
    ];
    harness::main(&tests, services);
}

/// What the worker's tools reach.
struct Outside {
    counter: String,
    http: reqwest::Client,
}

impl Outside {
    /// Tells the counter of `what`, keyed by the call's id.
    async fn hit(&self, ctx: &ToolContext<Outside>, what: &str) -> Result<(), reqwest::Error> {
        let key = ctx.call_id().unwrap_or_default();
        self.http
            .post(format!("{}/effect/{what}.{key}", self.counter))
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }
}

fn done(outcome: Result<(), reqwest::Error>, text: String) -> ToolResult {
    match outcome {
        Ok(()) => ToolResult::text(text),
        Err(error) => ToolResult::error(format!("the outside failed: {error}")),
    }
}

/// Reserve an item.
#[tool(idempotent)]
async fn reserve(ctx: &ToolContext<Outside>, item: String) -> ToolResult {
    done(
        ctx.state().hit(ctx, "reserve").await,
        format!("reserved {item}"),
    )
}

/// Charge a card: says it starts, then charges.
#[tool(idempotent)]
async fn charge(ctx: &ToolContext<Outside>, cents: u64) -> ToolResult {
    if let Err(error) = ctx.state().hit(ctx, "start").await {
        return ToolResult::error(format!("the outside failed: {error}"));
    }
    done(
        ctx.state().hit(ctx, "charge").await,
        format!("charged {cents} cents"),
    )
}

/// Notify someone.
#[tool(idempotent)]
async fn notify(ctx: &ToolContext<Outside>, to: String) -> ToolResult {
    done(ctx.state().hit(ctx, "notify").await, format!("told {to}"))
}

/// Send an email: sent twice, it is read twice.
#[tool]
async fn send_email(ctx: &ToolContext<Outside>, to: String) -> ToolResult {
    done(ctx.state().hit(ctx, "email").await, format!("mailed {to}"))
}

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
fn pick_file() -> ToolResult {
    ToolResult::deferred()
}

/// Send money, once a person approves.
#[tool(tier = Confirm)]
async fn transfer(ctx: &ToolContext<Outside>, to: String, cents: u64) -> ToolResult {
    done(
        ctx.state().hit(ctx, "transfer").await,
        format!("sent {cents} cents to {to}"),
    )
}

/// The call's own key, as the tool reads it.
#[tool(read_only)]
fn whoami(ctx: &ToolContext<Outside>) -> String {
    ctx.call_id().unwrap_or_default().to_owned()
}

/// Leaves every decision to a person.
struct AskLater;

impl ApprovalHook<Outside> for AskLater {
    async fn approve(&self, _: &ApprovalRequest<'_, Outside>) -> Approval {
        Approval::Park
    }
}

/// The worker's service: the turn's workflow, its tools reaching the
/// counter.
fn services(_port: &str, counter: &str) -> Vec<ServiceDefinition> {
    let outside = Arc::new(Outside {
        counter: counter.to_owned(),
        http: reqwest::Client::new(),
    });
    let registry = ToolRegistry::builder()
        .with(Reserve)
        .with(Charge)
        .with(Notify)
        .with(Transfer)
        .with(Whoami)
        .with(SendEmail)
        .with(PickFile)
        .approval(AskLater)
        .build();
    let turns = TurnWorkflow::new(registry, move |_| {
        ToolContext::from_arc(Arc::clone(&outside))
    });
    vec![turns.definition().expect("a workflow")]
}

/// An Anthropic response calling `calls`: `(id, tool, input)`.
fn response(calls: &[(&str, &str, Value)]) -> Value {
    let content: Vec<Value> = calls
        .iter()
        .map(
            |(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input}),
        )
        .collect();
    json!({"role": "assistant", "content": content})
}

/// Starts the turn `key` of `response` (not waiting for it).
async fn start_turn(server: &Server, key: &str, response: Value) {
    let reply = server
        .http()
        .post(format!("{}/Turn/{key}/run/send", server.ingress()))
        .json(&json!({"provider": "anthropic", "response": response}))
        .send()
        .await
        .expect("the ingress answers");
    assert!(reply.status().is_success(), "{}", reply.status());
}

/// Waits for the turn `key` to end: the turn.
async fn attach(server: &Server, key: &str) -> Turn {
    let reply = server
        .http()
        .get(format!(
            "{}/restate/workflow/Turn/{key}/attach",
            server.ingress()
        ))
        .timeout(Duration::from_secs(120))
        .send()
        .await
        .expect("the ingress answers");
    let status = reply.status();
    let body = reply.bytes().await.expect("a body");
    assert!(
        status.is_success(),
        "{status} {}",
        String::from_utf8_lossy(&body)
    );
    serde_json::from_slice(&body).expect("a turn")
}

/// The reply an Anthropic turn gives: one user message of results.
fn tool_results(results: &[(&str, &str)]) -> Vec<Value> {
    let content: Vec<Value> = results
        .iter()
        .map(|(id, text)| json!({"type": "tool_result", "tool_use_id": id, "content": text}))
        .collect();
    vec![json!({"role": "user", "content": content})]
}

/// The counter's hits whose key starts with `what.`: key to count.
fn hits_of(counter: &Counter, what: &str) -> Vec<(String, usize)> {
    let prefix = format!("{what}.");
    counter
        .hits()
        .into_iter()
        .filter(|(key, _)| key.starts_with(&prefix))
        .collect()
}

async fn killed_twice() {
    let server = Server::start("turn-killed").await;
    let worker = Worker::new();
    // The worker is killed when the second tool starts (the first's step
    // recorded), and again right after the second's side effect.
    let kills = Arc::new(AtomicUsize::new(0));
    let counter = Counter::start({
        let killer = worker.killer();
        let kills = Arc::clone(&kills);
        move |key| {
            let stage = kills.load(Ordering::SeqCst);
            if (stage == 0 && key.starts_with("start."))
                || (stage == 1 && key.starts_with("charge."))
            {
                killer.kill();
                kills.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    start_turn(
        &server,
        "order-1",
        response(&[
            ("toolu_1", "reserve", json!({"item": "book"})),
            ("toolu_2", "charge", json!({"cents": 500})),
            ("toolu_3", "notify", json!({"to": "ada"})),
        ]),
    )
    .await;
    for kill in 1..=2 {
        let deadline = Instant::now() + Duration::from_secs(60);
        while kills.load(Ordering::SeqCst) < kill {
            assert!(
                Instant::now() < deadline,
                "kill {kill} did not come in 60 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        worker.start(counter.url());
    }
    let turn = attach(&server, "order-1").await;
    assert_eq!(
        turn.reply(),
        tool_results(&[
            ("toolu_1", "reserved book"),
            ("toolu_2", "charged 500 cents"),
            ("toolu_3", "told ada"),
        ])
    );
    // The first tool ran once: its step was recorded before the first
    // kill, and replayed after it.
    let reserve = hits_of(&counter, "reserve");
    assert_eq!(reserve.len(), 1, "{reserve:?}");
    assert_eq!(reserve[0].1, 1, "{reserve:?}");
    // The second ran on three attempts (killed as it started, killed
    // after its side effect), each with the same key: one charge.
    let start = hits_of(&counter, "start");
    let charge = hits_of(&counter, "charge");
    assert_eq!(start.len(), 1, "{start:?}");
    assert_eq!(charge.len(), 1, "{charge:?}");
    assert_eq!(start[0].0["start.".len()..], charge[0].0["charge.".len()..]);
    assert_eq!(charge[0].1, 2, "{charge:?}");
    assert_eq!(hits_of(&counter, "notify").len(), 1);
}

async fn approval_survives_restarts() {
    let mut server = Server::start("turn-approval").await;
    let worker = Worker::new();
    let counter = Counter::start(|_| {});
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    start_turn(
        &server,
        "pay-1",
        response(&[
            ("toolu_1", "reserve", json!({"item": "lamp"})),
            ("toolu_2", "transfer", json!({"to": "ada", "cents": 5000})),
            ("toolu_3", "notify", json!({"to": "ada"})),
        ]),
    )
    .await;
    // Parked: the first call done, the transfer waiting.
    let deadline = Instant::now() + Duration::from_secs(60);
    while hits_of(&counter, "reserve").is_empty() {
        assert!(Instant::now() < deadline, "the turn did not start in 60 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Every process stopped, then started again on the same data.
    worker.kill();
    server.restart().await;
    worker.start(counter.url());

    // A separate process, a plain HTTP client: a smaller amount, approved.
    let (status, body) = harness::post_from_another_process(
        &format!("{}/Turn/pay-1/approve", server.ingress()),
        &json!({"call": "toolu_2", "approve": true, "arguments": {"to": "ada", "cents": 500}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let turn = attach(&server, "pay-1").await;
    assert_eq!(
        turn.reply(),
        tool_results(&[
            ("toolu_1", "reserved lamp"),
            ("toolu_2", "sent 500 cents to ada"),
            ("toolu_3", "told ada"),
        ])
    );
    assert_eq!(hits_of(&counter, "transfer").len(), 1);
    assert_eq!(hits_of(&counter, "reserve")[0].1, 1);
}

async fn conversations_apart() {
    let server = Server::start("turn-apart").await;
    let worker = Worker::new();
    let counter = Counter::start(|_| {});
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    let calls = [
        ("toolu_1", "whoami", json!({})),
        ("toolu_2", "whoami", json!({})),
        ("toolu_3", "reserve", json!({"item": "book"})),
    ];
    start_turn(&server, "conversation-a", response(&calls)).await;
    start_turn(&server, "conversation-b", response(&calls)).await;
    let a = attach(&server, "conversation-a").await;
    let b = attach(&server, "conversation-b").await;
    let keys = |turn: &Turn| -> Vec<String> {
        turn.results()[..2]
            .iter()
            .map(|result| result.model_text().into_owned())
            .collect()
    };
    let (a_keys, b_keys) = (keys(&a), keys(&b));
    // Each call its own key, never the other conversation's.
    assert_ne!(a_keys[0], a_keys[1]);
    for key in &a_keys {
        assert!(
            !key.is_empty() && !b_keys.contains(key),
            "{a_keys:?} {b_keys:?}"
        );
    }
    assert_eq!(a.results()[2].model_text(), "reserved book");
    assert_eq!(b.results()[2].model_text(), "reserved book");
    // Each conversation's side effect done, once, under its own key.
    let reserve = hits_of(&counter, "reserve");
    assert_eq!(reserve.len(), 2, "{reserve:?}");
    assert!(reserve.iter().all(|(_, hits)| *hits == 1), "{reserve:?}");
}

async fn once_killed() {
    let server = Server::start("turn-once").await;
    let worker = Worker::new();
    let kills = Arc::new(AtomicUsize::new(0));
    let counter = Counter::start({
        let killer = worker.killer();
        let kills = Arc::clone(&kills);
        move |key| {
            if key.starts_with("email.") && kills.fetch_add(1, Ordering::SeqCst) == 0 {
                killer.kill();
            }
        }
    });
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    start_turn(
        &server,
        "mail-1",
        response(&[
            ("toolu_1", "send_email", json!({"to": "ada"})),
            ("toolu_2", "notify", json!({"to": "ada"})),
        ]),
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while kills.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "no email in 60 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    worker.start(counter.url());
    let turn = attach(&server, "mail-1").await;
    // Not sent again: its result says so, and the turn goes on.
    let email = turn.results()[0].model_text();
    assert!(
        email.starts_with("the result of tool `send_email` (call `toolu_1`) was lost: the worker running it stopped"),
        "{email}"
    );
    assert_eq!(turn.results()[1].model_text(), "told ada");
    let email = hits_of(&counter, "email");
    assert_eq!(email.len(), 1, "{email:?}");
    assert_eq!(email[0].1, 1, "{email:?}");
}

async fn delivered() {
    let server = Server::start("turn-deliver").await;
    let worker = Worker::new();
    let counter = Counter::start(|_| {});
    worker.start(counter.url());
    server.register(&worker.uri()).await;

    let calls = [
        ("toolu_1", "pick_file", json!({})),
        ("toolu_2", "notify", json!({"to": "ada"})),
    ];
    start_turn(&server, "files-1", response(&calls)).await;
    let reply = reqwest::Client::new()
        .post(format!("{}/Turn/files-1/deliver", server.ingress()))
        .json(&json!({"call": "toolu_1", "result": "notes.txt"}))
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .expect("the ingress answers");
    assert!(reply.status().is_success(), "{}", reply.status());
    let turn = attach(&server, "files-1").await;
    assert_eq!(
        turn.reply(),
        tool_results(&[("toolu_1", "notes.txt"), ("toolu_2", "told ada")])
    );
}
