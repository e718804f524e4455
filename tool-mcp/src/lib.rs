//! Serve a [`tool_core::ToolRegistry`] over the Model Context Protocol, on
//! [rmcp](https://docs.rs/rmcp), the official Rust SDK: the same tools that
//! answer OpenAI, Anthropic and Gemini reach any MCP client, over stdio or
//! streamable HTTP; and the other way round, another MCP server's tools in a
//! registry ([`mount`]).
//!
//! - `initialize` (and 2026-07-28's `server/discover`): the server's name
//!   and version, the tools capability (with `listChanged`), logging,
//!   resources and prompts (with `listChanged`) and completions when it
//!   serves them, and the tasks extension when a tool is `long_running`.
//! - `tools/list`: tool-core's MCP definitions
//!   ([`Provider::Mcp`](tool_core::provider::Provider::Mcp)), in pages of
//!   [`DEFAULT_PAGE_SIZE`], of the tools the caller may call (its scopes,
//!   and each tool's availability check).
//! - `tools/call`: through [`ToolRegistry::call`](tool_core::ToolRegistry::call).
//!   Arguments that do not fit, a denied call or the tool's own error are a
//!   result with `isError: true` and the registry's text, for the model to
//!   read; an unknown tool is JSON-RPC error -32602 (invalid params), as MCP
//!   specifies. Media parts are `image`, `audio`, `resource` and
//!   `resource_link` blocks; a tool with an output schema also gives
//!   `structuredContent`.
//! - Approval: a call of a [`Confirm`](tool_core::policy::ToolTier::Confirm) tool
//!   asks the person at the client through MCP elicitation when the client
//!   can be asked, else the server's hook ([`McpServer::with_approval`]),
//!   else the registry's; with none, it is denied with a text saying what
//!   to set, and the server warns at start of each such tool.
//! - Asking the client: what a tool asks while it runs
//!   ([`ToolContext::elicit`](tool_core::ToolContext::elicit), and
//!   [`sample`](tool_core::ToolContext::sample) and
//!   [`roots`](tool_core::ToolContext::roots)) reaches a client in a
//!   session as requests to it, and a client of 2026-07-28 as
//!   `input_required` rounds of the call, their answers carried in a
//!   sealed `requestState` ([`McpConfig::with_request_state_keys`](crate::McpConfig::with_request_state_keys)).
//! - Logging: what a tool writes with
//!   [`ToolContext::log`](tool_core::ToolContext::log) is sent as
//!   `notifications/message` at the level the client asked for
//!   (`logging/setLevel`, or a 2026-07-28 request's `_meta`).
//! - Resources and prompts ([`McpServer::with_resources`],
//!   [`McpServer::with_prompts`]): `resources/list`, `resources/read`,
//!   templates, subscriptions to a resource (2025-11-25's
//!   `resources/subscribe`, 2026-07-28's `subscriptions/listen`;
//!   [`McpServer::resource_updated`]), `prompts/list`, `prompts/get`, and
//!   `completion/complete` of their arguments.
//! - Progress: what a tool reports with
//!   [`ToolContext::progress`](tool_core::ToolContext::progress) is sent as
//!   `notifications/progress` when the request carried a `progressToken`.
//! - Cancellation: the client's `notifications/cancelled` cancels the
//!   call's [`ToolContext::cancellation`](tool_core::ToolContext::cancellation);
//!   a call cancelled before its tool started never starts.
//! - Tasks: a `long_running` call from a client that takes tasks is
//!   answered with a task at once; `tasks/get` reads its progress and
//!   result, `tasks/cancel` cancels it, and a result the application
//!   delivers ([`Pending::deliver`](tool_core::registry::Pending::deliver))
//!   completes it. Only its caller can read or cancel it. Both forms of
//!   tasks are served: the `io.modelcontextprotocol/tasks` extension
//!   (protocol 2026-07-28; the client declares the extension), and the
//!   tasks of protocol 2025-11-25 (the client sends `params.task`; then
//!   `tasks/result` waits for the result and `tasks/list` lists the
//!   caller's tasks; the server declares `capabilities.tasks` and each
//!   such tool's `execution.taskSupport: "optional"`). rmcp's model has
//!   only the extension, so the 2025-11-25 form is served by
//!   [`McpServer::serve_stdio`] and [`McpServer::serve_http`], which read
//!   its requests before rmcp does, not by [`McpServer::http_service`] or
//!   another rmcp transport. Tasks are kept in this process's memory, or
//!   in a store the replicas of a server share ([`McpConfig::with_store`](crate::McpConfig::with_store)),
//!   through any of which a task is then read, waited for and cancelled;
//!   or run and kept by an engine of durable execution
//!   ([`McpConfig::with_tasks`](crate::McpConfig::with_tasks), a
//!   [`TaskEngine`] such as Restate's), so that they go on when any
//!   replica stops.
//! - List changes: [`McpServer::replace_registry`] serves a new
//!   registry and sends `notifications/tools/list_changed`;
//!   [`McpServer::following`] does so for each change made through a
//!   [`RegistryHandle`](tool_core::toolset::RegistryHandle), a mounted
//!   server's included: a gateway. [`McpServer::replace_resources`] and
//!   [`McpServer::replace_prompts`] do the same for resources and prompts
//!   (`notifications/resources/list_changed`,
//!   `notifications/prompts/list_changed`). Each goes to every open
//!   session, and to each 2026-07-28 `subscriptions/listen` that asked
//!   for it.
//! - Mounting (feature `client`, on by default): [`mount::Mount`] connects
//!   to another MCP server with rmcp's client (a child process over stdio,
//!   or streamable HTTP), and puts its tools in a registry behind a handle,
//!   bounded and checked as model output is, kept as the server lists
//!   them, the server started again when its connection ends.
//! - Many processes: without HTTP sessions
//!   ([`http_config`]`().with_legacy_session_mode(false)`), any process
//!   answers any request, behind a load balancer without affinity.
//! - Security over HTTP: only a loopback `Host`, and a loopback `Origin`
//!   when a browser sends one ([`http_config`]); with
//!   [`McpConfig::with_bearer_auth`](crate::McpConfig::with_bearer_auth), a bearer token is required and its
//!   scopes are the caller's; with [`McpConfig::with_protected_resource`](crate::McpConfig::with_protected_resource),
//!   the server is an OAuth protected resource whose metadata and
//!   challenges lead a client to its authorization server. Stdio trusts
//!   the process that started the server.
//! - HTTP sessions: closed after [`DEFAULT_SESSION_IDLE_LIMIT`] without a
//!   request, at most [`DEFAULT_MAX_SESSIONS`] open
//!   ([`McpConfig::with_session_idle_limit`](crate::McpConfig::with_session_idle_limit),
//!   [`McpConfig::with_max_sessions`](crate::McpConfig::with_max_sessions)).
//! - Errors: serving over stdio or HTTP fails with one [`ServeError`].
//!
//! ```no_run
//! use tool_core::{tool, ToolContext, ToolRegistry};
//! use tool_mcp::McpServer;
//!
//! /// Add two numbers.
//! #[tool(read_only)]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), tool_mcp::ServeError> {
//!     let registry = ToolRegistry::<()>::new().with(Add);
//!     McpServer::new(registry, ToolContext::new(())).serve_stdio().await?;
//!     Ok(())
//! }
//! ```

mod asking;
mod error;
mod http;
#[cfg(feature = "client")]
pub mod mount;
mod prompts;
mod resources;
pub mod rmcp_types;
mod server;
mod tasks;
mod tools;

pub use error::ServeError;
pub use http::auth::{BearerTokens, TokenVerifier};
pub use http::front::MCP_PATH;
pub use http::protected_resource::ProtectedResource;
pub use http::sessions::{
    DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_LIMIT, HttpSessionError, HttpSessions,
};
pub use http::{LOOPBACK_ORIGINS, http_config};
pub use server::{DEFAULT_PAGE_SIZE, DEFAULT_TASK_TTL, McpConfig, McpServer};
pub use tasks::engine::{EngineError, EnginePage, EngineState, EngineTask, NewTask, TaskEngine};
pub use tasks::origin::TaskOrigin;
