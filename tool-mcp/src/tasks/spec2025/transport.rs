//! Where 2025-11-25's tasks meet the transports: their requests told
//! apart before rmcp parses them ([`route`]), over stdio and HTTP, and
//! what rmcp's model cannot say added to the answers ([`declare`]).

use std::convert::Infallible;
use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

use bytes::{Buf, Bytes, BytesMut};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Body;
use hyper::{Method, Request, Response, StatusCode};
use memchr::memmem::Finder;
use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, CustomResult, ServerJsonRpcMessage, ServerResult, TASKS_EXTENSION_ID,
};
use rmcp::transport::{StreamableHttpService, Transport};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};

use super::{CALL, CANCEL, GET};
use crate::http::hold::{HeadHold, held};
use crate::http::sessions::HttpSessions;
use crate::server::McpServer;
use crate::server::changes::Current;

/// The message with its method renamed when it is a request rmcp would
/// misread or answer itself, else `None` (and the message goes to rmcp as
/// it came): a `tools/call` with `params.task`, and every `tasks/get` and
/// `tasks/cancel`, whose task may be of either form and kept by another
/// process, so that only its record, read in [`super::handle`], says how
/// to answer.
pub(crate) fn route(message: &[u8]) -> Option<(Vec<u8>, &'static str)> {
    // Every message passes here: most are told apart without parsing.
    if !Mentions::of(message).task {
        return None;
    }
    let mut value: Value = serde_json::from_slice(message).ok()?;
    let object = value.as_object_mut()?;
    let params = object.get("params")?;
    // A request of 2026-07-28 names its version in `_meta`: its tasks are
    // the extension's, which rmcp reads itself (checking the client's
    // capability and the routing headers), and a `task` parameter of
    // 2025-11-25 means nothing to it.
    if params
        .get("_meta")
        .is_some_and(|meta| meta.get(PROTOCOL_VERSION).is_some())
    {
        return None;
    }
    let renamed = match object.get("method")?.as_str()? {
        "tools/call" if params.get("task").is_some_and(Value::is_object) => CALL,
        "tasks/get" => GET,
        "tasks/cancel" => CANCEL,
        _ => return None,
    };
    object.insert("method".to_owned(), Value::from(renamed));
    Some((serde_json::to_vec(&value).ok()?, renamed))
}

/// Where a request of 2026-07-28 names its protocol version, in `_meta`.
const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// The header in which a request of 2026-07-28 names its method.
const MCP_METHOD: &str = "mcp-method";

/// The longest line [`route_stdin`] reads whole: rmcp's own limit for a
/// message over stdio. Longer lines pass unread, for rmcp to refuse.
const MAX_LINE: usize = 16 * 1024 * 1024;

/// This process's stdin, each message [`route`]d, for rmcp to read: a task
/// copies it line by line through a pipe, and closes the pipe when stdin
/// closes.
///
/// `stateless` is set once a request of 2026-07-28 (its version named in
/// its `_meta`) has passed: such a client opens no session, so its input
/// closing before any `initialize` is how its use of the server ends.
pub(crate) fn route_stdin(stateless: Arc<AtomicBool>) -> impl AsyncRead + Send + Unpin + 'static {
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
                if !stateless.load(Ordering::Relaxed)
                    && contains(&line, PROTOCOL_VERSION.as_bytes())
                {
                    stateless.store(true, Ordering::Relaxed);
                }
                let forwarded = match route(&line) {
                    Some((mut renamed, _)) => {
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
        // Dropping the write half does not end the pipe (the read half
        // holds it too): only a shutdown lets rmcp read the end, and the
        // server stop when its client closes stdin.
        let _ = into.shutdown().await;
    });
    routed
}

/// Answers an HTTP request through rmcp's `service`, a POST's body
/// [`route`]d first and the answer to an `initialize` or `tools/list`
/// given [`declare`]'s additions; a body over `max_bytes` is refused
/// `413`, as rmcp refuses it, and one that cannot be read `400`.
pub(crate) async fn handle_http<Ctx, B>(
    service: &StreamableHttpService<McpServer<Ctx>, HttpSessions>,
    request: Request<B>,
    task_tools: &TaskTools,
    max_bytes: usize,
) -> Response<BoxBody<Bytes, Infallible>>
where
    Ctx: Send + Sync + 'static,
    B: Body + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + Display,
{
    if request.method() != Method::POST {
        return service.handle(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let body = match read_whole(body, max_bytes).await {
        Ok(body) => body,
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
    // Most requests (`tools/call`s without a task) are told apart here by
    // their bytes alone, and go to rmcp as they came.
    let mentions = Mentions::of(&body);
    let asked = mentions
        .asked(&body)
        .filter(|&asked| asked == Asked::Initialize || task_tools.any_runs_as_task());
    let routed = if mentions.task { route(&body) } else { None };
    let body = match routed {
        Some((renamed, method)) => {
            // A client of 2026-07-28 names the method in a header too,
            // which rmcp checks against the body's.
            if parts.headers.contains_key(MCP_METHOD) {
                parts
                    .headers
                    .insert(MCP_METHOD, hyper::header::HeaderValue::from_static(method));
            }
            Bytes::from(renamed)
        }
        None => body,
    };
    // A `tools/call`'s answer goes to hyper once it is whole, or once the
    // call lets it go (`http_hold`).
    let hold = HeadHold::for_message(&body).map(|(hold, front)| {
        parts.extensions.insert(hold);
        front
    });
    let response = service
        .handle(Request::from_parts(parts, Full::new(body)))
        .await;
    let response = match asked {
        Some(asked) => declare_in_response(response, asked, task_tools).await,
        None => response,
    };
    held(response, hold).await
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

/// The strings a message mentions that say it may need more than rmcp
/// alone: found by searching its bytes (memchr's SIMD search), so that a
/// message mentioning none is never parsed here.
#[derive(Clone, Copy, Debug, Default)]
struct Mentions {
    /// A string starting `task` (`"task"`, `"tasks/get"`, ...): [`route`].
    task: bool,
    /// `"initialize"` or `"tools/list"`: [`Asked`].
    asked: bool,
}

impl Mentions {
    fn of(message: &[u8]) -> Self {
        static TASK: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"task"));
        static INITIALIZE: LazyLock<Finder<'static>> =
            LazyLock::new(|| Finder::new(b"\"initialize\""));
        static TOOLS_LIST: LazyLock<Finder<'static>> =
            LazyLock::new(|| Finder::new(b"\"tools/list\""));
        Mentions {
            task: TASK.find(message).is_some(),
            asked: INITIALIZE.find(message).is_some() || TOOLS_LIST.find(message).is_some(),
        }
    }

    /// What `message` asks, if [`declare`] adds to its answer.
    fn asked(self, message: &[u8]) -> Option<Asked> {
        if !self.asked {
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

/// A request's body, whole, refused past `max_bytes`: the one frame most
/// requests come in as it is, without copying or a list of frames.
async fn read_whole<B>(
    body: B,
    max_bytes: usize,
) -> Result<Bytes, Box<dyn std::error::Error + Send + Sync>>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let body = Limited::new(body, max_bytes);
    tokio::pin!(body);
    let mut whole: Option<Bytes> = None;
    let mut more: Option<BytesMut> = None;
    while let Some(frame) = body.frame().await {
        let Ok(mut data) = frame?.into_data() else {
            continue;
        };
        // No copy for hyper's frames, which are `Bytes` already.
        let data = data.copy_to_bytes(data.remaining());
        match (&mut more, whole.take()) {
            (Some(more), _) => more.extend_from_slice(&data),
            (None, None) => whole = Some(data),
            (None, Some(first)) => {
                let mut joined = BytesMut::with_capacity(first.len() + data.len());
                joined.extend_from_slice(&first);
                joined.extend_from_slice(&data);
                more = Some(joined);
            }
        }
    }
    Ok(match more {
        Some(more) => more.freeze(),
        None => whole.unwrap_or_default(),
    })
}

/// Which tools of a server run as tasks (its `long_running` ones), in
/// whichever registry it serves when asked.
pub(crate) trait RunsAsTask: Send + Sync {
    /// Whether the tool `name` does: `"required"` for a `tasks_only` tool,
    /// `"optional"` for another `long_running` one, none for the rest.
    fn task_support(&self, name: &str) -> Option<&'static str>;
    /// Whether any tool does: else a `tools/list` answer is left as it is.
    fn any_runs_as_task(&self) -> bool;
}

impl<Ctx: Send + Sync + 'static> RunsAsTask for Current<Ctx> {
    fn task_support(&self, name: &str) -> Option<&'static str> {
        let current = self.get();
        let metadata = &current.registry.info(name)?.metadata;
        match (metadata.long_running, metadata.tasks_only) {
            (true, true) => Some("required"),
            (true, false) => Some("optional"),
            (false, _) => None,
        }
    }

    fn any_runs_as_task(&self) -> bool {
        self.get()
            .registry
            .tools()
            .any(|tool| tool.metadata.long_running)
    }
}

/// The tools of a server that run as tasks.
pub(crate) type TaskTools = Arc<dyn RunsAsTask>;

/// The tools of `server` that run as tasks.
pub(crate) fn task_tools<Ctx: Send + Sync + 'static>(server: &McpServer<Ctx>) -> TaskTools {
    Arc::clone(&server.current) as TaskTools
}

/// What rmcp's model cannot say, added to an answer for 2025-11-25's
/// clients: in `initialize`'s, the `tasks` capability (`tools/call` may be
/// asked as a task, `tasks/list` and `tasks/cancel` are served) when the
/// server offers tasks (the extension's capability says so); in
/// `tools/list`'s, `execution.taskSupport` on each tool that runs as a
/// task, `"required"` for a `tasks_only` one, else `"optional"` (another
/// may not, and says nothing: MCP's default is `forbidden`).
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
                let support = tool
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(|name| task_tools.task_support(name));
                if let (Some(support), Value::Object(tool)) = (support, tool) {
                    tool.insert("execution".to_owned(), json!({"taskSupport": support}));
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
                    ServerResult::ListToolsResult(_) if self.task_tools.any_runs_as_task() => {
                        Some(Asked::ToolsList)
                    }
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

/// Whether `needle` is in `haystack`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}
