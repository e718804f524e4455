//! MCP servers in this process, as replicas of one service whose tasks
//! Restate runs, and MCP clients of them (rmcp's), each a caller with a
//! bearer token of its own.

use std::net::SocketAddr;
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, ErrorCode, Implementation,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolContext, ToolRegistry};
use tool_mcp::{BearerTokens, McpConfig, McpServer};
use tool_restate::RestateTasks;

/// An MCP client of one replica.
pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

/// One replica of the MCP server, serving HTTP on a port of its own until
/// stopped.
pub(crate) struct Replica {
    pub(crate) address: SocketAddr,
    stop: CancellationToken,
}

impl Replica {
    /// A replica serving `registry`'s tools, its tasks run by `tasks`;
    /// `alice-secret` and `bob-secret` are its callers' tokens.
    pub(crate) async fn start<Ctx: Send + Sync + 'static>(
        registry: ToolRegistry<Ctx>,
        ctx: ToolContext<Ctx>,
        tasks: RestateTasks,
    ) -> Self {
        let tokens = BearerTokens::new()
            .with_token("alice-secret", Vec::<String>::new())
            .with_token("bob-secret", Vec::<String>::new());
        let server = McpServer::new(registry, ctx)
            .with_config(McpConfig::new().with_bearer_auth(tokens).with_tasks(tasks));
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let address = listener.local_addr().expect("bound");
        let stop = CancellationToken::new();
        let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
        tokio::spawn(server.serve_http_with(listener, config));
        Self { address, stop }
    }

    /// Stops serving, ending every session: the replica is gone.
    pub(crate) fn stop(self) {
        self.stop.cancel();
    }
}

/// A client of the replica at `address`, calling with `token`; one that
/// declares it follows tasks (the extension's form), or not (2025-11-25's,
/// asked with `params.task`).
pub(crate) async fn client(address: SocketAddr, token: &str, tasks: bool) -> Client {
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{address}/mcp"))
        .auth_header(token);
    let capabilities = if tasks {
        ClientCapabilities::builder().enable_tasks().build()
    } else {
        ClientCapabilities::default()
    };
    ClientConfig::new(capabilities, Implementation::new("task-client", "1.0.0"))
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialized")
}

/// A request of 2025-11-25's tasks (rmcp has no model of them): the
/// answer, or the error's code and message; at most `wait` for it.
pub(crate) async fn request_2025(
    client: &Client,
    method: &str,
    params: Value,
    wait: Duration,
) -> Result<Value, (ErrorCode, String)> {
    let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    match tokio::time::timeout(wait, client.send_request(request))
        .await
        .unwrap_or_else(|_| panic!("{method}: no answer in {wait:?}"))
    {
        Ok(result) => Ok(serde_json::to_value(result).expect("JSON")),
        Err(ServiceError::McpError(error)) => Err((error.code, error.message.into_owned())),
        Err(other) => panic!("not a protocol error: {other:?}"),
    }
}

/// What a caller is told of a task that is not theirs: that it does not
/// exist, as tool-mcp says of any task.
pub(crate) fn unknown(task_id: &str) -> (ErrorCode, String) {
    (
        ErrorCode::INVALID_PARAMS,
        format!("unknown task: {task_id}"),
    )
}

/// A session of raw JSON-RPC over HTTP with one replica, as one caller:
/// what a client that sends a request again (the same id, in the same
/// session) sends, which rmcp's client never does.
pub(crate) struct RawSession {
    http: reqwest::Client,
    url: String,
    token: String,
    session: String,
}

/// The protocol the raw session speaks: 2025-11-25, whose tasks are asked
/// for with `params.task`.
const PROTOCOL: &str = "2025-11-25";

impl RawSession {
    /// A session opened with the replica at `address` by `initialize` and
    /// `notifications/initialized`, calling with `token`.
    pub(crate) async fn open(address: SocketAddr, token: &str) -> Self {
        let mut raw = Self {
            http: reqwest::Client::new(),
            url: format!("http://{address}/mcp"),
            token: token.to_owned(),
            session: String::new(),
        };
        let initialize = serde_json::json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "0"}},
        });
        let (session, _) = raw.post(&initialize).await;
        raw.session = session.expect("a session id");
        raw.post(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        raw
    }

    /// The answer to the JSON-RPC request `body`.
    pub(crate) async fn request(&self, body: &Value) -> Value {
        let (_, answer) = self.post(body).await;
        answer.unwrap_or_else(|| panic!("no answer to {body}"))
    }

    /// Posts `body`: the session id the reply names, and the JSON-RPC
    /// answer in it, if any (a notification has none).
    async fn post(&self, body: &Value) -> (Option<String>, Option<Value>) {
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", format!("Bearer {}", self.token))
            .header("mcp-protocol-version", PROTOCOL)
            .json(body);
        if !self.session.is_empty() {
            request = request.header("mcp-session-id", &self.session);
        }
        let mut reply = tokio::time::timeout(Duration::from_secs(30), request.send())
            .await
            .expect("answered in time")
            .expect("the replica answers");
        let session = reply
            .headers()
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
            .map(str::to_owned);
        // An event stream may stay open after its answer: read up to it.
        let mut text = String::new();
        while let Ok(Some(chunk)) = reply.chunk().await {
            text.push_str(&String::from_utf8_lossy(&chunk));
            if let Some(answer) = answer_in(&text) {
                return (session, Some(answer));
            }
        }
        (session, answer_in(&text))
    }
}

/// The JSON-RPC answer in a reply's body: the body itself, or an event's
/// data in an event stream.
fn answer_in(text: &str) -> Option<Value> {
    if let Ok(answer) = serde_json::from_str::<Value>(text) {
        return Some(answer);
    }
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|data| data.get("id").is_some())
}
