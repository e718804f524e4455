//! One tool of a mounted server, as a registry tool: its definition as the
//! server listed it (bounded), its annotations as metadata, and a call
//! that goes to the server and comes back as a result, whatever happens
//! on the way.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, ContentBlock,
    CreateTaskResult, ProgressNotificationParam, ServerResult, Tool as Listed,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use serde_json::Value;
use tool_core::provider::mcp::tool_result;
use tool_core::{BoxFuture, Tool, ToolContext, ToolError, ToolMetadata, ToolResult};

use super::asked;
use super::connection::{Connection, ServerLink};
use super::heard::MAX_MESSAGE_BYTES;
use super::input_required::{Answered, Rounds};
use super::oversized;
use super::progress::{Listening, Reports};
use super::screen::{CallResult, ListedTool, Screens};
use super::task_call::call_as_task;
use super::task_follow::{Ended, follow_task};
use super::unfinished::{GiveUp, Unfinished};

/// The bounds a mount puts on what a server sends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(crate) description_bytes: usize,
    pub(crate) result_bytes: usize,
    /// The most tools a listing may hold.
    pub(crate) tools: usize,
    /// The largest input schema, in bytes of its JSON.
    pub(crate) schema_bytes: usize,
    /// The deepest input schema.
    pub(crate) schema_depth: usize,
}

/// A tool of a mounted server.
pub(crate) struct RemoteTool {
    name: String,
    description: String,
    input_schema: Value,
    output_schema: Option<Value>,
    metadata: ToolMetadata,
    connection: Arc<Connection>,
    max_result_bytes: usize,
    /// The application's checks, which each result goes through.
    screens: Arc<Screens>,
    /// The server listed the tool as run by tasks: it is called as one.
    as_task: bool,
}

impl RemoteTool {
    /// The tool `listed` by the server, or why it cannot be mounted (what
    /// the registry checks when it is added aside: name, schemas): over
    /// the mount's bounds, or refused by its screens, which see it within
    /// them.
    pub(crate) fn new(
        listed: &Listed,
        connection: &Arc<Connection>,
        limits: Limits,
        screens: &Arc<Screens>,
    ) -> Result<Self, String> {
        let max_description_bytes = limits.description_bytes;
        let description = listed.description.as_deref().unwrap_or_default();
        if description.len() > max_description_bytes {
            return Err(format!(
                "its description is {} bytes, over the mount's limit of {max_description_bytes}",
                description.len()
            ));
        }
        let input_schema = Value::Object((*listed.input_schema).clone());
        let size = json_size(&input_schema);
        let (max_bytes, max_depth) = (limits.schema_bytes, limits.schema_depth);
        if size > max_bytes {
            return Err(format!(
                "its input schema is {size} bytes, over the mount's limit of {max_bytes}"
            ));
        }
        let depth = depth(&input_schema);
        if depth > max_depth {
            return Err(format!(
                "its input schema is nested {depth} deep, over the mount's limit of {max_depth}"
            ));
        }
        let output_schema =
            (listed.output_schema.as_ref()).map(|schema| Value::Object((**schema).clone()));
        let mut description = description.to_owned();
        screens.tool(&mut ListedTool {
            server: &connection.server,
            name: &listed.name,
            title: listed.title.as_deref(),
            description: &mut description,
            input_schema: &input_schema,
            output_schema: output_schema.as_ref(),
        })?;
        let annotations = listed.annotations.clone().unwrap_or_default();
        let as_task = connection.tasks.contains(&listed.name);
        let read_only = annotations.read_only_hint.unwrap_or(false);
        let metadata = ToolMetadata {
            title: listed
                .title
                .clone()
                .or_else(|| annotations.title.clone())
                .map(Into::into),
            read_only,
            destructive: annotations.destructive_hint.unwrap_or(true),
            idempotent: annotations.idempotent_hint.unwrap_or(false),
            open_world: annotations.open_world_hint.unwrap_or(true),
            // The server runs its calls; one that changes nothing may run
            // beside others here too.
            concurrency_safe: read_only,
            // Its result comes when the server's task ends.
            long_running: as_task,
            // The server may ask the person while the tool runs
            // (`questions.rs`): each call can wait for an answer.
            asks: true,
            ..ToolMetadata::DEFAULT
        };
        Ok(Self {
            name: listed.name.to_string(),
            description,
            input_schema,
            output_schema,
            metadata,
            connection: Arc::clone(connection),
            max_result_bytes: limits.result_bytes,
            screens: Arc::clone(screens),
            as_task,
        })
    }

    /// The call, on the server: its progress reported to `ctx` as it
    /// comes; dropped before its answer (cancelled, out of time), the
    /// server is sent `notifications/cancelled`. `shown` is the name the
    /// model called the tool by, which every text it reads names.
    async fn call_remote<Ctx: Send + Sync>(
        &self,
        ctx: &ToolContext<Ctx>,
        shown: &str,
        args: Value,
    ) -> ToolResult {
        let ServerLink { peer, reports } = match self.connection.link() {
            Ok(link) => link,
            Err(reason) => {
                return ToolResult::from(ToolError::Unavailable {
                    tool: shown.to_owned(),
                    reason,
                });
            }
        };
        if self.as_task {
            // Boxed: the task's requests would make every call's future
            // several times larger, and each call moves it.
            return match Box::pin(call_as_task(&peer, ctx, &self.name, args)).await {
                Ok(ServerResult::CreateTaskResult(created)) => {
                    self.follow(&peer, ctx, shown, created).await
                }
                Ok(answer) => self.read_answer(shown, answer),
                Err(error) => ToolResult::error(self.failed(shown, &error)),
            };
        }
        let mut params = CallToolRequestParams::new(self.name.clone());
        if let Value::Object(arguments) = args {
            params = params.with_arguments(arguments);
        }
        // Over 2026-07-28, a server that needs the person's answers first
        // says so in its answer, and is called again with them.
        let mut rounds = Rounds::default();
        loop {
            let answered = self.send(ctx, &peer, &reports, params.clone()).await;
            match answered {
                Ok(ServerResult::InputRequiredResult(needed)) => {
                    let server = &self.connection.server;
                    let takes = self.connection.desk.takes;
                    match rounds.answer(ctx, (server, shown), takes, needed).await {
                        Ok(Answered { responses, state }) => {
                            params.input_responses = responses;
                            params.request_state = state;
                        }
                        Err(why) => return ToolResult::error(why),
                    }
                }
                Ok(ServerResult::CreateTaskResult(created)) => {
                    return self.follow(&peer, ctx, shown, created).await;
                }
                Ok(answer) => return self.read_answer(shown, answer),
                Err(error) => return ToolResult::error(self.failed(shown, &error)),
            }
        }
    }

    /// The call's result once the task the server made of it ends.
    async fn follow<Ctx: Send + Sync>(
        &self,
        peer: &Peer<RoleClient>,
        ctx: &ToolContext<Ctx>,
        shown: &str,
        created: CreateTaskResult,
    ) -> ToolResult {
        let named = (&*self.connection.server, shown);
        // Boxed, as a task's call is: most calls are not.
        let takes = self.connection.desk.takes;
        match Box::pin(follow_task(peer, ctx, named, takes, created)).await {
            Ok(answer) => self.read_answer(shown, answer),
            Err(Ended::Said(why)) => ToolResult::error(why),
            // The server's own words, screened as its refusals are.
            Err(Ended::Failed(message)) => {
                ToolResult::error(match self.screen_refusal(shown, &message) {
                    Ok(message) => format!(
                        "the MCP server `{}`'s task for `{shown}` failed: {message}",
                        self.connection.server
                    ),
                    Err(text) => text,
                })
            }
        }
    }

    /// One `tools/call` of the tool with `params`, and its answer: its
    /// progress reported to `ctx`, and the server's questions put to the
    /// person behind it, as they come.
    async fn send<Ctx: Send + Sync>(
        &self,
        ctx: &ToolContext<Ctx>,
        peer: &Peer<RoleClient>,
        reports: &Arc<Reports>,
        params: CallToolRequestParams,
    ) -> Result<ServerResult, ServiceError> {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        // Relayed only to someone who hears them; expected before the
        // request goes, as the server may report before the send ends.
        let expecting = ctx.progress_heard().then(|| reports.expect());
        // Seated before the request goes, as the server may ask at once.
        let (seated, mut questions) = self.connection.desk.seat();
        let handle = peer
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await?;
        seated.sent_as(&handle.id);
        let unanswered = Unfinished::new(&handle.peer, GiveUp::Request(handle.id.clone()));
        let mut answer = handle.rx;
        let mut progress =
            expecting.map(|expecting| expecting.listen(handle.progress_token.clone()));
        let answered = loop {
            tokio::select! {
                biased;
                Some(report) = next_report(&mut progress) => report_to(ctx, &report),
                // One question at a time, as a person answers them; the
                // call's answer and reports wait meanwhile.
                Some(asked) = questions.recv() => {
                    let takes = self.connection.desk.takes;
                    let answer = asked::answer(ctx, takes, asked.request).await;
                    let _ = asked.reply.send(answer);
                }
                answered = &mut answer => break answered,
            }
        };
        drop(seated);
        // Each report sent before the answer was read before it, and
        // waits in the queue.
        if let Some(progress) = &mut progress {
            while let Some(report) = progress.try_next() {
                report_to(ctx, &report);
            }
        }
        unanswered.done();
        answered.unwrap_or(Err(ServiceError::TransportClosed))
    }

    /// The server's answer to a call, as a registry's result.
    fn read_answer(&self, shown: &str, answer: ServerResult) -> ToolResult {
        match answer {
            ServerResult::CallToolResult(result) => self.read_result(shown, result),
            _ => ToolResult::error(format!(
                "the MCP server `{}` answered the call of `{shown}` with something else than a result",
                self.connection.server
            )),
        }
    }

    /// The server's result, bounded, then through the mount's screens, as
    /// a registry's: a single text read as it is (the commonest answer),
    /// anything else through [`tool_result`].
    fn read_result(&self, shown: &str, mut result: CallToolResult) -> ToolResult {
        let (server, limit) = (&self.connection.server, self.max_result_bytes);
        let size = match single_text(&mut result) {
            Some(text) => text.len(),
            None => json_size(&result),
        };
        if size > limit {
            return ToolResult::error(format!(
                "the MCP server `{server}` answered `{shown}` with {size} bytes, over the mount's limit of {limit}"
            ));
        }
        if let Err(text) = self.screen(shown, &mut result) {
            return ToolResult::error(text);
        }
        if let Some(text) = single_text(&mut result) {
            return ToolResult::text(std::mem::take(text));
        }
        let sent = serde_json::to_value(&result).unwrap_or_default();
        tool_result(&sent).unwrap_or_else(|why| {
            ToolResult::error(format!(
                "the MCP server `{server}` answered `{shown}` with a result that is not MCP's: {why}"
            ))
        })
    }

    /// `result` through the mount's screens.
    fn screen(&self, shown: &str, result: &mut CallToolResult) -> Result<(), String> {
        if self.screens.is_empty() {
            return Ok(());
        }
        self.screens.result(&mut CallResult {
            server: &self.connection.server,
            tool: &self.name,
            called_as: shown,
            result,
        })
    }

    /// The server's refusal of a call (its JSON-RPC error's message)
    /// through the mount's screens, as an error result holding it: the
    /// message, or the text a screen put in its place.
    fn screen_refusal(&self, shown: &str, message: &str) -> Result<String, String> {
        if self.screens.is_empty() {
            return Ok(message.to_owned());
        }
        let mut refusal = CallToolResult::error(vec![ContentBlock::text(message)]);
        self.screen(shown, &mut refusal)?;
        let texts: Vec<String> = refusal
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|text| text.text.clone()))
            .collect();
        Ok(texts.join("\n"))
    }

    /// What the model reads when a call of `shown` fails on the way.
    fn failed(&self, shown: &str, error: &ServiceError) -> String {
        let server = &self.connection.server;
        match error {
            ServiceError::McpError(error) if oversized::is_too_large(error) => format!(
                "the MCP server `{server}` answered `{shown}` with a message over \
                 {MAX_MESSAGE_BYTES} bytes, too large to read"
            ),
            ServiceError::McpError(error) => match self.screen_refusal(shown, &error.message) {
                Ok(message) => {
                    format!("the MCP server `{server}` refused to call `{shown}`: {message}")
                }
                Err(text) => text,
            },
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                self.connection.closed_during(shown)
            }
            ServiceError::Timeout { timeout } => format!(
                "the MCP server `{server}` did not answer the call of `{shown}` within {timeout:?}"
            ),
            other => format!("the call of `{shown}` on the MCP server `{server}` failed: {other}"),
        }
    }
}

/// The text of `result` when it is a single text and nothing else (the
/// commonest answer), which the model reads as it is.
fn single_text(result: &mut CallToolResult) -> Option<&mut String> {
    if result.is_error == Some(true) || result.structured_content.is_some() {
        return None;
    }
    match result.content.as_mut_slice() {
        [ContentBlock::Text(text)] => Some(&mut text.text),
        _ => None,
    }
}

/// How deep `value` is nested: an object or array one level, each value
/// in it one more.
fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1)];
    while let Some((value, depth)) = stack.pop() {
        let inner: Vec<&Value> = match value {
            Value::Array(values) => values.iter().collect(),
            Value::Object(fields) => fields.values().collect(),
            _ => continue,
        };
        deepest = deepest.max(depth);
        stack.extend(inner.into_iter().map(|inner| (inner, depth + 1)));
    }
    deepest
}

/// The length of `value` as compact JSON, counted without writing it out.
fn json_size(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The next progress report heard for the call, if anyone hears them;
/// otherwise never.
async fn next_report(progress: &mut Option<Listening>) -> Option<ProgressNotificationParam> {
    match progress {
        Some(progress) => progress.next().await,
        None => std::future::pending().await,
    }
}

/// A server's progress report, as the call's own.
fn report_to<Ctx>(ctx: &ToolContext<Ctx>, report: &ProgressNotificationParam) {
    ctx.progress(report.progress, report.total, report.message.as_deref());
}

impl<Ctx: Send + Sync + 'static> Tool<Ctx> for RemoteTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        self.input_schema.clone()
    }

    fn output_schema(&self) -> Option<Value> {
        self.output_schema.clone()
    }

    fn metadata(&self) -> ToolMetadata {
        self.metadata.clone()
    }

    fn check_available(&self, _ctx: &ToolContext<Ctx>) -> Result<(), String> {
        self.connection.link().map(drop)
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext<Ctx>, args: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let shown = ctx.tool_name().unwrap_or(&self.name);
            // Dropping the call sends the server `notifications/cancelled`.
            tokio::select! {
                result = self.call_remote(ctx, shown, args) => result,
                () = ctx.cancellation().cancelled() => ToolResult::error(format!(
                    "the call of `{shown}` was cancelled"
                )),
            }
        })
    }
}
