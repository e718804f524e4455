//! The experimental tasks of MCP 2025-11-25, as the official TypeScript SDK
//! (1.x) speaks them, served beside the tasks extension on the same tasks
//! (`tasks.rs`) and the same rule of ownership.
//!
//! A client asks for a task with `params.task` (`{ttl}`) on `tools/call`
//! and is answered `{task: {taskId, status, ttl, ...}}`; `tasks/get` and
//! `tasks/cancel` answer the task itself, `tasks/result` waits for the
//! call's own result, and `tasks/list` lists the caller's tasks.
//!
//! rmcp 3.9 models only the extension: it parses `tools/call` into params
//! without `task`, and answers `tasks/get` and `tasks/cancel` itself, in the
//! extension's shapes, for clients that declared the extension. So the
//! requests of this form are told apart before rmcp parses them, by
//! [`route`]: a `tools/call` with `params.task`, and a `tasks/get` or
//! `tasks/cancel` of a task not made in the extension's form, are renamed to
//! methods of this crate's own, which rmcp hands whole, as custom requests,
//! to [`handle`]. `tasks/result` and `tasks/list` are custom requests for
//! rmcp already. Nor can rmcp's model say that the server takes these
//! tasks (`capabilities.tasks`) or which tools do
//! (`execution.taskSupport`): [`declare`] adds them to the answers. The
//! transports this crate serves on apply both: stdio through
//! [`route_stdin`] and [`Declaring`], HTTP through [`handle_http`].

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, CustomRequest, CustomResult, ErrorCode,
    ServerJsonRpcMessage, ServerResult, TASKS_EXTENSION_ID, Task, TaskPayload,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpService, Transport};
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};

use crate::call::{Started, start_task};
use crate::server::McpServer;
use crate::tasks::{Caller, Form, Tasks};

/// The method a task-augmented `tools/call` is renamed to.
const CALL: &str = "tool-mcp/2025-11-25/tools/call";
/// The method a `tasks/get` of this form is renamed to.
const GET: &str = "tool-mcp/2025-11-25/tasks/get";
/// The method a `tasks/cancel` of this form is renamed to.
const CANCEL: &str = "tool-mcp/2025-11-25/tasks/cancel";
/// Key of the task a result belongs to, in its `_meta`.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// The message with its method renamed when it is a request of this form
/// that rmcp would misread, else `None` (and the message goes to rmcp as
/// it came). A `tasks/get` or `tasks/cancel` is this form's unless its task
/// was made in the extension's: an id no task has is answered here, with
/// the same error the extension's handler gives.
pub(crate) fn route(message: &[u8], tasks: &Tasks) -> Option<Vec<u8>> {
    // Every message passes here: most are told apart without parsing.
    if !message.windows(5).any(|window| window == b"\"task") {
        return None;
    }
    let mut value: Value = serde_json::from_slice(message).ok()?;
    let object = value.as_object_mut()?;
    let params = object.get("params")?;
    let renamed = match object.get("method")?.as_str()? {
        "tools/call" if params.get("task").is_some_and(Value::is_object) => CALL,
        method @ ("tasks/get" | "tasks/cancel") => {
            let task_id = params.get("taskId")?.as_str()?;
            if tasks.is_of_form(task_id, Form::Extension) {
                return None;
            }
            if method == "tasks/get" { GET } else { CANCEL }
        }
        _ => return None,
    };
    object.insert("method".to_owned(), Value::from(renamed));
    serde_json::to_vec(&value).ok()
}

/// The longest line [`route_stdin`] reads whole: rmcp's own limit for a
/// message over stdio. Longer lines pass unread, for rmcp to refuse.
const MAX_LINE: usize = 16 * 1024 * 1024;

/// This process's stdin, each message [`route`]d, for rmcp to read: a task
/// copies it line by line through a pipe, and closes the pipe when stdin
/// closes.
pub(crate) fn route_stdin(tasks: Arc<Tasks>) -> impl AsyncRead + Send + Unpin + 'static {
    let (routed, mut into) = tokio::io::simplex(64 * 1024);
    tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        // Set while the rest of a line too long to route passes through.
        let mut passing = false;
        loop {
            let available = match stdin.fill_buf().await {
                Ok([]) | Err(_) => break,
                Ok(available) => available,
            };
            let end = available.iter().position(|&byte| byte == b'\n');
            let take = end.map_or(available.len(), |at| at + 1);
            let chunk = &available[..take];
            let written = if passing {
                into.write_all(chunk).await
            } else if line.len() + take > MAX_LINE {
                passing = true;
                let written = into.write_all(&line).await;
                line.clear();
                match written {
                    Ok(()) => into.write_all(chunk).await,
                    error => error,
                }
            } else {
                line.extend_from_slice(chunk);
                Ok(())
            };
            stdin.consume(take);
            if written.is_err() {
                // rmcp stopped reading: the session is over.
                break;
            }
            if end.is_some() {
                if passing {
                    passing = false;
                    continue;
                }
                let forwarded = match route(&line, &tasks) {
                    Some(mut renamed) => {
                        renamed.push(b'\n');
                        into.write_all(&renamed).await
                    }
                    None => into.write_all(&line).await,
                };
                line.clear();
                if forwarded.is_err() {
                    break;
                }
            }
        }
    });
    routed
}

/// Answers an HTTP request through rmcp's `service`, a POST's body
/// [`route`]d first and the answer to an `initialize` or `tools/list`
/// given [`declare`]'s additions; a body over `max_bytes` is refused
/// `413`, as rmcp refuses it, and one that cannot be read `400`.
pub(crate) async fn handle_http<Ctx: Send + Sync + 'static>(
    service: &StreamableHttpService<McpServer<Ctx>, LocalSessionManager>,
    request: Request<Incoming>,
    tasks: &Tasks,
    task_tools: &TaskTools,
    max_bytes: usize,
) -> Response<BoxBody<Bytes, Infallible>> {
    if request.method() != Method::POST {
        return service.handle(request).await;
    }
    let (parts, body) = request.into_parts();
    let body = match Limited::new(body, max_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) => {
            let too_large = error
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some();
            let (status, text) = if too_large {
                (StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large")
            } else {
                (
                    StatusCode::BAD_REQUEST,
                    "the request body could not be read",
                )
            };
            let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
            *response.status_mut() = status;
            return response;
        }
    };
    let asked = Asked::of(&body);
    let body = match route(&body, tasks) {
        Some(renamed) => Bytes::from(renamed),
        None => body,
    };
    let response = service
        .handle(Request::from_parts(parts, Full::new(body)))
        .await;
    match asked {
        Some(asked) => declare_in_response(response, asked, task_tools).await,
        None => response,
    }
}

/// The answer of an `initialize` or a `tools/list` with [`declare`]'s
/// additions: in a JSON body, or in the `data:` of an event stream's
/// message (such a request's stream ends with its answer).
async fn declare_in_response(
    response: Response<BoxBody<Bytes, Infallible>>,
    asked: Asked,
    task_tools: &TaskTools,
) -> Response<BoxBody<Bytes, Infallible>> {
    let (mut parts, body) = response.into_parts();
    let Ok(collected) = body.collect().await;
    let body = collected.to_bytes();
    let declared = |json: &str| -> Option<String> {
        let mut message: Value = serde_json::from_str(json).ok()?;
        declare(
            message.get_mut("result")?.as_object_mut()?,
            asked,
            task_tools,
        );
        serde_json::to_string(&message).ok()
    };
    let text = String::from_utf8_lossy(&body);
    let rewritten = if text.trim_start().starts_with('{') {
        declared(&text)
    } else {
        let lines: Vec<String> = text
            .split('\n')
            .map(|line| {
                line.strip_prefix("data:")
                    .and_then(|data| declared(data.trim_start()))
                    .map_or_else(|| line.to_owned(), |data| format!("data: {data}"))
            })
            .collect();
        Some(lines.join("\n"))
    };
    let body = rewritten.map_or(body, Bytes::from);
    parts.headers.remove(hyper::header::CONTENT_LENGTH);
    Response::from_parts(parts, Full::new(body).boxed())
}

/// A request whose answer [`declare`] adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    Initialize,
    ToolsList,
}

impl Asked {
    /// What a message asks, if [`declare`] adds to its answer.
    fn of(message: &[u8]) -> Option<Self> {
        let mentions = |name: &[u8]| message.windows(name.len()).any(|window| window == name);
        if !mentions(b"\"initialize\"") && !mentions(b"\"tools/list\"") {
            return None;
        }
        let value: Value = serde_json::from_slice(message).ok()?;
        match value.get("method")?.as_str()? {
            "initialize" => Some(Asked::Initialize),
            "tools/list" => Some(Asked::ToolsList),
            _ => None,
        }
    }
}

/// Whether a tool runs as a task: it is `long_running`.
pub(crate) type TaskTools = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The tools of `server` that run as tasks, whichever registry it serves
/// when asked.
pub(crate) fn task_tools<Ctx: Send + Sync + 'static>(server: &McpServer<Ctx>) -> TaskTools {
    let current = Arc::clone(&server.current);
    Arc::new(move |name| {
        current
            .get()
            .registry
            .info(name)
            .is_some_and(|tool| tool.metadata.long_running)
    })
}

/// What rmcp's model cannot say, added to an answer for 2025-11-25's
/// clients: in `initialize`'s, the `tasks` capability (`tools/call` may be
/// asked as a task, `tasks/list` and `tasks/cancel` are served) when the
/// server offers tasks (the extension's capability says so); in
/// `tools/list`'s, `execution.taskSupport: "optional"` on each tool that
/// runs as a task (another may not, and says nothing: MCP's default is
/// `forbidden`).
fn declare(result: &mut Map<String, Value>, asked: Asked, task_tools: &TaskTools) {
    match asked {
        Asked::Initialize => {
            let Some(Value::Object(capabilities)) = result.get_mut("capabilities") else {
                return;
            };
            let offers_tasks = capabilities
                .get("extensions")
                .and_then(|extensions| extensions.get(TASKS_EXTENSION_ID))
                .is_some();
            if offers_tasks {
                capabilities.insert(
                    "tasks".to_owned(),
                    json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
                );
            }
        }
        Asked::ToolsList => {
            let Some(Value::Array(tools)) = result.get_mut("tools") else {
                return;
            };
            for tool in tools {
                let runs_as_task = tool
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|name| task_tools(name));
                if runs_as_task && let Value::Object(tool) = tool {
                    tool.insert("execution".to_owned(), json!({"taskSupport": "optional"}));
                }
            }
        }
    }
}

/// A transport (stdio's) whose answers to `initialize` and `tools/list`
/// get [`declare`]'s additions: rmcp's typed answer, written out with them
/// as a custom result.
pub(crate) struct Declaring<T> {
    inner: T,
    task_tools: TaskTools,
}

impl<T> Declaring<T> {
    pub(crate) fn new(inner: T, task_tools: TaskTools) -> Self {
        Self { inner, task_tools }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Declaring<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let item = match item {
            ServerJsonRpcMessage::Response(mut response) => {
                let asked = match &response.result {
                    ServerResult::InitializeResult(_) => Some(Asked::Initialize),
                    ServerResult::ListToolsResult(_) => Some(Asked::ToolsList),
                    _ => None,
                };
                if let Some(asked) = asked
                    && let Ok(Value::Object(mut result)) = serde_json::to_value(&response.result)
                {
                    declare(&mut result, asked, &self.task_tools);
                    response.result =
                        ServerResult::CustomResult(CustomResult(Value::Object(result)));
                }
                ServerJsonRpcMessage::Response(response)
            }
            other => other,
        };
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// Answers a custom request of this form, or `None` for any other method.
pub(crate) async fn handle<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: &CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Option<Result<CustomResult, ErrorData>> {
    let caller = || Caller::of(context, server.verifier.is_some());
    let answer = match request.method.as_str() {
        CALL => call(server, request, context).await,
        GET => task_id(request)
            .and_then(|id| server.tasks.get(&caller(), &id))
            .map(|task| task_json(&task.task)),
        CANCEL => match task_id(request) {
            Ok(id) => cancel(&server.tasks, &caller(), &id, context).await,
            Err(error) => Err(error),
        },
        "tasks/result" => match task_id(request) {
            Ok(id) => result(&server.tasks, &caller(), &id, context).await,
            Err(error) => Err(error),
        },
        "tasks/list" => {
            let tasks = server.tasks.list(&caller());
            Ok(json!({"tasks": tasks.iter().map(task_json).collect::<Vec<_>>()}))
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
    // not a longer one.
    let ttl_ms = ttl_ms.map(|ttl| ttl.clamp(MIN_TTL_MS, rmcp::task_manager::DEFAULT_TASK_TTL_MS));
    match start_task(server, params, context, Form::Spec2025, ttl_ms).await? {
        Started::Task(task) => Ok(json!({"task": task_json(&task)})),
        Started::Answered(result) => serde_json::to_value(result)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None)),
    }
}

/// The shortest time a task is kept: a second, so that a `ttl` of a few
/// milliseconds does not end a task before its client polls once.
const MIN_TTL_MS: u64 = 1_000;

/// `tasks/cancel`: cancels the task's call and answers the task once it
/// has stopped (`cancelled`, unless it ended first); a task that has
/// already ended is refused with `-32602`, as MCP asks.
async fn cancel(
    tasks: &Tasks,
    caller: &Caller,
    task_id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let task = tasks.get(caller, task_id)?;
    if task.status().is_terminal() {
        return Err(ErrorData::invalid_params(
            format!(
                "task {task_id} cannot be cancelled: it is already {}",
                status_text(&task.task)
            ),
            None,
        ));
    }
    tasks.cancel(caller, task_id)?;
    let settled = tasks.settled(caller, task_id, &context.ct).await?;
    Ok(task_json(&settled.task))
}

/// `tasks/result`: waits for the task to end, then answers what its call
/// answers: the `CallToolResult` (with the task's id in `_meta`), or the
/// error of a failed task; a cancelled task has no result.
async fn result(
    tasks: &Tasks,
    caller: &Caller,
    task_id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let settled = tasks.settled(caller, task_id, &context.ct).await?;
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
    use super::*;

    fn routed(message: Value, tasks: &Tasks) -> Option<Value> {
        let bytes = serde_json::to_vec(&message).expect("JSON");
        route(&bytes, tasks).map(|renamed| serde_json::from_slice(&renamed).expect("JSON"))
    }

    #[test]
    fn only_requests_of_the_2025_form_are_renamed() {
        let tasks = Tasks::default();
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "render", "arguments": {"task": "x"}, "task": {"ttl": 60000}}});
        let mut expected = call.clone();
        expected["method"] = json!(CALL);
        assert_eq!(routed(call, &tasks), Some(expected));
        // `task` among the arguments is the tool's own.
        let plain = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "render", "arguments": {"task": {"ttl": 1}}}});
        assert_eq!(routed(plain, &tasks), None);
        let get = json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get",
            "params": {"taskId": "no-such-task"}});
        assert_eq!(
            routed(get, &tasks).map(|m| m["method"].clone()),
            Some(json!(GET))
        );
        let list = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"});
        assert_eq!(routed(list, &tasks), None);
        assert_eq!(route(b"not json \"task", &tasks), None);
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
