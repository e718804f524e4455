//! An `asks_first` tool served to a 2026-07-28 client that takes tasks:
//! what it asks before it first waits on anything else is asked in the
//! call's own rounds (`input_required`, no task yet); the task begins once
//! those are answered, and what the tool asks after is the task's
//! (`tasks/get` shows it, `tasks/update` answers it).

mod support;

#[path = "support/raw.rs"]
mod raw;

use std::time::{Duration, Instant};

use raw::Raw;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::client::{ClientError, SampleRequest};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

/// Where to.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Place {
    /// The city.
    city: String,
}

/// Whether to book.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Go {
    /// Book it.
    book: bool,
}

/// Plan a trip: asks where to before it starts, and whether to book once
/// the plan is made.
#[tool(long_running, asks_first)]
async fn plan_trip(
    ctx: &ToolContext,
    /** Who travels. */
    traveller: String,
) -> Result<String, ElicitError> {
    let Elicitation::Accept(Place { city }) = ctx.elicit::<Place>("Where to?").key("city").await?
    else {
        return Ok(format!("no trip for {traveller}"));
    };
    // The plan takes a while: the task begins here.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let booked = match ctx
        .elicit::<Go>(format!("Book {city}?"))
        .key("book")
        .await?
    {
        Elicitation::Accept(Go { book: true }) => "booked",
        _ => "not booked",
    };
    Ok(format!("{city} for {traveller}: {booked}"))
}

/// Ask the client's model, once running.
#[tool(long_running, asks_first, samples)]
async fn summarize(ctx: &ToolContext) -> String {
    tokio::time::sleep(Duration::from_millis(20)).await;
    match ctx.sample(SampleRequest::new("Summarize.")).await {
        Ok(sampled) => sampled.as_text().unwrap_or_default().to_owned(),
        Err(ClientError::Unsupported { reason }) => reason,
        Err(other) => other.to_string(),
    }
}

/// A 2026-07-28 request of `method` naming `name` (its `Mcp-Name`), from
/// a client that takes elicitation, sampling and tasks.
async fn request(raw: &Raw, method: &str, name: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": {},
            "sampling": {},
            "extensions": {"io.modelcontextprotocol/tasks": {}},
        },
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
        ("mcp-name", name),
    ];
    let reply = raw.post(&headers, &body.to_string()).await;
    serde_json::from_str(&reply.body).unwrap_or_else(|_| reply.answer())
}

async fn plan(raw: &Raw, extra: Value) -> Value {
    let mut params = json!({"name": "plan_trip", "arguments": {"traveller": "Ada"}});
    if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
        params.extend(extra);
    }
    request(raw, "tools/call", "plan_trip", params).await["result"].clone()
}

/// `tasks/get` until `done` holds of the task, for at most 10 s.
async fn poll_until(raw: &Raw, task_id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let task = request(raw, "tasks/get", task_id, json!({"taskId": task_id})).await;
        let task = task["result"].clone();
        if done(&task) {
            return task;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the task never came to it: {task}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn server() -> McpServer {
    let registry = ToolRegistry::new().with(PlanTrip).with(Summarize);
    McpServer::new(registry, ToolContext::new(()))
}

#[tokio::test]
async fn the_first_question_is_the_calls_and_the_next_the_tasks() {
    let (address, stop) = support::serve_http(server()).await;
    let raw = Raw::new(address);
    let asked = plan(&raw, json!({})).await;
    assert_eq!(asked["resultType"], "input_required");
    assert!(asked.get("taskId").is_none(), "no task yet: {asked}");
    assert_eq!(
        asked["inputRequests"],
        json!({"city": {"method": "elicitation/create", "params": {
            "mode": "form",
            "message": "Where to?",
            "requestedSchema": {"type": "object", "properties": {
                "city": {"type": "string", "description": "The city."}
            }, "required": ["city"]}
        }}})
    );
    let started = plan(
        &raw,
        json!({
            "inputResponses": {"city": {"action": "accept", "content": {"city": "Lisbon"}}},
            "requestState": asked["requestState"],
        }),
    )
    .await;
    assert_eq!(started["resultType"], "task", "{started}");
    assert!(started.get("requestState").is_none());
    assert!(started.get("inputRequests").is_none());
    let task_id = started["taskId"].as_str().expect("a task id").to_owned();
    let waiting = poll_until(&raw, &task_id, |task| task["status"] == "input_required").await;
    assert_eq!(
        waiting["inputRequests"]["book"]["params"]["message"],
        "Book Lisbon?"
    );
    let updated = request(
        &raw,
        "tasks/update",
        &task_id,
        json!({
            "taskId": task_id,
            "inputResponses": {"book": {"action": "accept", "content": {"book": true}}},
        }),
    )
    .await;
    assert!(updated.get("error").is_none(), "{updated}");
    let done = poll_until(&raw, &task_id, |task| task["status"] == "completed").await;
    assert_eq!(
        done["result"]["content"],
        json!([{"type": "text", "text": "Lisbon for Ada: booked"}])
    );
    stop.cancel();
}

#[tokio::test]
async fn a_tool_that_ends_in_its_first_round_is_still_a_task() {
    let (address, stop) = support::serve_http(server()).await;
    let raw = Raw::new(address);
    let asked = plan(&raw, json!({})).await;
    let declined = plan(
        &raw,
        json!({
            "inputResponses": {"city": {"action": "decline"}},
            "requestState": asked["requestState"],
        }),
    )
    .await;
    assert_eq!(declined["resultType"], "task", "{declined}");
    let task_id = declined["taskId"].as_str().expect("a task id").to_owned();
    let done = poll_until(&raw, &task_id, |task| task["status"] == "completed").await;
    assert_eq!(
        done["result"]["content"],
        json!([{"type": "text", "text": "no trip for Ada"}])
    );
    stop.cancel();
}

#[tokio::test]
async fn a_task_asks_the_clients_model_nothing() {
    let (address, stop) = support::serve_http(server()).await;
    let raw = Raw::new(address);
    let started = request(
        &raw,
        "tools/call",
        "summarize",
        json!({"name": "summarize", "arguments": {}}),
    )
    .await;
    let task_id = started["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {started}"))
        .to_owned();
    let done = poll_until(&raw, &task_id, |task| task["status"] == "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        "the call went on as a task, and a task's client is asked only for the person's \
         answers (elicitation), not for sampling: ask before the task begins"
    );
    stop.cancel();
}
