//! The server and its settings: the registry it serves, the context each
//! request's calls run in, and what it tells clients about itself.

use std::fmt;
use std::sync::Arc;

use hyper::http::request::Parts;
use rmcp::RoleServer;
use rmcp::model::{Implementation, RequestStateCodec};
use rmcp::service::RequestContext;
use tool_core::context::ContextBuilder;
use tool_core::policy::ApprovalHook;
use tool_core::prompt::Prompts;
use tool_core::resource::Resources;
use tool_core::{ToolContext, ToolRegistry};

use crate::auth::{TokenVerifier, authenticate};
use crate::catalog::Subscriptions;
use crate::changes::{Current, Follower, Listeners};
use crate::error::ServeError;
use crate::http_options::HttpOptions;
use crate::logging::LogLevels;
use crate::search_finds::SearchFinds;
use crate::server_hook::{InstallHook, installer};
use crate::task_store::RerunFn;
use crate::tasks::{KnownCaller, Tasks};

/// The number of tools in one page of `tools/list`: 100. A registry of
/// that many tools or fewer is listed in one answer, without a
/// `nextCursor`.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// A [`ToolRegistry`] served over MCP: every tool of the registry is listed
/// by `tools/list` and called by `tools/call` through
/// [`ToolRegistry::call`], so arguments are checked, policy applied and
/// results shaped exactly as for any other provider.
///
/// It is an rmcp [`ServerHandler`](rmcp::ServerHandler): serve it over stdio
/// with [`McpServer::serve_stdio`], over streamable HTTP with
/// [`McpServer::serve_http`] (or mount [`McpServer::http_service`] in a
/// router of your own), or over any rmcp transport with
/// [`rmcp::ServiceExt::serve`]. Cloning is cheap: the registry is shared.
///
/// ```
/// use tool_core::{tool, ToolContext, ToolRegistry};
/// use tool_mcp::McpServer;
///
/// struct App { greeting: String }
///
/// /// Greet someone.
/// #[tool(read_only)]
/// fn greet(ctx: &ToolContext<App>, /** Their name. */ name: String) -> String {
///     format!("{}, {name}!", ctx.state().greeting)
/// }
///
/// let registry = ToolRegistry::<App>::new().with(Greet);
/// let server = McpServer::new(registry, ToolContext::new(App { greeting: "Hello".into() }))
///     .with_server_info("greeter", "1.0.0")
///     .with_instructions("Greets people by name.");
/// assert_eq!(server.registry().names().collect::<Vec<_>>(), ["greet"]);
/// ```
pub struct McpServer<Ctx = ()> {
    /// The registry in place, and its tool list.
    pub(crate) current: Arc<Current<Ctx>>,
    /// Whom to tell when the registry is replaced.
    pub(crate) listeners: Arc<Listeners>,
    pub(crate) context: ContextSource<Ctx>,
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    /// Checks HTTP requests' bearer tokens; none when unauthenticated.
    pub(crate) verifier: Option<Arc<dyn TokenVerifier>>,
    /// The tasks of `long_running` calls, shared by every clone.
    pub(crate) tasks: Arc<Tasks>,
    /// Puts the server's approval hook in a request's context.
    pub(crate) approval: Option<Arc<InstallHook<Ctx>>>,
    /// Session limits and the protected resource, for HTTP.
    pub(crate) http: HttpOptions,
    /// The handle whose registry the server follows
    /// ([`McpServer::following`]).
    pub(crate) follower: Option<Arc<Follower<Ctx>>>,
    /// What each caller's searches found, when the tools that wait to be
    /// found are shown only then ([`McpServer::with_search`]).
    pub(crate) found: Option<Arc<SearchFinds>>,
    /// The log level each session asked for.
    pub(crate) log_levels: Arc<LogLevels>,
    /// The resources it serves, read in a call's context.
    pub(crate) resources: Arc<Resources<Ctx>>,
    /// The prompts it serves.
    pub(crate) prompts: Arc<Prompts<Ctx>>,
    /// The resources each session subscribed to.
    pub(crate) subscriptions: Arc<Subscriptions>,
    /// Seals and opens the `requestState` of 2026-07-28's `input_required`
    /// rounds.
    pub(crate) request_state: Arc<RequestStateCodec>,
    /// Makes the context of a task run again here
    /// ([`McpServer::with_rerun_context`]).
    pub(crate) rerun: Option<Arc<RerunFn<Ctx>>>,
    /// The caller of this clone's session, once known.
    pub(crate) caller: KnownCaller,
}

/// Where the context of a request's calls comes from.
pub(crate) enum ContextSource<Ctx> {
    /// The same for every request.
    Fixed(ToolContext<Ctx>),
    /// Made for each request from what rmcp knows of it.
    PerRequest(Arc<ContextFn<Ctx>>),
}

type ContextFn<Ctx> = dyn Fn(&RequestContext<RoleServer>) -> ToolContext<Ctx> + Send + Sync;

impl<Ctx> Clone for ContextSource<Ctx> {
    fn clone(&self) -> Self {
        match self {
            ContextSource::Fixed(ctx) => ContextSource::Fixed(ctx.clone()),
            ContextSource::PerRequest(make) => ContextSource::PerRequest(Arc::clone(make)),
        }
    }
}

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// A server of `registry` (owned, or already shared as an
    /// `Arc<ToolRegistry>`) whose calls run in `context`: its state and
    /// scopes are every caller's, and cancelling its token cancels every
    /// call. Each `tools/call` runs in a copy of it that also carries the
    /// request's cancellation and its progress listener.
    ///
    /// The server says it is `tool-mcp` at this crate's version until
    /// [`McpServer::with_server_info`] names it, and lists
    /// [`DEFAULT_PAGE_SIZE`] tools a page.
    pub fn new(registry: impl Into<Arc<ToolRegistry<Ctx>>>, context: ToolContext<Ctx>) -> Self {
        Self {
            current: Arc::new(Current::new(registry.into())),
            listeners: Arc::default(),
            context: ContextSource::Fixed(context),
            info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            instructions: None,
            page_size: DEFAULT_PAGE_SIZE,
            verifier: None,
            tasks: Arc::default(),
            approval: None,
            http: HttpOptions::default(),
            follower: None,
            found: None,
            log_levels: Arc::default(),
            resources: Arc::new(Resources::new()),
            prompts: Arc::new(Prompts::new()),
            subscriptions: Arc::default(),
            request_state: Arc::new(process_key()),
            rerun: None,
            caller: KnownCaller::default(),
        }
    }

    /// The same server making each request's context with `make`, from
    /// what rmcp knows of the request: over HTTP, its
    /// `http::request::Parts` are in
    /// `request.extensions`, for a caller's own scopes or state. Replaces
    /// the context given to [`McpServer::new`].
    ///
    /// A call is its caller's ([`ContextBuilder::caller`](tool_core::context::ContextBuilder::caller)): what waits
    /// of it (a question parked for the application, say) is listed only
    /// for that caller. A context that names no caller is given the
    /// request's: `t:` and the SHA-256 of its bearer token, in lowercase
    /// hex, when the server checks tokens
    /// ([`with_bearer_auth`](Self::with_bearer_auth)), else `s:` and that of
    /// its HTTP session's id; none over stdio. Name the caller here to use
    /// the application's own keys (the user a token belongs to).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::context::ContextBuilder;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// struct App;
    ///
    /// let app = Arc::new(App);
    /// let registry = ToolRegistry::<App>::new();
    /// let server = McpServer::new(registry, ToolContext::from_arc(Arc::clone(&app)))
    ///     .with_context_fn(move |_request| {
    ///         ContextBuilder::from(ToolContext::from_arc(Arc::clone(&app))).scopes(["files:read"]).build()
    ///     });
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_context_fn(
        mut self,
        make: impl Fn(&RequestContext<RoleServer>) -> ToolContext<Ctx> + Send + Sync + 'static,
    ) -> Self {
        self.context = ContextSource::PerRequest(Arc::new(make));
        self
    }

    /// The same server requiring, over HTTP, an `Authorization: Bearer`
    /// token that `verifier` accepts ([`BearerTokens`](crate::BearerTokens)
    /// for a fixed list): a request without one, or with one it refuses,
    /// is answered `401 Unauthorized` before any MCP processing, with a
    /// challenge that names no OAuth metadata and says a static token is
    /// expected (`WWW-Authenticate: Bearer error_description="this server
    /// takes a static bearer token, not OAuth: ..."`; for a token behind an
    /// authorization server, see
    /// [`McpServer::with_protected_resource`]). The calls of an accepted request run with
    /// exactly the scopes the token grants, in place of the scopes of the
    /// context given to [`McpServer::new`] or made by
    /// [`McpServer::with_context_fn`] (its state is kept): a tool that
    /// requires a scope the token lacks is refused with an `isError`
    /// result.
    ///
    /// Over stdio there is no token: the server trusts the process that
    /// started it, and calls run with the context's own scopes.
    ///
    /// ```
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    /// use tool_mcp::{BearerTokens, McpServer};
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
    ///     .with_bearer_auth(tokens);
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_bearer_auth(mut self, verifier: impl TokenVerifier) -> Self {
        self.verifier = Some(Arc::new(verifier));
        self
    }

    /// The same server asking `hook` about calls of
    /// [`Confirm`](tool_core::policy::ToolTier::Confirm) tools from clients that
    /// cannot be asked themselves.
    ///
    /// A `Confirm` call is put to the person at the client, through MCP
    /// elicitation, when the client declared that capability: accepting
    /// runs it, declining or dismissing denies it. For any other client
    /// this hook decides; without it, the registry's
    /// ([`RegistryBuilder::approval`](tool_core::registry::RegistryBuilder::approval)); with neither, the call is denied
    /// with a text that says to set one, and the server warns at start
    /// (tracing `warn`) of each such tool.
    ///
    /// ```
    /// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    /// use tool_mcp::McpServer;
    ///
    /// /// Delete a note.
    /// #[tool(tier = Confirm)]
    /// fn delete_note(id: u32) -> String {
    ///     format!("deleted {id}")
    /// }
    ///
    /// /// Lets only the first hundred notes be deleted.
    /// struct OldNotesStay;
    ///
    /// impl ApprovalHook<()> for OldNotesStay {
    ///     async fn approve(&self, request: &ApprovalRequest<'_, ()>) -> Approval {
    ///         match request.arguments["id"].as_u64() {
    ///             Some(id) if id < 100 => Approval::Approve,
    ///             _ => Approval::deny("notes from 100 on are kept"),
    ///         }
    ///     }
    /// }
    ///
    /// let server = McpServer::new(ToolRegistry::new().with(DeleteNote), ToolContext::new(()))
    ///     .with_approval(OldNotesStay);
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_approval(mut self, hook: impl ApprovalHook<Ctx>) -> Self {
        self.approval = Some(installer(hook));
        self
    }

    /// The context every request's calls run in, when it is one.
    pub(crate) fn fixed_context(&self) -> Option<&ToolContext<Ctx>> {
        match &self.context {
            ContextSource::Fixed(ctx) => Some(ctx),
            ContextSource::PerRequest(_) => None,
        }
    }

    /// Serves `resources` beside the tools (`resources/list`,
    /// `resources/templates/list`, `resources/read`, and 2025-11-25's
    /// `resources/subscribe`; [`McpServer::resource_updated`] tells the
    /// subscribers of one that it changed), each read in the context a
    /// tool call of the same request would run in.
    ///
    /// ```
    /// use tool_core::resource::{Resource, ResourceContents, ResourceError, ResourceRead, Resources};
    /// use tool_core::{BoxFuture, ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// /// The changelog.
    /// struct Changelog;
    ///
    /// impl Resource for Changelog {
    ///     fn uri(&self) -> &str { "docs://changelog" }
    ///     fn name(&self) -> &str { "changelog" }
    ///     fn description(&self) -> &str { "What changed, release by release." }
    ///     fn read<'a>(&'a self, _: &'a ToolContext, read: &'a ResourceRead)
    ///         -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
    ///         Box::pin(async move { Ok(vec![ResourceContents::text(read.uri(), "## 1.0")]) })
    ///     }
    /// }
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_resources(Resources::new().with(Changelog));
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn with_resources(mut self, resources: Resources<Ctx>) -> Self {
        self.resources = Arc::new(resources);
        self
    }

    /// Serves `prompts` beside the tools (`prompts/list`, `prompts/get`,
    /// and the completion of their arguments), each got in the context a
    /// tool call of the same request would run in.
    #[must_use]
    pub fn with_prompts(mut self, prompts: Prompts<Ctx>) -> Self {
        self.prompts = Arc::new(prompts);
        self
    }

    /// The same server sealing the `requestState` of 2026-07-28's
    /// `input_required` rounds (what a tool asked, answered so far) with
    /// these keys, each named: the first seals, every one opens, so that a
    /// key is rotated by putting the new one first and keeping the old
    /// until the states it sealed have expired (an hour). Every replica
    /// that may receive a retry needs the same keys; without any, a
    /// server seals with a key of its own process, made at random.
    ///
    /// Each key is at least 32 bytes of secret: an error otherwise, or
    /// with no key, or with a name twice.
    ///
    /// ```
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_request_state_keys([
    ///         ("2026-12", b"a new secret of thirty-two bytes!".to_vec()),
    ///         ("2026-11", b"the old secret, kept for an hour.".to_vec()),
    ///     ])
    ///     .unwrap();
    /// assert!(McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
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

    /// Tells every session subscribed to `uri` (2025-11-25's
    /// `resources/subscribe`) that it changed:
    /// `notifications/resources/updated`. A session that has gone is
    /// skipped.
    pub async fn resource_updated(&self, uri: &str) {
        for peer in self.subscriptions.subscribers(uri) {
            let params = rmcp::model::ResourceUpdatedNotificationParam::new(uri);
            if let Err(error) = peer.notify_resource_updated(params).await {
                tracing::debug!(%error, uri, "resource update not sent");
            }
        }
    }

    /// The same server answering `initialize` with this name and version
    /// (MCP's `serverInfo`).
    #[must_use]
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// The same server answering `initialize` with these instructions, which
    /// clients may give the model.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The same server listing at most `size` tools in one `tools/list`
    /// answer (at least one); the next page is asked for with the answer's
    /// `nextCursor`. [`DEFAULT_PAGE_SIZE`] otherwise.
    ///
    /// ```
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(())).with_page_size(20);
    /// assert_eq!(server.page_size(), 20);
    /// assert_eq!(server.with_page_size(0).page_size(), 1);
    /// ```
    #[must_use]
    pub fn with_page_size(mut self, size: usize) -> Self {
        self.page_size = size.max(1);
        self
    }

    /// The same server showing each caller the tools up front and, of
    /// those that wait to be found ([`ToolMetadata::defer`]), only those
    /// its searches found: a tool whose result points to tools (a
    /// [`Part::Tool`], such as `tool_core::search::SearchTool`'s) adds them
    /// to its caller's `tools/list`, and the caller's session is told
    /// `notifications/tools/list_changed`. A caller is its bearer token, or
    /// else its session (stdio's one client is one caller). Without it,
    /// every tool is listed.
    ///
    /// [`ToolMetadata::defer`]: tool_core::ToolMetadata::defer
    /// [`Part::Tool`]: tool_core::output::Part::Tool
    #[must_use]
    pub fn with_search(mut self) -> Self {
        self.found = Some(Arc::default());
        self
    }

    /// The number of tools in one page of `tools/list`.
    pub fn page_size(&self) -> usize {
        self.page_size
    }

    /// The registry served now.
    pub fn registry(&self) -> Arc<ToolRegistry<Ctx>> {
        self.current.registry()
    }

    /// Serves `registry` in place of the registry served until now, for
    /// this server and every clone of it, and tells the clients connected
    /// that the tools changed (`notifications/tools/list_changed`, to each
    /// session and to each 2026-07-28 `subscriptions/listen` that asked
    /// for it), so that they list them again. Gives the registry replaced:
    /// requests already begun finish on it, and results of calls pending
    /// in it are delivered to it.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// /// Add two numbers.
    /// #[tool(read_only)]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// /// Multiply two numbers.
    /// #[tool(read_only)]
    /// fn multiply(a: i64, b: i64) -> i64 { a * b }
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new().with(Add), ToolContext::new(()));
    /// // A plugin is loaded: its tool joins the others.
    /// let before = server
    ///     .replace_registry(ToolRegistry::new().with(Add).with(Multiply))
    ///     .await;
    /// assert_eq!(before.tools().len(), 1);
    /// assert_eq!(server.registry().names().collect::<Vec<_>>(), ["add", "multiply"]);
    /// # });
    /// ```
    pub async fn replace_registry(
        &self,
        registry: impl Into<Arc<ToolRegistry<Ctx>>>,
    ) -> Arc<ToolRegistry<Ctx>> {
        let replaced = self.current.replace(registry.into());
        self.listeners.tools_changed().await;
        replaced
    }

    /// The context of one request's calls: the server's (or the one made
    /// for the request), naming the request's caller.
    pub(crate) fn context_for(&self, request: &RequestContext<RoleServer>) -> ToolContext<Ctx> {
        let ctx = match &self.context {
            ContextSource::Fixed(ctx) => ctx.clone(),
            ContextSource::PerRequest(make) => make(request),
        };
        self.request_context(ctx, request)
    }

    /// `ctx` naming the request's caller, with the scopes of its token.
    pub(crate) fn request_context(
        &self,
        ctx: ToolContext<Ctx>,
        request: &RequestContext<RoleServer>,
    ) -> ToolContext<Ctx> {
        // The request's caller (its token, else its session) is the
        // call's, unless the application named one: what waits of a call
        // is its caller's alone.
        let caller = match ctx.caller() {
            Some(_) => None,
            None => self.caller.key(request, self.verifier.is_some()),
        };
        let ctx = match caller {
            Some(caller) => ContextBuilder::from(ctx).caller(caller).build(),
            None => ctx,
        };
        match (&self.verifier, request.extensions.get::<Parts>()) {
            // The HTTP front has already refused a bad token with 401; this
            // check again is for a service mounted in another router,
            // where no such front ran: an unverified caller gets no scopes.
            (Some(verifier), Some(parts)) => ContextBuilder::from(ctx)
                .scopes(authenticate(verifier.as_ref(), &parts.headers).unwrap_or_default())
                .build(),
            _ => ctx,
        }
    }
}

impl<Ctx> Clone for McpServer<Ctx> {
    fn clone(&self) -> Self {
        Self {
            current: Arc::clone(&self.current),
            listeners: Arc::clone(&self.listeners),
            context: self.context.clone(),
            info: self.info.clone(),
            instructions: self.instructions.clone(),
            page_size: self.page_size,
            verifier: self.verifier.clone(),
            tasks: Arc::clone(&self.tasks),
            approval: self.approval.clone(),
            http: self.http.clone(),
            follower: self.follower.clone(),
            found: self.found.clone(),
            log_levels: Arc::clone(&self.log_levels),
            resources: Arc::clone(&self.resources),
            prompts: Arc::clone(&self.prompts),
            subscriptions: Arc::clone(&self.subscriptions),
            request_state: Arc::clone(&self.request_state),
            rerun: self.rerun.clone(),
            // A clone serves another session (rmcp makes one for each).
            caller: KnownCaller::default(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> fmt::Debug for McpServer<Ctx> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("tools", &self.registry().tools().len())
            .field("server_info", &self.info)
            .field("page_size", &self.page_size)
            .field("bearer_auth", &self.verifier.is_some())
            .finish_non_exhaustive()
    }
}

/// A key of this process's alone, made at random: a `requestState` it
/// seals is opened only here.
fn process_key() -> RequestStateCodec {
    let key: Vec<u8> = [uuid::Uuid::new_v4(), uuid::Uuid::new_v4()]
        .iter()
        .flat_map(|id| *id.as_bytes())
        .collect();
    RequestStateCodec::new_unchecked(key)
}
