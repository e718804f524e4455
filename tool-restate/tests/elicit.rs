//! A tool that asks the person a question (`ctx.elicit`) inside a turn,
//! against a real `restate-server`, with the worker a process of its own
//! (this test's binary, started again with `TOOL_RESTATE_TEST_WORKER`
//! set): the question is listed by the workflow's `questions` handler, the
//! worker is killed and Restate restarted while the turn waits, a plain
//! HTTP client answers
//! through the `answer` handler, and the turn finishes with the reply
//! built from the answer.

mod support;

use std::time::{Duration, Instant};

use restate_sdk::service::ServiceDefinition;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::provider::Turn;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_restate::TurnWorkflow;

use support::harness::{self, Test};
use support::server::Server;
use support::worker::Worker;

fn main() {
    let tests: [(&str, Test); 1] = [(
        "an_answer_given_after_every_process_restarted_finishes_the_turn",
        || Box::pin(answered_after_restarts()),
    )];
    harness::main(&tests, services);
}

/// How many guests.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Party {
    /// How many.
    guests: u8,
}

/// Whether to sit outside.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Terrace {
    /// Outside.
    outside: bool,
}

/// Book a table, asking the guest for how many, then where.
#[tool(asks, idempotent)]
async fn book_table(ctx: &ToolContext, day: String) -> Result<String, ElicitError> {
    let Elicitation::Accept(party) = ctx
        .elicit::<Party>(format!("For how many, on {day}?"))
        .await?
    else {
        return Ok("no table".to_owned());
    };
    let place = match ctx
        .elicit::<Terrace>("On the terrace?")
        .key("terrace")
        .await?
    {
        Elicitation::Accept(Terrace { outside: true }) => "outside",
        _ => "inside",
    };
    Ok(format!("a table for {} on {day}, {place}", party.guests))
}

/// Notify someone.
#[tool(idempotent)]
fn notify(to: String) -> String {
    format!("told {to}")
}

/// The worker's services: the turn's workflow.
fn services(_port: &str, _reach: &str) -> Vec<ServiceDefinition> {
    let registry = ToolRegistry::new().with(BookTable).with(Notify);
    let turns = TurnWorkflow::new(registry, |_| ToolContext::new(()));
    vec![turns.definition().expect("a workflow")]
}

/// Calls the turn's handler `handler` with `body`: its status and body.
async fn call(server: &Server, handler: &str, body: Value) -> (u16, Value) {
    let reply = server
        .http()
        .post(format!("{}/Turn/dinner-1/{handler}", server.ingress()))
        .json(&body)
        .timeout(Duration::from_secs(60))
        .send()
        .await
        .expect("the ingress answers");
    let status = reply.status().as_u16();
    (status, reply.json().await.unwrap_or(Value::Null))
}

/// Answers through the turn's `answer` handler from a process of its
/// own, a plain HTTP client: its status and body.
async fn answer_elsewhere(server: &Server, body: Value) -> (u16, Value) {
    let url = format!("{}/Turn/dinner-1/answer", server.ingress());
    let (status, body) = harness::post_from_another_process(&url, &body).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Waits until the turn lists a question: the first listed.
async fn question(server: &Server) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, open) = call(server, "questions", json!({})).await;
        assert_eq!(status, 200, "{open}");
        if let Some(first) = open.get(0) {
            return first.clone();
        }
        assert!(Instant::now() < deadline, "no question in 60 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn answered_after_restarts() {
    let mut server = Server::start("elicit").await;
    let worker = Worker::started("-");
    server.register(&worker.uri()).await;

    let response = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "book_table", "input": {"day": "friday"}},
        {"type": "tool_use", "id": "toolu_2", "name": "notify", "input": {"to": "ada"}},
    ]});
    let reply = server
        .http()
        .post(format!("{}/Turn/dinner-1/run/send", server.ingress()))
        .json(&json!({"provider": "anthropic", "response": response}))
        .send()
        .await
        .expect("the ingress answers");
    assert!(reply.status().is_success(), "{}", reply.status());

    // The first question, as the workflow lists it.
    let first = question(&server).await;
    assert_eq!(first["id"], "toolu_1#1", "{first}");
    assert_eq!(first["call"], "toolu_1");
    assert_eq!(first["tool"], "book_table");
    assert_eq!(first["message"], "For how many, on friday?");
    assert_eq!(first["schema"]["properties"]["guests"]["type"], "integer");

    // The worker killed while the turn waits, Restate stopped and started
    // again on the same data, then the worker started again.
    worker.kill();
    server.restart().await;
    worker.start("-");

    // A separate process, a plain HTTP client, answers; an answer to a call that
    // asked nothing is refused.
    let (status, refused) = answer_elsewhere(
        &server,
        json!({"call": "toolu_2", "answer": {"action": "decline"}}),
    )
    .await;
    assert_eq!(status, 404, "{refused}");
    assert_eq!(
        refused["message"],
        "no question of the call `toolu_2` waits for an answer"
    );
    let (status, body) = answer_elsewhere(
        &server,
        json!({"call": "toolu_1", "answer": {"action": "accept", "content": {"guests": 4}}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    // The tool, run again with the answer, asks its second question.
    let second = loop {
        let asked = question(&server).await;
        if asked["id"] != "toolu_1#1" {
            break asked;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(second["id"], "toolu_1#2", "{second}");
    assert_eq!(second["message"], "On the terrace?");
    assert_eq!(second["key"], "terrace");
    let (status, body) = answer_elsewhere(
        &server,
        json!({"call": "toolu_1", "answer": {"action": "accept", "content": {"outside": true}}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let reply = server
        .http()
        .get(format!(
            "{}/restate/workflow/Turn/dinner-1/attach",
            server.ingress()
        ))
        .timeout(Duration::from_secs(120))
        .send()
        .await
        .expect("the ingress answers");
    assert!(reply.status().is_success(), "{}", reply.status());
    let turn: Turn = reply.json().await.expect("a turn");
    assert_eq!(
        turn.reply(),
        vec![json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a table for 4 on friday, outside"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "told ada"},
        ]})]
    );
    let (_, open) = call(&server, "questions", json!({})).await;
    assert_eq!(open, json!([]));
}
