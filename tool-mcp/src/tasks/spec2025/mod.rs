//! The experimental tasks of MCP 2025-11-25, as the official TypeScript SDK
//! (1.x) speaks them, served beside the tasks extension on the same tasks
//! (`tasks/mod.rs`) and the same rule of ownership.
//!
//! A client asks for a task with `params.task` (`{ttl}`) on `tools/call`
//! and is answered `{task: {taskId, status, ttl, ...}}`; `tasks/get` and
//! `tasks/cancel` answer the task itself, `tasks/result` waits for the
//! call's own result, and `tasks/list` lists the caller's tasks.
//!
//! rmcp 3.9 models only the extension: it parses `tools/call` into params
//! without `task`, and answers `tasks/get` and `tasks/cancel` itself, in
//! the extension's shapes, for clients that declared the extension. So the
//! requests of this form are told apart before rmcp parses them
//! (`transport.rs`): a `tools/call` with `params.task`, and a `tasks/get`
//! or `tasks/cancel` of anything but the caller's own extension task, are
//! renamed to methods of this crate's own, which rmcp hands whole, as
//! custom requests, to [`handle`]. `tasks/result` and `tasks/list` are
//! custom requests for rmcp already. Nor can rmcp's model say that the
//! server takes these tasks (`capabilities.tasks`) or which tools do
//! (`execution.taskSupport`): `transport.rs` adds them to the answers.
//! The transports this crate serves on apply both: stdio through
//! [`route_stdin`] and [`Declaring`], HTTP through [`handle_http`].

mod transport;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, CustomRequest, CustomResult, ErrorCode,
    GetTaskResult, ServerResult, Task, TaskPayload,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value, json};

pub(crate) use transport::{Declaring, TaskTools, handle_http, route_stdin, task_tools};

use crate::asking::stateless;
use crate::server::McpServer;
use crate::tasks::start::{TaskStart, start_task};
use crate::tasks::{Form, TaskOwner};

/// The method a task-augmented `tools/call` is renamed to.
const CALL: &str = "tool-mcp/2025-11-25/tools/call";
/// The method a `tasks/get` of this form is renamed to.
const GET: &str = "tool-mcp/2025-11-25/tasks/get";
/// The method a `tasks/cancel` of this form is renamed to.
const CANCEL: &str = "tool-mcp/2025-11-25/tasks/cancel";
/// Key of the task a result belongs to, in its `_meta`.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// Answers a custom request of this form, or `None` for any other method.
pub(crate) async fn handle<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: &CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CustomResult, ErrorData>> {
    // 2026-07-28 has no `tasks/result` or `tasks/list`, and reads its
    // tasks' requests itself: method not found.
    if stateless(context) {
        return None;
    }
    let caller = || TaskOwner::of(context, server.config.verifier.is_some());
    let tasks = &server.tasks;
    let answer = match request.method.as_str() {
        CALL => call(server, request, context).await,
        GET => match task_id(request) {
            Ok(id) => match tasks.read(server, &caller(), &id).await {
                Ok(record) if record.form == Form::Extension => extension_client(context)
                    .and_then(|()| to_json(&GetTaskResult::new(record.to_detailed(&id)))),
                Ok(record) => Ok(task_json(&record.to_detailed(&id).task)),
                Err(error) => Err(error),
            },
            Err(error) => Err(error),
        },
        CANCEL => match task_id(request) {
            Ok(id) => cancel(server, &caller(), &id, context).await,
            Err(error) => Err(error),
        },
        "tasks/result" => match task_id(request) {
            Ok(id) => result(server, &caller(), &id, context).await,
            Err(error) => Err(error),
        },
        "tasks/list" => {
            let cursor = request
                .params
                .as_ref()
                .and_then(|params| params.get("cursor")?.as_str());
            tasks.list(&caller(), cursor).await.map(|(page, next)| {
                let tasks: Vec<Value> = page
                    .iter()
                    .map(|(id, record)| task_json(&record.to_detailed(id).task))
                    .collect();
                let mut answer = json!({ "tasks": tasks });
                if let Some(next) = next {
                    answer["nextCursor"] = json!(next);
                }
                answer
            })
        }
        _ => return None,
    };
    Some(answer.map(CustomResult))
}

/// `tools/call` with `params.task`: the task that runs the call. A tool
/// that is not `long_running` does not take tasks (its
/// `execution.taskSupport` is `forbidden`), and MCP answers such a call
/// `-32601`; an unknown tool is `-32602`, as without a task.
async fn call<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: &CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let params: CallToolRequestParams = request
        .params_as()
        .map_err(|error| ErrorData::invalid_params(format!("invalid tools/call: {error}"), None))?
        .ok_or_else(|| ErrorData::invalid_params("tools/call without params", None))?;
    let ttl_ms = request
        .params
        .as_ref()
        .and_then(|params| params.get("task")?.get("ttl")?.as_u64());
    let runs_as_task = server
        .registry()
        .info(&params.name)
        .map(|tool| tool.metadata.long_running);
    if runs_as_task == Some(false) {
        return Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "tool `{}` does not run as a task (its execution.taskSupport is \"forbidden\"): \
                 call it without `task`",
                params.name
            ),
            None,
        ));
    }
    // The client may ask for a shorter life than the server keeps tasks,
    // not a longer one (`Tasks::ttl_for`).
    match start_task(server, params, context, Form::Spec2025, ttl_ms).await? {
        TaskStart::Task(task) => Ok(json!({"task": task_json(&task)})),
        TaskStart::Answered(result) => serde_json::to_value(result)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None)),
        // Only a 2026-07-28 call is asked in rounds.
        TaskStart::InputRequired(_) => Err(ErrorData::internal_error(
            "a 2025-11-25 task has no round to ask in",
            None,
        )),
    }
}

/// `tasks/cancel`: cancels the task's call and answers the task once it
/// has stopped (`cancelled`, unless it ended first); a task that has
/// already ended is refused with `-32602`, as MCP asks.
async fn cancel<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    caller: &TaskOwner,
    task_id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let tasks = &server.tasks;
    let record = tasks.read(server, caller, task_id).await?;
    if record.form == Form::Extension {
        // The extension's cancel is cooperative: acknowledged once asked.
        extension_client(context)?;
        tasks.ask_cancel(server, caller, task_id).await?;
        return to_json(&ServerResult::task_ack(()));
    }
    let record = tasks.ask_cancel(server, caller, task_id).await?;
    if record.is_terminal() {
        return Err(ErrorData::invalid_params(
            format!(
                "task {task_id} cannot be cancelled: it is already {}",
                status_text(&record.to_detailed(task_id).task)
            ),
            None,
        ));
    }
    let settled = tasks.settled(server, caller, task_id, &context.ct).await?;
    Ok(task_json(&settled.to_detailed(task_id).task))
}

/// `tasks/result`: waits for the task to end, then answers what its call
/// answers: the `CallToolResult` (with the task's id in `_meta`), or the
/// error of a failed task; a cancelled task has no result.
async fn result<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    caller: &TaskOwner,
    task_id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let settled = server
        .tasks
        .settled(server, caller, task_id, &context.ct)
        .await?
        .to_detailed(task_id);
    match settled.payload {
        TaskPayload::Completed { mut result } => {
            // As a call of this version is answered without a task:
            // `resultType` is 2026-07-28's.
            result.remove("resultType");
            let meta = result
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(meta) = meta {
                meta.insert(RELATED_TASK.to_owned(), json!({"taskId": task_id}));
            }
            Ok(Value::Object(result))
        }
        TaskPayload::Failed { error } => {
            let code = error.get("code").and_then(Value::as_i64).unwrap_or(-32603);
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("the task failed")
                .to_owned();
            let code = i32::try_from(code).unwrap_or(-32603);
            Err(ErrorData::new(
                ErrorCode(code),
                message,
                error.get("data").cloned(),
            ))
        }
        _ => Err(ErrorData::invalid_params(
            format!(
                "task {task_id} has no result: it is {}",
                status_text(&settled.task)
            ),
            None,
        )),
    }
}

/// Whether the request's client declared the tasks extension, which the
/// extension's own requests need: rmcp's answer when it did not, given
/// only to the task's owner (whose it is is checked first).
fn extension_client(context: &RequestContext<RoleServer>) -> Result<(), ErrorData> {
    let declared = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks());
    if declared {
        Ok(())
    } else {
        Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        ))
    }
}

/// An answer of rmcp's model, as JSON: the same bytes its own handler
/// would send.
fn to_json(answer: &impl serde::Serialize) -> Result<Value, ErrorData> {
    serde_json::to_value(answer).map_err(|error| ErrorData::internal_error(error.to_string(), None))
}

/// The `taskId` of a request's params.
fn task_id(request: &CustomRequest) -> Result<String, ErrorData> {
    request
        .params
        .as_ref()
        .and_then(|params| params.get("taskId")?.as_str())
        .map(str::to_owned)
        .ok_or_else(|| {
            ErrorData::invalid_params(format!("{} needs a string taskId", request.method), None)
        })
}

/// A task as 2025-11-25 writes it: `ttl` and `pollInterval`, where the
/// extension has `ttlMs` and `pollIntervalMs`.
fn task_json(task: &Task) -> Value {
    let mut value = json!({
        "taskId": task.task_id,
        "status": task.status,
        "createdAt": task.created_at,
        "lastUpdatedAt": task.last_updated_at,
        "ttl": task.ttl_ms,
    });
    if let Some(poll) = task.poll_interval_ms {
        value["pollInterval"] = json!(poll);
    }
    if let Some(message) = &task.status_message {
        value["statusMessage"] = json!(message);
    }
    value
}

/// The task's status as the wire says it: `completed`.
fn status_text(task: &Task) -> String {
    serde_json::to_value(task.status)
        .ok()
        .and_then(|status| status.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::transport::route;
    use super::*;
    use crate::tasks::record::new_id;

    fn routed(message: Value) -> Option<Value> {
        let bytes = serde_json::to_vec(&message).expect("JSON");
        route(&bytes).map(|(renamed, _)| serde_json::from_slice(&renamed).expect("JSON"))
    }

    #[test]
    fn only_requests_of_the_2025_form_are_renamed() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "render", "arguments": {"task": "x"}, "task": {"ttl": 60000}}});
        let mut expected = call.clone();
        expected["method"] = json!(CALL);
        assert_eq!(routed(call), Some(expected));
        // `task` among the arguments is the tool's own.
        let plain = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "render", "arguments": {"task": {"ttl": 1}}}});
        assert_eq!(routed(plain), None);
        let get = |id: &str| {
            json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get",
            "params": {"taskId": id}})
        };
        assert_eq!(
            routed(get("no-such-task")).map(|m| m["method"].clone()),
            Some(json!(GET))
        );
        // Whatever the form: the task's record says how to answer.
        assert_eq!(
            routed(get(&new_id(Form::Extension, 1))).map(|m| m["method"].clone()),
            Some(json!(GET))
        );
        let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"});
        assert_eq!(routed(list), None);
        assert_eq!(route(b"not json \"task"), None);
    }

    #[test]
    fn a_task_is_written_as_2025_11_25_writes_it() {
        let task = Task::new(
            "t-1",
            rmcp::model::TaskStatus::Working,
            "2025-11-25T10:30:00Z",
            "2025-11-25T10:30:01Z",
        )
        .with_ttl_ms(60_000)
        .with_poll_interval_ms(1_000)
        .with_status_message("1/3: scenes rendered");
        assert_eq!(
            task_json(&task),
            json!({
                "taskId": "t-1",
                "status": "working",
                "createdAt": "2025-11-25T10:30:00Z",
                "lastUpdatedAt": "2025-11-25T10:30:01Z",
                "ttl": 60000,
                "pollInterval": 1000,
                "statusMessage": "1/3: scenes rendered",
            })
        );
    }
}
