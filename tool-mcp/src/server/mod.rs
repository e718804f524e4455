//! The server and its settings: the registry it serves, the context each
//! request's calls run in, and what it tells clients about itself.

mod capabilities;
pub(crate) mod changes;
mod completion;
mod config;
mod follow;
mod handler;
pub(crate) mod listeners;
pub(crate) mod logging;
pub(crate) mod per_session;
mod replacing;

use std::fmt;
use std::sync::Arc;

use hyper::http::request::Parts;
use rmcp::RoleServer;
use rmcp::service::RequestContext;
use tool_core::context::ContextBuilder;
use tool_core::policy::ApprovalHook;
use tool_core::prompt::Prompts;
use tool_core::resource::Resources;
use tool_core::store::{MemoryStore, Store};
use tool_core::{ToolContext, ToolRegistry};

pub use config::{DEFAULT_PAGE_SIZE, DEFAULT_TASK_TTL, McpConfig};

use crate::asking::server_hook::{InstallHook, installer};
use crate::http::auth::authenticate;
use crate::server::changes::{Current, Follower, Replaceable};
use crate::server::listeners::Listeners;
use crate::server::logging::LogLevels;
use crate::tasks::origin::{RerunFn, TaskOrigin};
use crate::tasks::{KnownCaller, Tasks};
use crate::tools::search_finds::SearchFinds;

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
/// use tool_mcp::{McpConfig, McpServer};
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
///     .with_config(
///         McpConfig::new()
///             .with_server_info("greeter", "1.0.0")
///             .with_instructions("Greets people by name."),
///     );
/// assert_eq!(server.registry().names().collect::<Vec<_>>(), ["greet"]);
/// ```
pub struct McpServer<Ctx = ()> {
    /// The registry in place, and its tool list.
    pub(crate) current: Arc<Current<Ctx>>,
    /// Whom to tell when what it serves changes.
    pub(crate) listeners: Arc<Listeners>,
    pub(crate) context: ContextSource<Ctx>,
    /// Its settings.
    pub(crate) config: McpConfig,
    /// The tasks of `long_running` calls, shared by every clone.
    pub(crate) tasks: Arc<Tasks>,
    /// Puts the server's approval hook in a request's context.
    pub(crate) approval: Option<Arc<InstallHook<Ctx>>>,
    /// The handle whose registry the server follows
    /// ([`McpServer::following`]).
    pub(crate) follower: Option<Arc<Follower<Ctx>>>,
    /// What each caller's searches found, when the tools that wait to be
    /// found are shown only then ([`McpConfig::with_search`](crate::McpConfig::with_search)).
    pub(crate) found: Option<Arc<SearchFinds>>,
    /// The log level each session asked for.
    pub(crate) log_levels: Arc<LogLevels>,
    /// The resources it serves, read in a call's context.
    pub(crate) resources: Arc<Replaceable<Resources<Ctx>>>,
    /// The prompts it serves.
    pub(crate) prompts: Arc<Replaceable<Prompts<Ctx>>>,
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
    /// Its settings are [`McpConfig`]'s defaults until
    /// [`McpServer::with_config`] gives others.
    pub fn new(registry: impl Into<Arc<ToolRegistry<Ctx>>>, context: ToolContext<Ctx>) -> Self {
        Self {
            current: Arc::new(Current::new(registry.into())),
            listeners: Arc::default(),
            context: ContextSource::Fixed(context),
            config: McpConfig::default(),
            tasks: Arc::default(),
            approval: None,
            follower: None,
            found: None,
            log_levels: Arc::default(),
            resources: Arc::new(Replaceable::new(Resources::new())),
            prompts: Arc::new(Replaceable::new(Prompts::new())),
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
    /// ([`McpConfig::with_bearer_auth`](crate::McpConfig::with_bearer_auth)), else `s:` and that of
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
    /// `resources/templates/list`, `resources/read`, and subscriptions to
    /// one: 2025-11-25's `resources/subscribe`, 2026-07-28's
    /// `resourceSubscriptions` of `subscriptions/listen`;
    /// [`McpServer::resource_updated`] tells the subscribers of one that it
    /// changed), each read in the context a tool call of the same request
    /// would run in. [`McpServer::replace_resources`] serves others while
    /// the server serves.
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
        self.resources = Arc::new(Replaceable::new(resources));
        self
    }

    /// Serves `prompts` beside the tools (`prompts/list`, `prompts/get`,
    /// and the completion of their arguments), each got in the context a
    /// tool call of the same request would run in.
    /// [`McpServer::replace_prompts`] serves others while the server
    /// serves.
    #[must_use]
    pub fn with_prompts(mut self, prompts: Prompts<Ctx>) -> Self {
        self.prompts = Arc::new(Replaceable::new(prompts));
        self
    }

    /// The same server with these settings, in place of those it had.
    ///
    /// ```
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::{McpConfig, McpServer};
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_config(McpConfig::new().with_server_info("notes", "1.0.0").with_page_size(20));
    /// assert_eq!(server.config().page_size(), 20);
    /// ```
    #[must_use]
    pub fn with_config(mut self, config: McpConfig) -> Self {
        let store: Arc<dyn Store> = match &config.store {
            Some(store) => Arc::clone(store),
            None => Arc::new(MemoryStore::new()),
        };
        self.tasks = Arc::new(
            Tasks::new(store, config.store.is_some(), config.task_ttl_ms)
                .with_engine(config.engine.clone()),
        );
        self.found = config.search.then(Arc::default);
        self.config = config;
        self
    }

    /// Its settings.
    pub fn config(&self) -> &McpConfig {
        &self.config
    }

    /// The same server making the context of a task run again on this
    /// process, after the replica that ran it stopped, with `make`; `None`
    /// fails the task instead. Only tasks of tools marked `idempotent` are
    /// run again, once.
    ///
    /// Without it, a server given one context ([`McpServer::new`]) runs the
    /// task again in that context, and a server that makes each request's
    /// context ([`McpServer::with_context_fn`]) does not run tasks again:
    /// it cannot know what the request would have given. Either way the
    /// run has the scopes the first had, is taken as approved (the call
    /// passed the server's policy when it began), and is cancelled with
    /// the task.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// struct App;
    ///
    /// let app = Arc::new(App);
    /// let server = McpServer::new(ToolRegistry::<App>::new(), ToolContext::from_arc(Arc::clone(&app)))
    ///     .with_context_fn({
    ///         let app = Arc::clone(&app);
    ///         move |_request| ToolContext::from_arc(Arc::clone(&app))
    ///     })
    ///     .with_rerun_context(move |origin| {
    ///         // Run again only what needs no caller's own state.
    ///         (origin.tool != "charge").then(|| ToolContext::from_arc(Arc::clone(&app)))
    ///     });
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_rerun_context(
        mut self,
        make: impl Fn(&TaskOrigin) -> Option<ToolContext<Ctx>> + Send + Sync + 'static,
    ) -> Self {
        self.rerun = Some(Arc::new(make));
        self
    }

    /// The context a task run again here starts from.
    pub(crate) fn rerun_context(&self, origin: &TaskOrigin) -> Option<ToolContext<Ctx>> {
        match (&self.rerun, &self.context) {
            (Some(make), _) => make(origin),
            (None, ContextSource::Fixed(ctx)) => Some(ctx.clone()),
            (None, ContextSource::PerRequest(_)) => None,
        }
    }

    /// The registry served now.
    pub fn registry(&self) -> Arc<ToolRegistry<Ctx>> {
        self.current.registry()
    }

    /// The resources served now.
    pub fn resources(&self) -> Arc<Resources<Ctx>> {
        self.resources.get()
    }

    /// The prompts served now.
    pub fn prompts(&self) -> Arc<Prompts<Ctx>> {
        self.prompts.get()
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
            None => self.caller.key(request, self.config.verifier.is_some()),
        };
        let ctx = match caller {
            Some(caller) => ContextBuilder::from(ctx).caller(caller).build(),
            None => ctx,
        };
        match (&self.config.verifier, request.extensions.get::<Parts>()) {
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
            config: self.config.clone(),
            tasks: Arc::clone(&self.tasks),
            approval: self.approval.clone(),
            follower: self.follower.clone(),
            found: self.found.clone(),
            log_levels: Arc::clone(&self.log_levels),
            resources: Arc::clone(&self.resources),
            prompts: Arc::clone(&self.prompts),
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
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}
