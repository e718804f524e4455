//! A server's settings, in one value: what it says of itself, how it lists
//! tools, who may call it over HTTP, how long sessions and tasks live, where
//! tasks are kept, and the keys that seal 2026-07-28's `requestState`.
//! Made once, it is given to each server that should be set alike (the
//! replicas of one service) with [`McpServer::with_config`](crate::McpServer::with_config).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{Implementation, RequestStateCodec};
use rmcp::task_manager::DEFAULT_TASK_TTL_MS;
use tool_core::store::Store;
use tool_core::toolset::AutoDefer;

use crate::error::ServeError;
use crate::http::auth::TokenVerifier;
use crate::http::protected_resource::ProtectedResource;
use crate::http::sessions::{DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_LIMIT};
use crate::tasks::engine::TaskEngine;

/// The number of tools in one page of `tools/list`: 100. A registry of
/// that many tools or fewer is listed in one answer, without a
/// `nextCursor`.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How long a task is kept unless [`McpConfig::with_task_ttl`] says
/// otherwise: five minutes (rmcp's).
pub const DEFAULT_TASK_TTL: Duration = Duration::from_millis(DEFAULT_TASK_TTL_MS);

/// A server's settings: every one has a default, and each `with_` method
/// gives the same settings with one changed. Cloning is cheap; what is
/// shared (the token verifier, the store, the keys) is shared by the
/// clones.
///
/// ```
/// use std::time::Duration;
/// use tool_core::store::MemoryStore;
/// use tool_core::{ToolContext, ToolRegistry};
/// use tool_mcp::{BearerTokens, McpConfig, McpServer};
///
/// let store = MemoryStore::new();
/// let config = McpConfig::new()
///     .with_server_info("notes", "1.0.0")
///     .with_instructions("Notes, kept for the user.")
///     .with_bearer_auth(BearerTokens::new().with_token("s3cret", ["notes:read"]))
///     .with_store(store.clone())
///     .with_task_ttl(Duration::from_secs(60));
/// // Two replicas, set alike.
/// let first = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(())).with_config(config.clone());
/// let second = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(())).with_config(config);
/// assert_eq!(first.config().task_ttl(), Duration::from_secs(60));
/// # drop(second);
/// ```
#[derive(Clone)]
pub struct McpConfig {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    /// Checks HTTP requests' bearer tokens; none when unauthenticated.
    pub(crate) verifier: Option<Arc<dyn TokenVerifier>>,
    /// What the server publishes as an OAuth protected resource.
    pub(crate) resource: Option<Arc<ProtectedResource>>,
    pub(crate) session_idle_limit: Duration,
    pub(crate) max_sessions: usize,
    /// The store tasks are kept in, shared with other replicas; this
    /// process's memory when none.
    pub(crate) store: Option<Arc<dyn Store>>,
    /// What runs and keeps tasks instead of the store, if anything.
    pub(crate) engine: Option<Arc<dyn TaskEngine>>,
    pub(crate) task_ttl_ms: u64,
    /// Seals and opens the `requestState` of 2026-07-28's rounds.
    pub(crate) request_state: Arc<RequestStateCodec>,
    pub(crate) search: bool,
    /// Past a threshold, the tools that wait beside those marked.
    pub(crate) auto_defer: Option<AutoDefer<'static>>,
}

impl Default for McpConfig {
    fn default() -> Self {
        Self {
            info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            instructions: None,
            page_size: DEFAULT_PAGE_SIZE,
            verifier: None,
            resource: None,
            session_idle_limit: DEFAULT_SESSION_IDLE_LIMIT,
            max_sessions: DEFAULT_MAX_SESSIONS,
            store: None,
            engine: None,
            task_ttl_ms: DEFAULT_TASK_TTL_MS,
            request_state: Arc::new(process_key()),
            search: false,
            auto_defer: None,
        }
    }
}

impl McpConfig {
    /// The defaults: the server says it is `tool-mcp` at this crate's
    /// version, lists [`DEFAULT_PAGE_SIZE`] tools a page, takes any caller,
    /// keeps [`DEFAULT_MAX_SESSIONS`] HTTP sessions idle at most
    /// [`DEFAULT_SESSION_IDLE_LIMIT`], and its tasks in this process's
    /// memory for [`DEFAULT_TASK_TTL`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers `initialize` with this name and version (MCP's
    /// `serverInfo`).
    #[must_use]
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// Answers `initialize` with these instructions, which clients may give
    /// the model.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Lists at most `size` tools in one `tools/list` answer (at least
    /// one); the next page is asked for with the answer's `nextCursor`.
    ///
    /// ```
    /// use tool_mcp::McpConfig;
    ///
    /// assert_eq!(McpConfig::new().with_page_size(20).page_size(), 20);
    /// assert_eq!(McpConfig::new().with_page_size(0).page_size(), 1);
    /// ```
    #[must_use]
    pub fn with_page_size(mut self, size: usize) -> Self {
        self.page_size = size.max(1);
        self
    }

    /// Shows each caller the tools up front and, of those that wait to be
    /// found ([`ToolMetadata::defer`]), only those its searches found: a
    /// tool whose result points to tools (a [`Part::Tool`], such as
    /// `tool_core::search::SearchTool`'s) adds them to its caller's
    /// `tools/list`, and the caller's session is told
    /// `notifications/tools/list_changed`. A caller is its bearer token, or
    /// else its session (stdio's one client is one caller). Without it,
    /// every tool is listed.
    ///
    /// [`ToolMetadata::defer`]: tool_core::ToolMetadata::defer
    /// [`Part::Tool`]: tool_core::output::Part::Tool
    #[must_use]
    pub fn with_search(mut self) -> Self {
        self.search = true;
        self
    }

    /// Serves with search ([`McpConfig::with_search`]), and past a
    /// threshold defers tools without their being marked: when the
    /// registry holds more than 30 tools besides the search, or their
    /// definitions weigh more than 10,000 tokens ([`AutoDefer::new`]),
    /// `tools/list` shows each caller the search, the tools `auto` keeps
    /// (the first five not marked `defer`, unless set) and those its
    /// searches found. A registry under the threshold is listed as with
    /// search alone. [`AutoDefer`] says the rule, the same a provider's
    /// listing follows.
    ///
    /// ```
    /// use tool_core::toolset::AutoDefer;
    /// use tool_mcp::McpConfig;
    ///
    /// let config = McpConfig::new().with_auto_defer(AutoDefer::new().named(&["get_weather"]));
    /// # drop(config);
    /// ```
    #[must_use]
    pub fn with_auto_defer(mut self, auto: AutoDefer<'static>) -> Self {
        self.search = true;
        self.auto_defer = Some(auto);
        self
    }

    /// Requires, over HTTP, an `Authorization: Bearer` token that
    /// `verifier` accepts ([`BearerTokens`](crate::BearerTokens) for a
    /// fixed list): a request without one, or with one it refuses, is
    /// answered `401 Unauthorized` before any MCP processing, with a
    /// challenge that names no OAuth metadata and says a static token is
    /// expected (`WWW-Authenticate: Bearer error_description="this server
    /// takes a static bearer token, not OAuth: ..."`; for a token behind an
    /// authorization server, see [`McpConfig::with_protected_resource`]).
    /// The calls of an accepted request run with exactly the scopes the
    /// token grants, in place of the scopes of the server's context (its
    /// state is kept): a tool that requires a scope the token lacks is
    /// refused with an `isError` result.
    ///
    /// Over stdio there is no token: the server trusts the process that
    /// started it, and calls run with the context's own scopes.
    ///
    /// ```
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    /// use tool_mcp::{BearerTokens, McpConfig, McpServer};
    ///
    /// /// Read a file.
    /// #[tool(read_only, scopes = ["files:read"])]
    /// fn read(path: String) -> String {
    ///     path
    /// }
    ///
    /// let tokens = BearerTokens::new()
    ///     .with_token("reader-secret", ["files:read"])
    ///     .with_token("guest-secret", Vec::<String>::new());
    /// let server = McpServer::new(ToolRegistry::<()>::new().with(Read), ToolContext::new(()))
    ///     .with_config(McpConfig::new().with_bearer_auth(tokens));
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_bearer_auth(mut self, verifier: impl TokenVerifier) -> Self {
        self.verifier = Some(Arc::new(verifier));
        self
    }

    /// Serves as an OAuth 2.1 protected resource, over HTTP: `verifier`
    /// checks the access tokens `resource`'s authorization servers issue (a
    /// JWT checked against their keys, or token introspection), as
    /// [`McpConfig::with_bearer_auth`] does, and
    /// [`McpServer::serve_http`](crate::McpServer::serve_http) also
    ///
    /// - serves `resource`'s metadata (RFC 9728) at
    ///   `/.well-known/oauth-protected-resource` and at that path followed
    ///   by the resource's path (`/.well-known/oauth-protected-resource/mcp`),
    ///   to anyone, as JSON;
    /// - answers a request without a valid token `401 Unauthorized` with
    ///   `WWW-Authenticate: Bearer resource_metadata="<metadata URL>"`,
    ///   and `scope="<the resource's scopes>"` when it has some
    ///   (`error="invalid_token"` first for a token sent but refused), so
    ///   that a client following the MCP authorization specification
    ///   finds the authorization server and asks the user to sign in;
    /// - answers a `tools/call` of a tool that requires a scope the token
    ///   lacks `403 Forbidden` with `error="insufficient_scope"` and, as
    ///   `scope`, the token's scopes and the missing ones, so that the
    ///   client asks for them (step-up authorization). Without a protected
    ///   resource such a call is an `isError` result: a static token
    ///   cannot be stepped up.
    ///
    /// ```
    /// use tool_mcp::{McpConfig, ProtectedResource};
    ///
    /// # fn verify_jwt(_: &str) -> Option<Vec<String>> { None }
    /// let resource = ProtectedResource::new("https://tools.example.com/mcp")
    ///     .authorization_server("https://auth.example.com")
    ///     .scopes(["files:read", "files:write"]);
    /// // The scopes of a valid token, from its `scope` claim.
    /// let config = McpConfig::new().with_protected_resource(resource, |token: &str| verify_jwt(token));
    /// # drop(config);
    /// ```
    #[must_use]
    pub fn with_protected_resource(
        mut self,
        resource: ProtectedResource,
        verifier: impl TokenVerifier,
    ) -> Self {
        self.verifier = Some(Arc::new(verifier));
        self.resource = Some(Arc::new(resource));
        self
    }

    /// Closes an HTTP session that has gone `limit` without a request and
    /// has none running ([`DEFAULT_SESSION_IDLE_LIMIT`] otherwise): the
    /// client's next request with its `Mcp-Session-Id` is `404 Not Found`,
    /// and the client starts a new session.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_mcp::McpConfig;
    ///
    /// let config = McpConfig::new()
    ///     .with_session_idle_limit(Duration::from_secs(60))
    ///     .with_max_sessions(200);
    /// assert_eq!(config.session_idle_limit(), Duration::from_secs(60));
    /// assert_eq!(config.max_sessions(), 200);
    /// ```
    #[must_use]
    pub fn with_session_idle_limit(mut self, limit: Duration) -> Self {
        self.session_idle_limit = limit;
        self
    }

    /// Keeps at most `max` HTTP sessions open (at least one;
    /// [`DEFAULT_MAX_SESSIONS`] otherwise). At the limit, a new
    /// `initialize` closes the session that has gone longest without a
    /// request among those with none running, or is refused `503 Service
    /// Unavailable` when every session has one running. Clients of
    /// protocol 2026-07-28 and servers without sessions
    /// ([`http_config`](crate::http_config)`().with_legacy_session_mode(false)`)
    /// open none.
    #[must_use]
    pub fn with_max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max.max(1);
        self
    }

    /// Keeps tasks in `store`, shared with the other processes (replicas)
    /// that serve the same tools on it, such as the `tool-redis` crate's
    /// `RedisStore`: a task started on one replica is read (`tasks/get`,
    /// `tasks/result`, `tasks/list`), and cancelled, through any, with its
    /// status message; a cancel asked on one stops the run on the replica
    /// that runs it.
    ///
    /// Each replica says in the store that it lives (a `Lease`); the task
    /// of a replica that stopped (killed, crashed, cut off) is taken over
    /// by the first replica asked about it. It ends as its call ended when
    /// the registry keeps its calls in the same store and the call had
    /// ended or been given its result; else a tool marked `idempotent` is
    /// run once more (see
    /// [`McpServer::with_rerun_context`](crate::McpServer::with_rerun_context)),
    /// and any other task fails, saying that its process stopped. A task
    /// never runs twice for a tool not marked `idempotent`, and never stays
    /// `working` past its time to live.
    ///
    /// Give the registry the same store ([`RegistryBuilder::store`](tool_core::registry::RegistryBuilder::store)) so
    /// that the calls tasks follow, their results delivered and their
    /// approvals are shared too. Serve stateless HTTP
    /// ([`http_config`](crate::http_config)`().with_legacy_session_mode(false)`)
    /// with bearer tokens ([`McpConfig::with_bearer_auth`]) so that a
    /// client's requests may go to any replica as the same caller: without
    /// tokens, a task belongs to its HTTP session, which only the process
    /// that made it knows.
    ///
    /// By default tasks are kept in this process's memory.
    ///
    /// ```
    /// use tool_core::store::MemoryStore;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::{McpConfig, McpServer};
    ///
    /// // Two servers sharing one store: in production, two processes on
    /// // one Redis (`tool_redis::RedisStore`).
    /// let store = MemoryStore::new();
    /// let config = McpConfig::new().with_store(store.clone());
    /// let registry = || ToolRegistry::<()>::builder().store(store.clone()).build();
    /// let first = McpServer::new(registry(), ToolContext::new(())).with_config(config.clone());
    /// let second = McpServer::new(registry(), ToolContext::new(())).with_config(config);
    /// # drop((first, second));
    /// ```
    #[must_use]
    pub fn with_store(mut self, store: impl Store) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// Runs tasks on `engine`, which keeps them, rather than on this
    /// process with their records in the store: a task's call is sent to
    /// the engine, and every `tasks/get`, `tasks/result`, `tasks/cancel`
    /// and `tasks/list` asks the engine, so any replica with the same
    /// engine serves any task, and a task goes on when the replica that
    /// started it stops. Each task still belongs to its caller: the engine
    /// keeps the caller beside the task, and another caller is told the
    /// task does not exist.
    ///
    /// The tool runs where the engine runs it, in the context the engine's
    /// side makes: what this server's context gives a call (its approver,
    /// the questions a tool asks, its progress) does not reach it, and a
    /// call whose arguments do not fit is a task that completes with the
    /// registry's error. A tool this server does not know is answered at
    /// once, as without an engine. How long an ended task is kept is the
    /// engine's to say; [`McpConfig::with_task_ttl`] is only what tasks
    /// report. Tasks are then kept by the engine alone: a store given with
    /// [`McpConfig::with_store`] holds none of them.
    ///
    /// With Restate: `tool_restate::RestateTasks` (its feature `mcp`).
    ///
    /// ```
    /// # use tool_core::BoxFuture;
    /// # use tool_mcp::{EngineError, EnginePage, EngineTask, NewTask};
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::{McpConfig, McpServer, TaskEngine};
    ///
    /// # #[derive(Debug)]
    /// # struct MyEngine;
    /// # impl TaskEngine for MyEngine {
    /// #     fn start<'a>(&'a self, _: &'a NewTask) -> BoxFuture<'a, Result<String, EngineError>> { Box::pin(async { Err(EngineError::new("no")) }) }
    /// #     fn get<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<EngineTask>, EngineError>> { Box::pin(async { Ok(None) }) }
    /// #     fn wait<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<(), EngineError>> { Box::pin(async { Ok(()) }) }
    /// #     fn cancel<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<(), EngineError>> { Box::pin(async { Ok(()) }) }
    /// #     fn list<'a>(&'a self, _: &'a str, _: Option<&'a str>) -> BoxFuture<'a, Result<EnginePage, EngineError>> { Box::pin(async { Ok(EnginePage::default()) }) }
    /// # }
    /// let config = McpConfig::new().with_tasks(MyEngine);
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_config(config);
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_tasks(mut self, engine: impl TaskEngine) -> Self {
        self.engine = Some(Arc::new(engine));
        self
    }

    /// Keeps each task at most `ttl` from its start, and for as long again
    /// after its end: a task still working then fails (`task expired: TTL
    /// elapsed before completion`), and an ended one is forgotten. It is
    /// the time of every task a client asks no time for (the tasks
    /// extension's clients cannot); a 2025-11-25 client may ask a shorter
    /// one (at least a second). Default: [`DEFAULT_TASK_TTL`].
    #[must_use]
    pub fn with_task_ttl(mut self, ttl: Duration) -> Self {
        self.task_ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        self
    }

    /// Seals the `requestState` of 2026-07-28's `input_required` rounds
    /// (what a tool asked, answered so far) with these keys, each named:
    /// the first seals, every one opens, so that a key is rotated by
    /// putting the new one first and keeping the old until the states it
    /// sealed have expired (an hour). Every replica that may receive a
    /// retry needs the same keys; without any, a server seals with a key
    /// of its own process, made at random.
    ///
    /// Each key is at least 32 bytes of secret: an error otherwise, or
    /// with no key, or with a name twice.
    ///
    /// ```
    /// use tool_mcp::McpConfig;
    ///
    /// let config = McpConfig::new()
    ///     .with_request_state_keys([
    ///         ("2026-12", b"a new secret of thirty-two bytes!".to_vec()),
    ///         ("2026-11", b"the old secret, kept for an hour.".to_vec()),
    ///     ])
    ///     .unwrap();
    /// # drop(config);
    /// assert!(McpConfig::new()
    ///     .with_request_state_keys([("short", b"too short".to_vec())])
    ///     .is_err());
    /// ```
    pub fn with_request_state_keys<K: Into<String>, V: Into<Vec<u8>>>(
        mut self,
        keys: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ServeError> {
        let keys: Vec<(String, Vec<u8>)> = keys
            .into_iter()
            .map(|(name, key)| (name.into(), key.into()))
            .collect();
        let invalid = |reason: String| ServeError::InvalidRequestStateKeys { reason };
        let Some((first, _)) = keys.first() else {
            return Err(invalid("no key was given".to_owned()));
        };
        let codec = RequestStateCodec::new_with_keyring(first.clone(), keys)
            .map_err(|error| invalid(error.to_string()))?;
        self.request_state = Arc::new(codec);
        Ok(self)
    }

    /// The number of tools in one page of `tools/list`.
    pub fn page_size(&self) -> usize {
        self.page_size
    }

    /// How long an HTTP session may go without a request.
    pub fn session_idle_limit(&self) -> Duration {
        self.session_idle_limit
    }

    /// How many HTTP sessions may be open at once.
    pub fn max_sessions(&self) -> usize {
        self.max_sessions
    }

    /// How long a task is kept from its start.
    pub fn task_ttl(&self) -> Duration {
        Duration::from_millis(self.task_ttl_ms)
    }
}

impl fmt::Debug for McpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpConfig")
            .field("server_info", &self.info)
            .field("instructions", &self.instructions)
            .field("page_size", &self.page_size)
            .field("bearer_auth", &self.verifier.is_some())
            .field("protected_resource", &self.resource)
            .field("session_idle_limit", &self.session_idle_limit)
            .field("max_sessions", &self.max_sessions)
            .field("store", &self.store.as_ref().map(|store| store.kind()))
            .field("tasks", &self.engine)
            .field("task_ttl", &self.task_ttl())
            .field("search", &self.search)
            .field("auto_defer", &self.auto_defer)
            .finish_non_exhaustive()
    }
}

/// A key of this process alone: what seals when the server is given none.
fn process_key() -> RequestStateCodec {
    let key: Vec<u8> = [uuid::Uuid::new_v4(), uuid::Uuid::new_v4()]
        .iter()
        .flat_map(|id| *id.as_bytes())
        .collect();
    RequestStateCodec::new_unchecked(key)
}
