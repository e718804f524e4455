//! Where a server keeps its tasks, and how another replica runs again the
//! task of one that stopped: the settings of a server served by many
//! processes.

use std::sync::Arc;

use tool_core::ToolContext;
use tool_core::store::Store;

use crate::server::{ContextSource, McpServer};
use crate::tasks::Tasks;
use crate::tasks::record::TaskRecord;

/// Makes the context a task run again on this process runs in.
pub(crate) type RerunFn<Ctx> = dyn Fn(&TaskOrigin) -> Option<ToolContext<Ctx>> + Send + Sync;

/// What is known of a task run again on a process other than the one its
/// client asked: there is no request to make its context from, only what
/// the task's record keeps. See [`McpServer::with_rerun_context`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TaskOrigin {
    /// The tool the task runs.
    pub tool: String,
    /// The scopes its first run had (the token's, when the server checks
    /// tokens); the context made is given them whatever it says.
    pub scopes: Vec<String>,
    /// Who asked for it, as its record names the caller: `t:<SHA-256 of
    /// the bearer token, hex>`, `s:<SHA-256 of the HTTP session id, hex>`,
    /// or `anyone`.
    pub caller: String,
}

impl TaskOrigin {
    pub(crate) fn new(record: &TaskRecord) -> Self {
        Self {
            tool: record.tool.clone(),
            scopes: record
                .input
                .as_ref()
                .map(|input| input.scopes.clone())
                .unwrap_or_default(),
            caller: record.caller.clone(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// The same server keeping its tasks in `store`, shared with the other
    /// processes (replicas) that serve the same tools on it, such as the
    /// `tool-redis` crate's `RedisStore`: a task started on one replica
    /// is read (`tasks/get`, `tasks/result`, `tasks/list`), and cancelled,
    /// through any, with its status message; a cancel asked on one stops
    /// the run on the replica that runs it.
    ///
    /// Each replica says in the store that it lives (a `Lease`); the task
    /// of a replica that stopped (killed, crashed, cut off) is taken over
    /// by the first replica asked about it. It ends as its call ended when
    /// the registry keeps its calls in the same store and the call had
    /// ended or been given its result; else a tool marked `idempotent` is
    /// run once more (see [`McpServer::with_rerun_context`]), and any
    /// other task fails, saying that its process stopped. A task never
    /// runs twice for a tool not marked `idempotent`, and never stays
    /// `working` past its time to live.
    ///
    /// Give the registry the same store ([`RegistryBuilder::store`](tool_core::registry::RegistryBuilder::store)) so
    /// that the calls tasks follow, their results delivered and their
    /// approvals are shared too. Serve stateless HTTP
    /// ([`http_config`](crate::http_config)`().with_legacy_session_mode(false)`)
    /// with bearer tokens ([`McpServer::with_bearer_auth`]) so that a
    /// client's requests may go to any replica as the same caller: without
    /// tokens, a task belongs to its HTTP session, which only the process
    /// that made it knows.
    ///
    /// By default tasks are kept in this process's memory.
    ///
    /// ```
    /// use tool_core::store::MemoryStore;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// // Two servers sharing one store: in production, two processes on
    /// // one Redis (`tool_redis::RedisStore`).
    /// let store = MemoryStore::new();
    /// let first = McpServer::new(ToolRegistry::<()>::builder().store(store.clone()).build(), ToolContext::new(()))
    ///     .with_store(store.clone());
    /// let second = McpServer::new(ToolRegistry::<()>::builder().store(store.clone()).build(), ToolContext::new(()))
    ///     .with_store(store);
    /// # drop((first, second));
    /// ```
    #[must_use]
    pub fn with_store(mut self, store: impl Store) -> Self {
        let store: Arc<dyn Store> = Arc::new(store);
        self.tasks = Arc::new(Tasks::new(store, true, self.tasks.ttl_for(None)));
        self
    }

    /// The same server keeping each task at most `ttl` from its start, and
    /// for as long again after its end: a task still working then fails
    /// (`task expired: TTL elapsed before completion`), and an ended one
    /// is forgotten. It is the time of every task a client asks no time
    /// for (the tasks extension's clients cannot); a 2025-11-25 client
    /// may ask a shorter one (at least a second). Default: five minutes
    /// (rmcp's).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_core::{ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_task_ttl(Duration::from_secs(60));
    /// # drop(server);
    /// ```
    #[must_use]
    pub fn with_task_ttl(mut self, ttl: std::time::Duration) -> Self {
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        self.tasks = Arc::new(self.tasks.with_ttl(ttl_ms));
        self
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
}
