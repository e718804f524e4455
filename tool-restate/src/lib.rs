//! A [`ToolRegistry`](tool_core::ToolRegistry) served as a
//! [Restate](https://restate.dev) service: each tool a handler of the same
//! name, each call a durable step that runs once; and a turn of an agent
//! loop as a Restate workflow ([`TurnWorkflow`]): the tool calls of a
//! model's response each a durable step, a call parked for approval, and
//! a tool's question to the person (`ctx.elicit`), a durable promise that
//! an approval or answer from anywhere resolves.
//!
//! ```no_run
//! use tokio::net::TcpListener;
//! use tool_core::{ToolContext, ToolRegistry, tool};
//! use tool_restate::RestateService;
//!
//! /// Charge a card.
//! #[tool(idempotent)]
//! async fn charge(ctx: &ToolContext, cents: u64) -> String {
//!     // The same on every attempt of the invocation: the key to give
//!     // the payment API, so that it charges once.
//!     let key = ctx.call_id().unwrap_or_default();
//!     format!("charged {cents} cents (key {key})")
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let registry = ToolRegistry::new().with(Charge);
//! let service = RestateService::new(registry, |invocation| {
//!     let caller = invocation.header("x-caller").unwrap_or("anyone");
//!     ToolContext::builder(()).caller(caller).build()
//! });
//! // Then register http://127.0.0.1:9080 with Restate's admin API, and
//! // call `POST <ingress>/Tools/charge` with `{"cents": 500}`.
//! let listener = TcpListener::bind("127.0.0.1:9080").await?;
//! service.serve(listener, std::future::pending()).await?;
//! # Ok(()) }
//! ```
//!
//! What a call through Restate does:
//!
//! - **The service's schemas are the tools'.** Each handler's input schema
//!   is its tool's, its description the tool's; its output is the
//!   [`ToolResult`](tool_core::ToolResult) in its stored form
//!   (`{"v":1,"output":{"text":"..."}}`), whose `structured` content has
//!   the tool's output schema, if it declares one. Restate publishes them
//!   but checks no request against them.
//! - **The registry calls the tool**, with
//!   [`ToolRegistry::call`](tool_core::ToolRegistry::call): its argument
//!   validation, policy and errors apply. A tool's error is a result like
//!   any other, for the model to read; the invocation succeeds with it.
//! - **The call is journaled** (`ctx.run`): an attempt that finds its
//!   result in the journal (a retry after the worker died, a replay)
//!   returns it without running the tool again, and calls sent with the
//!   same `idempotency-key` header are one invocation, run once.
//! - **The tool has a key for what it does outside**:
//!   [`ToolContext::call_id`](tool_core::ToolContext::call_id) is made
//!   from Restate's invocation id, so it is the same on every attempt and
//!   for every call with the same `idempotency-key`. (A context that
//!   names no [conversation](tool_core::context::ContextBuilder::conversation)
//!   is given the invocation as its conversation, as the registry makes
//!   such ids only within one.)
//! - **Handlers are named as the tools**, which Restate allows only of
//!   letters, digits and `_` (no `-`): a registry with another name is a
//!   [`DefinitionError`]; rename such a tool with
//!   [`Compose`](tool_core::toolset::Compose).
//! - **Retries follow the tool's metadata.** A worker can die between the
//!   tool's side effect and the journaling of its result. An
//!   [`idempotent`](tool_core::ToolMetadata::idempotent) tool is then run
//!   again, under Restate's retry policy, with the same key. Any other
//!   gets one attempt: its invocation is killed, ending as failed, rather
//!   than risk doing the side effect twice.
//! - **A cancelled invocation cancels the tool's token.** Cancel it with
//!   Restate's admin API (`PATCH <admin>/invocations/<id>/cancel`, or the
//!   `restate` CLI): the running tool's
//!   [`ToolContext::cancellation`](tool_core::ToolContext::cancellation)
//!   (a child of the one the context function gave) is cancelled at once,
//!   and a tool that watches it stops. The invocation then ends as
//!   Restate's cancelled ones do, failed with code 409, its message saying
//!   what the tool ended with: "the call to tool `wait` was cancelled
//!   while it ran: its Restate invocation was cancelled, and the tool was
//!   told to stop; it ended with: ...". Restate tells a handler of a
//!   cancellation only at a durable await, which a running `ctx.run` step
//!   is not; so the step is awaited beside a signal no one resolves, whose
//!   await ends only with the cancellation (it adds nothing to the
//!   journal). A tool that ignores its token runs to its end, or its time
//!   limit, as with any caller's cancellation. The signal is awaited up to
//!   the tool's limit plus half a minute, within the handler's inactivity
//!   timeout (below), past which its await would suspend the attempt; a
//!   call that waited longer for its turn (a tool not `concurrency_safe`,
//!   busy with other calls) hears of a cancellation only once it ends.
//! - **A tool's question to the person** (`ctx.elicit`, [`tool_core::elicit`]):
//!   in a [`TurnWorkflow`], a durable promise of the workflow that its
//!   `answer` handler resolves, from anywhere, after any restart; the
//!   tool is then run again from its start with the answers given (see
//!   there). In the tool service, a call is one step, and its tool's
//!   question goes where the registry sends it, as outside Restate (the
//!   context's asker, or the registry's
//!   [questions](tool_core::ToolRegistry::questions)), while the step runs.
//! - **Restate waits for a tool as long as the registry lets it run.**
//!   Restate stops an invocation that sends it nothing for its handler's
//!   `inactivity_timeout` (asking it to suspend), then its `abort_timeout`
//!   (ending the attempt; 1 and 10 minutes unless set); a running step
//!   sends nothing. Each tool's handler sets them from the tool's time
//!   limit ([`ToolRegistry::timeout`](tool_core::ToolRegistry::timeout):
//!   its `timeout`, else the registry's default; for an `asks` tool, plus
//!   three waits of 10 minutes for the person's answers, which tool-core
//!   gives back to its limit): the inactivity timeout is the limit plus a
//!   minute, the abort timeout a minute more (a turn's `run` handler, the
//!   slowest tool's). So Restate never stops a tool the registry still
//!   lets run; a tool past its limit ends as it does outside Restate, with
//!   tool-core's error ("tool `slow` did not finish within 1s and was
//!   stopped"), journaled; and a tool that cannot be stopped (a plain
//!   function that never returns) is aborted by Restate two minutes past
//!   its limit, not waited for forever.
//! - **A `long_running` tool's call is waited for**, in the step: the
//!   registry answers such a call at once with a pending result whose id
//!   only this worker knows, so the handler answers the call's own result
//!   instead.
//!
//! With the feature `mcp`, `RestateTasks` runs
//! [tool-mcp](https://docs.rs/tool-mcp)'s MCP tasks as invocations of
//! this service (`McpConfig::with_tasks`): a task's id is its invocation's
//! id, its owner is kept in the invocation's idempotency key, and every
//! `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` asks
//! Restate, so a task goes on, and is answered for, whichever replica of
//! the MCP server stops.

mod cancel;
mod definition;
mod handler;
mod invocation;
#[cfg(feature = "mcp")]
mod mcp;
mod retry;
mod service;
mod timeout;
mod turn;

pub use definition::DefinitionError;
pub use invocation::Invocation;
#[cfg(feature = "mcp")]
pub use mcp::{CALLER_HEADER, RestateTasks, SCOPES_HEADER};
pub use service::RestateService;
pub use turn::TurnWorkflow;
