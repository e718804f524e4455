//! A Restate invocation cancelled through the admin API
//! (`PATCH /invocations/<id>/cancel`) while its tool runs, against a real
//! `restate-server`: the tool's token is cancelled, the tool stops at
//! once, and the call's outcome says so; in a turn, the calls after it are
//! refused as tool-core refuses a cancelled caller's, and a call waiting
//! for the person's answer ends.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Notify as Bell;
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::provider::Turn;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_restate::{RestateService, TurnWorkflow};

use support::server::Server;

/// What the tools tell the test.
#[derive(Default)]
struct Seen {
    /// Rings when `wait_stop` has started.
    started: Bell,
}

/// Wait until told to stop (up to a minute), then say so.
#[tool(timeout = "120s")]
async fn wait_stop(ctx: &ToolContext<Seen>) -> String {
    ctx.state().started.notify_one();
    tokio::select! {
        () = ctx.cancellation().cancelled() => "stopped, as told".to_owned(),
        () = tokio::time::sleep(Duration::from_secs(60)) => "slept a minute".to_owned(),
    }
}

/// Whether to go on.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Go {
    /// Go on.
    on: bool,
}

/// Ask whether to go on.
#[tool(asks, idempotent)]
async fn ask_first(ctx: &ToolContext<Seen>) -> Result<String, ElicitError> {
    Ok(match ctx.elicit::<Go>("Go on?").await? {
        Elicitation::Accept(Go { on: true }) => "went on".to_owned(),
        _ => "stayed".to_owned(),
    })
}

/// Reserve an item.
#[tool(idempotent)]
fn reserve(item: String) -> String {
    format!("reserved {item}")
}

/// Notify someone.
#[tool(idempotent)]
fn notify(to: String) -> String {
    format!("told {to}")
}

/// The tools as a service and a workflow, served by a worker in this
/// process, registered with a fresh server.
async fn served(test: &str, seen: Arc<Seen>) -> Server {
    let server = Server::start(test).await;
    let registry = Arc::new(
        ToolRegistry::new()
            .with(WaitStop)
            .with(AskFirst)
            .with(Reserve)
            .with(Notify),
    );
    let context = move |_: &tool_restate::Invocation<'_>| ToolContext::from_arc(Arc::clone(&seen));
    let tools = RestateService::new(Arc::clone(&registry), context.clone());
    let turns = TurnWorkflow::new(registry, context);
    server
        .serve(vec![
            tools.definition().expect("a service"),
            turns.definition().expect("a workflow"),
        ])
        .await;
    server
}

/// Waits until `wait_stop` has started.
async fn started(seen: &Seen) {
    tokio::time::timeout(Duration::from_secs(60), seen.started.notified())
        .await
        .expect("the tool started within 60 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_stops_its_tool_and_ends_cancelled() {
    let seen = Arc::new(Seen::default());
    let server = served("cancel-call", Arc::clone(&seen)).await;

    let id = server.send("Tools/wait_stop", json!({})).await;
    started(&seen).await;
    let asked = Instant::now();
    server.cancel(&id).await;
    let (status, body) = server.attach(&id).await;
    let took = asked.elapsed();

    // The tool heard it at once (not after its minute), and the
    // invocation ended as a cancelled one does: code 409, saying what the
    // tool ended with.
    assert!(took < Duration::from_secs(10), "took {took:?}");
    let message = "the call to tool `wait_stop` was cancelled while it ran: its Restate \
                   invocation was cancelled, and the tool was told to stop; it ended with: \
                   stopped, as told";
    assert_eq!(status, 409, "{body}");
    let body: Value = serde_json::from_str(&body).expect("a JSON failure");
    assert_eq!(body["message"], message, "{body}");
    let row = server.invocation(&id).await;
    assert_eq!(row["status"], "completed", "{row}");
    assert_eq!(
        row["completion_failure"],
        format!("[409] {message}"),
        "{row}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_turn_stops_its_running_tool_and_refuses_the_rest() {
    let seen = Arc::new(Seen::default());
    let server = served("cancel-turn", Arc::clone(&seen)).await;

    // `wait_stop` is not idempotent: the call after it waits for its end.
    let response = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "reserve", "input": {"item": "book"}},
        {"type": "tool_use", "id": "toolu_2", "name": "wait_stop", "input": {}},
        {"type": "tool_use", "id": "toolu_3", "name": "notify", "input": {"to": "ada"}},
    ]});
    let id = server
        .send(
            "Turn/stop-1/run",
            json!({"provider": "anthropic", "response": response}),
        )
        .await;
    started(&seen).await;
    let asked = Instant::now();
    server.cancel(&id).await;
    let (status, body) = server.attach(&id).await;
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(status, 200, "{body}");

    // The turn ends, for the model to read what came of each call: the
    // first done, the second stopped, the third never started.
    let turn: Turn = serde_json::from_str(&body).expect("a turn");
    let texts: Vec<String> = turn
        .results()
        .iter()
        .map(|result| result.model_text().into_owned())
        .collect();
    assert_eq!(
        texts,
        [
            "reserved book",
            "the call to tool `wait_stop` was cancelled while it ran: its Restate invocation \
             was cancelled, and the tool was told to stop; it ended with: stopped, as told",
            "the call to tool `notify` was cancelled before it started; the tool did not run",
        ]
    );
    assert!(!turn.results()[0].is_error());
    assert!(turn.results()[1].is_error());
    assert!(turn.results()[2].is_error());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_cancelled_while_a_question_waits_ends_that_call_and_the_rest() {
    let seen = Arc::new(Seen::default());
    let server = served("cancel-asking", seen).await;

    let response = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "ask_first", "input": {}},
        {"type": "tool_use", "id": "toolu_2", "name": "notify", "input": {"to": "ada"}},
    ]});
    let id = server
        .send(
            "Turn/ask-1/run",
            json!({"provider": "anthropic", "response": response}),
        )
        .await;
    // Waits until the question is listed.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let open: Value = server
            .http()
            .post(format!("{}/Turn/ask-1/questions", server.ingress()))
            .json(&json!({}))
            .send()
            .await
            .expect("the ingress answers")
            .json()
            .await
            .expect("the questions");
        if open.get(0).is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "no question in 60 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.cancel(&id).await;
    let (status, body) = server.attach(&id).await;
    assert_eq!(status, 200, "{body}");
    let turn: Turn = serde_json::from_str(&body).expect("a turn");
    let texts: Vec<String> = turn
        .results()
        .iter()
        .map(|result| result.model_text().into_owned())
        .collect();
    assert_eq!(
        texts,
        [
            "the call to tool `ask_first` was cancelled before it ended: its Restate \
             invocation was cancelled while the call waited",
            "the call to tool `notify` was cancelled before it started; the tool did not run",
        ]
    );
}
