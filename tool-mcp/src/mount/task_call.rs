//! A call of a remote tool that runs as a task (MCP 2025-11-25's
//! `params.task`): asked for, waited for with `tasks/result`, its status
//! messages relayed as progress to whoever hears the call's, and cancelled
//! with `tasks/cancel` when the call is dropped (cancelled, out of time).
//!
//! rmcp's client has no model of these requests: they go as custom
//! requests, and their answers are read as JSON.

use std::time::Duration;

use rmcp::model::{ClientRequest, CustomRequest, ServerResult};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::{Value, json};
use tool_core::ToolContext;

use super::unfinished::{GiveUp, Unfinished};

/// How long the server is asked to keep a task: as long as a registry
/// keeps a pending call by default.
const TASK_TTL_MS: u64 = 10 * 60 * 1000;

/// The bounds on how often a task's status is read, whatever interval
/// the server suggests.
pub(super) const POLL_BOUNDS: (Duration, Duration) =
    (Duration::from_millis(100), Duration::from_secs(10));

/// What became of a call as a task: the server's answer to `tasks/result`
/// (or to the call itself, when the server ran it at once), or why there
/// is none.
pub(super) async fn call_as_task<Ctx>(
    peer: &Peer<RoleClient>,
    ctx: &ToolContext<Ctx>,
    tool: &str,
    arguments: Value,
) -> Result<ServerResult, ServiceError> {
    let params = json!({"name": tool, "arguments": arguments, "task": {"ttl": TASK_TTL_MS}});
    let created = request(peer, "tools/call", params).await?;
    let Some(task) = created_task(&created) else {
        // A server may run a call at once instead; its answer is the result.
        return Ok(created);
    };
    let Some(id) = task
        .get("taskId")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return Ok(created);
    };
    let poll = task
        .get("pollInterval")
        .and_then(Value::as_u64)
        .map_or(Duration::from_secs(1), Duration::from_millis)
        .clamp(POLL_BOUNDS.0, POLL_BOUNDS.1);
    let unfinished = Unfinished::new(peer, GiveUp::Task(id.clone()));
    let result = request(peer, "tasks/result", json!({"taskId": id}));
    let answered = if ctx.progress_heard() {
        relay_status(peer, ctx, &id, poll, result).await
    } else {
        result.await
    };
    unfinished.done();
    answered
}

/// The task in a server's answer to a call made as a task, if it is one.
fn created_task(answer: &ServerResult) -> Option<Value> {
    let mut answer = serde_json::to_value(answer).ok()?;
    answer.get_mut("task").map(Value::take)
}

/// Waits for `result`, reading the task's status every `poll` meanwhile
/// and reporting each new status message to `ctx` as progress.
async fn relay_status<Ctx>(
    peer: &Peer<RoleClient>,
    ctx: &ToolContext<Ctx>,
    id: &str,
    poll: Duration,
    result: impl Future<Output = Result<ServerResult, ServiceError>>,
) -> Result<ServerResult, ServiceError> {
    let mut result = std::pin::pin!(result);
    let mut last: Option<String> = None;
    let mut reports = 0_u32;
    loop {
        tokio::select! {
            answered = &mut result => return answered,
            () = tokio::time::sleep(poll) => {}
        }
        let Ok(status) = request(peer, "tasks/get", json!({"taskId": id})).await else {
            continue;
        };
        let message = serde_json::to_value(&status).ok().and_then(|status| {
            status
                .get("statusMessage")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        if let Some(message) = message
            && last.as_deref() != Some(message.as_str())
        {
            reports += 1;
            ctx.progress(f64::from(reports), None, message.as_str());
            last = Some(message);
        }
    }
}

/// A request rmcp's model does not have, sent as a custom one.
async fn request(
    peer: &Peer<RoleClient>,
    method: &str,
    params: Value,
) -> Result<ServerResult, ServiceError> {
    let request = ClientRequest::CustomRequest(CustomRequest::new(method.to_owned(), Some(params)));
    peer.send_request(request).await
}
