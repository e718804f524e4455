//! A [`ToolRegistry`](tool_core::ToolRegistry) served as a
//! [Restate](https://restate.dev) service: each tool a handler of the same
//! name, each call a durable step that runs once; and a turn of an agent
//! loop as a Restate workflow ([`TurnWorkflow`]): the tool calls of a
//! model's response each a durable step, a call parked for approval a
//! durable promise that an approval from anywhere resolves.
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

mod definition;
mod handler;
mod invocation;
#[cfg(feature = "mcp")]
mod mcp;
mod retry;
mod service;
mod turn;

pub use definition::DefinitionError;
pub use invocation::Invocation;
#[cfg(feature = "mcp")]
pub use mcp::{CALLER_HEADER, RestateTasks, SCOPES_HEADER};
pub use service::RestateService;
pub use turn::TurnWorkflow;
