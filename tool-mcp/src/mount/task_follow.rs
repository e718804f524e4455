//! A call the server made a task of, as 2026-07-28's tasks extension
//! says: the task read with `tasks/get` until it ends, its status messages
//! relayed as progress to whoever hears the call's, what it asks asked
//! through the call's context (`asked.rs`) and answered with
//! `tasks/update`,
//! and, should the caller give up, `tasks/cancel`.

use std::time::Duration;

use rmcp::model::{
    CallToolResult, CreateTaskResult, GetTaskParams, InputResponses, ServerResult, TaskPayload,
    UpdateTaskParams,
};
use rmcp::service::{Peer, RoleClient};
use serde_json::Value;
use tool_core::ToolContext;

use super::asked::{self, ServerAsks, Takes};
use super::task_call::POLL_BOUNDS;
use super::unfinished::{GiveUp, Unfinished};

/// Why a task ended without a result.
pub(super) enum Ended {
    /// It failed, the server said, with this message (the server's text).
    Failed(String),
    /// What the model reads.
    Said(String),
}

impl From<String> for Ended {
    fn from(said: String) -> Self {
        Ended::Said(said)
    }
}

/// The server's answer, as the call's own, once its task ends; or why it
/// did not end with one. `server` and `shown` name the server and the
/// tool as the model knows it.
pub(super) async fn follow_task<Ctx: Send + Sync>(
    peer: &Peer<RoleClient>,
    ctx: &ToolContext<Ctx>,
    (server, shown): (&str, &str),
    takes: Takes,
    created: CreateTaskResult,
) -> Result<ServerResult, Ended> {
    let id = created.task.task_id.clone();
    let mut poll = interval(created.task.poll_interval_ms);
    let unfinished = Unfinished::new(peer, GiveUp::Task(id.clone()));
    let mut last = created.task.status_message.clone();
    let mut reports = 0_u32;
    let mut answered = InputResponses::new();
    loop {
        tokio::time::sleep(poll).await;
        let got = match peer.get_task(GetTaskParams::new(id.clone())).await {
            Ok(got) => got,
            Err(error) => {
                unfinished.done();
                return Err(format!(
                    "the MCP server `{server}` could not say how its task for `{shown}` went: {error}"
                ).into());
            }
        };
        poll = interval(got.task.task.poll_interval_ms);
        if let Some(message) = &got.task.task.status_message
            && last.as_deref() != Some(message.as_str())
        {
            reports += 1;
            ctx.progress(f64::from(reports), None, message.as_str());
            last = Some(message.clone());
        }
        match got.task.payload {
            TaskPayload::Working => {}
            TaskPayload::InputRequired { input_requests } => {
                // Each question is answered once, however many times the
                // task is read before it takes the answer.
                let mut responses = InputResponses::new();
                for (key, request) in input_requests {
                    if answered.contains_key(&key) {
                        continue;
                    }
                    let Some(request) = ServerAsks::of_input(request) else {
                        unfinished.done();
                        return Err(format!(
                            "the MCP server `{server}`'s task for `{shown}` asked for an input \
                             this mount does not know"
                        )
                        .into());
                    };
                    let answer = asked::answer(ctx, takes, request).await.map_err(|error| {
                        Ended::Said(format!(
                            "the MCP server `{server}`'s task for `{shown}` asked the client \
                             something, and no answer came: {}",
                            error.message
                        ))
                    })?;
                    answered.insert(key.clone(), answer.clone());
                    responses.insert(key, answer);
                }
                if !responses.is_empty() {
                    let update = UpdateTaskParams::new(id.clone(), responses);
                    if let Err(error) = peer.update_task(update).await {
                        unfinished.done();
                        return Err(format!(
                            "the MCP server `{server}` did not take the person's answers for its \
                             task for `{shown}`: {error}"
                        )
                        .into());
                    }
                }
            }
            TaskPayload::Completed { result } => {
                unfinished.done();
                return serde_json::from_value::<CallToolResult>(Value::Object(result))
                    .map(ServerResult::CallToolResult)
                    .map_err(|error| {
                        Ended::Said(format!(
                            "the MCP server `{server}` ended its task for `{shown}` with a \
                             result that is not MCP's: {error}"
                        ))
                    });
            }
            TaskPayload::Failed { error } => {
                unfinished.done();
                let said = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("no reason given");
                return Err(Ended::Failed(said.to_owned()));
            }
            TaskPayload::Cancelled => {
                unfinished.done();
                return Err(
                    format!("the MCP server `{server}` cancelled its task for `{shown}`").into(),
                );
            }
            _ => {}
        }
    }
}

/// How long to wait before reading the task again: what the server
/// suggests, within bounds.
fn interval(suggested_ms: Option<u64>) -> Duration {
    suggested_ms
        .map_or(Duration::from_secs(1), Duration::from_millis)
        .clamp(POLL_BOUNDS.0, POLL_BOUNDS.1)
}
