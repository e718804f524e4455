//! tool-mcp's tasks run as Restate invocations ([`RestateTasks`]): a
//! task's id is its invocation's id, and every request about it reads
//! Restate, so any replica of an MCP server serves any task, and a task
//! goes on when the replica that started it stops.

mod rows;

use std::fmt;
use std::time::Duration;

use reqwest::{Client, Response, StatusCode};
use serde_json::{Value, json};
use tool_core::{BoxFuture, ToolResult};
use tool_mcp::{EngineError, EnginePage, EngineTask, NewTask, TaskEngine};

use rows::{COLUMNS, Row, idempotency_key, owner_pattern, plain};

/// The header that tells a tool's context who asked for the task:
/// [`NewTask::owner`] (`t:<hash of the token>`, `s:<hash of the
/// session>`, or `anyone`). Read it with
/// [`Invocation::header`](crate::Invocation::header).
pub const CALLER_HEADER: &str = "x-mcp-caller";

/// The header that tells a tool's context the caller's scopes, separated
/// by spaces (an OAuth `scope`'s form).
pub const SCOPES_HEADER: &str = "x-mcp-scopes";

/// The most tasks one page of `tasks/list` holds.
const PAGE: usize = 100;

/// How long one wait for a task's end lasts before it is read again.
const WAIT: Duration = Duration::from_secs(60);

/// tool-mcp's tasks as invocations of a [`RestateService`](crate::RestateService),
/// through Restate's ingress and admin HTTP APIs: give it to every replica
/// of an MCP server with
/// [`McpConfig::with_tasks`](tool_mcp::McpConfig::with_tasks).
///
/// - **Starting a task** sends the call to the service's handler of the
///   tool (`POST <ingress>/<service>/<tool>/send`), with an
///   `idempotency-key` made of the task's form, its owner and its
///   request's key: a client's retried `tools/call` is the same
///   invocation, not another run. The task's id is the invocation's id
///   (`inv_...`). The caller and its scopes go along as the headers
///   [`CALLER_HEADER`] and [`SCOPES_HEADER`], for the service's context
///   function.
/// - **Its owner is kept by Restate**, in the invocation's idempotency
///   key, and read back with its state on every request: no other store
///   is needed, nothing can drift from the invocation, and both are
///   forgotten together. An invocation sent otherwise (without such a
///   key) is no task, to anyone.
/// - **`tasks/get`** reads the invocation's row (admin `POST /query` over
///   `sys_invocation`), and a completed one's output
///   (`GET <ingress>/restate/output/<id>`): the tool's
///   [`ToolResult`], exactly. **`tasks/result`** waits on
///   `GET <ingress>/restate/attach/<id>`. **`tasks/cancel`** is
///   `PATCH <admin>/invocations/<id>/cancel`: Restate's cancel, which
///   cancels the running tool's token (as the service's docs say); a
///   tool that watches it stops, one that does not runs to its end, and
///   the task then ends cancelled, its result dropped. **`tasks/list`** queries the
///   owner's invocations, oldest first.
/// - **How long tasks are kept** is Restate's idempotency retention (a day
///   by default; a service's `idempotency_retention`).
///
/// Restate's ingress and admin API are the MCP server's, not its
/// clients': whoever reaches them can read and cancel any invocation.
///
/// ```no_run
/// use tool_core::{ToolContext, ToolRegistry};
/// use tool_mcp::{McpConfig, McpServer};
/// use tool_restate::RestateTasks;
///
/// // Each replica of the MCP server: the same registry as the
/// // `RestateService` registered with Restate, which runs the tools.
/// let tasks = RestateTasks::new("http://restate:8080", "http://restate:9070");
/// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
///     .with_config(McpConfig::new().with_tasks(tasks));
/// # drop(server);
/// ```
#[derive(Clone)]
pub struct RestateTasks {
    ingress: String,
    admin: String,
    service: String,
    http: Client,
}

impl fmt::Debug for RestateTasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RestateTasks")
            .field("ingress", &self.ingress)
            .field("admin", &self.admin)
            .field("service", &self.service)
            .finish_non_exhaustive()
    }
}

impl RestateTasks {
    /// Tasks run by the service `Tools` (a [`RestateService`](crate::RestateService)'s
    /// name unless given another) of the Restate whose ingress is at
    /// `ingress` (`http://host:8080`) and admin API at `admin`
    /// (`http://host:9070`).
    pub fn new(ingress: impl Into<String>, admin: impl Into<String>) -> Self {
        let trimmed = |url: String| url.trim_end_matches('/').to_owned();
        Self {
            ingress: trimmed(ingress.into()),
            admin: trimmed(admin.into()),
            service: "Tools".to_owned(),
            http: Client::new(),
        }
    }

    /// The same tasks, run by the service `name`
    /// ([`RestateService::name`](crate::RestateService::name)).
    #[must_use]
    pub fn service(mut self, name: impl Into<String>) -> Self {
        self.service = name.into();
        self
    }

    /// The same tasks, asked through `client` (its timeouts, TLS, proxy):
    /// a wait for a task's end lasts a minute, then asks again.
    #[must_use]
    pub fn http_client(mut self, client: Client) -> Self {
        self.http = client;
        self
    }

    async fn start(&self, task: &NewTask) -> Result<String, EngineError> {
        if !plain(&task.tool, b"_") || !plain(&self.service, b"_") {
            return Err(EngineError::new(format!(
                "Restate has no handler `{}/{}`",
                self.service, task.tool
            )));
        }
        let url = format!("{}/{}/{}/send", self.ingress, self.service, task.tool);
        let reply = self
            .http
            .post(url)
            .header(
                "idempotency-key",
                idempotency_key(&task.form, &task.owner, &task.key),
            )
            .header(CALLER_HEADER, &task.owner)
            .header(SCOPES_HEADER, task.scopes.join(" "))
            .json(&task.arguments)
            .send()
            .await
            .map_err(unreachable)?;
        let sent: Value = ok(reply).await?.json().await.map_err(unreachable)?;
        sent["invocationId"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| EngineError::new(format!("Restate's ingress answered {sent}")))
    }

    async fn get(&self, task_id: &str) -> Result<Option<EngineTask>, EngineError> {
        if !plain(task_id, b"_") || !plain(&self.service, b"_") {
            return Ok(None);
        }
        let rows = self
            .query(&format!(
                "SELECT {COLUMNS} FROM sys_invocation WHERE id = '{task_id}' \
                 AND target_service_name = '{}'",
                self.service
            ))
            .await?;
        match rows.first().and_then(Row::of) {
            Some(row) => self.task(&row).await.map(Some),
            None => Ok(None),
        }
    }

    /// The task of `row`, with its output when it has one.
    async fn task(&self, row: &Row<'_>) -> Result<EngineTask, EngineError> {
        if !row.succeeded() {
            return Ok(row.task(None));
        }
        let url = format!("{}/restate/output/{}", self.ingress, row.id);
        let reply = self.http.get(url).send().await.map_err(unreachable)?;
        let output: ToolResult = ok(reply).await?.json().await.map_err(|error| {
            EngineError::new(format!("the task's output is no tool result: {error}"))
        })?;
        Ok(row.task(Some(output)))
    }

    async fn wait(&self, task_id: &str) -> Result<(), EngineError> {
        if !plain(task_id, b"_") {
            return Ok(());
        }
        let url = format!("{}/restate/attach/{task_id}", self.ingress);
        match self.http.get(url).timeout(WAIT).send().await {
            // Whatever it ended with, the caller reads it again.
            Ok(reply) => {
                let _ = reply.bytes().await;
                Ok(())
            }
            Err(error) if error.is_timeout() => Ok(()),
            Err(error) => Err(unreachable(error)),
        }
    }

    async fn cancel(&self, task_id: &str) -> Result<(), EngineError> {
        if !plain(task_id, b"_") {
            return Ok(());
        }
        let url = format!("{}/invocations/{task_id}/cancel", self.admin);
        let reply = self.http.patch(url).send().await.map_err(unreachable)?;
        // One that ended, or is gone, has nothing to cancel.
        if matches!(reply.status(), StatusCode::NOT_FOUND | StatusCode::CONFLICT) {
            return Ok(());
        }
        ok(reply).await.map(drop)
    }

    async fn list(&self, owner: &str, cursor: Option<&str>) -> Result<EnginePage, EngineError> {
        let Some(pattern) = owner_pattern(owner).filter(|_| plain(&self.service, b"_")) else {
            return Ok(EnginePage::default());
        };
        let from: usize = cursor.and_then(|cursor| cursor.parse().ok()).unwrap_or(0);
        let rows = self
            .query(&format!(
                "SELECT {COLUMNS} FROM sys_invocation WHERE target_service_name = '{}' \
                 AND idempotency_key LIKE '{pattern}' ORDER BY created_at, id \
                 LIMIT {} OFFSET {from}",
                self.service,
                PAGE + 1
            ))
            .await?;
        let mut tasks = Vec::new();
        for row in rows.iter().take(PAGE).filter_map(Row::of) {
            if row.owner == owner {
                tasks.push(self.task(&row).await?);
            }
        }
        let next = (rows.len() > PAGE).then(|| (from + PAGE).to_string());
        Ok(EnginePage::new(tasks, next))
    }

    /// The rows `sql` selects, through the admin API.
    async fn query(&self, sql: &str) -> Result<Vec<Value>, EngineError> {
        let reply = self
            .http
            .post(format!("{}/query", self.admin))
            .header("accept", "application/json")
            .json(&json!({ "query": sql }))
            .send()
            .await
            .map_err(unreachable)?;
        let mut answer: Value = ok(reply).await?.json().await.map_err(unreachable)?;
        match answer.get_mut("rows").map(Value::take) {
            Some(Value::Array(rows)) => Ok(rows),
            _ => Err(EngineError::new(format!(
                "Restate's admin API answered {answer}"
            ))),
        }
    }
}

impl TaskEngine for RestateTasks {
    fn start<'a>(&'a self, task: &'a NewTask) -> BoxFuture<'a, Result<String, EngineError>> {
        Box::pin(self.start(task))
    }

    fn get<'a>(
        &'a self,
        task_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<EngineTask>, EngineError>> {
        Box::pin(self.get(task_id))
    }

    fn wait<'a>(&'a self, task_id: &'a str) -> BoxFuture<'a, Result<(), EngineError>> {
        Box::pin(self.wait(task_id))
    }

    fn cancel<'a>(&'a self, task_id: &'a str) -> BoxFuture<'a, Result<(), EngineError>> {
        Box::pin(self.cancel(task_id))
    }

    fn list<'a>(
        &'a self,
        owner: &'a str,
        cursor: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EnginePage, EngineError>> {
        Box::pin(self.list(owner, cursor))
    }
}

/// The reply, if it is a success; else what Restate said.
async fn ok(reply: Response) -> Result<Response, EngineError> {
    let status = reply.status();
    if status.is_success() {
        return Ok(reply);
    }
    let body = reply.text().await.unwrap_or_default();
    Err(EngineError::new(format!(
        "Restate answered {status}: {body}"
    )))
}

fn unreachable(error: reqwest::Error) -> EngineError {
    EngineError::new(format!("Restate cannot be reached: {error}"))
}
