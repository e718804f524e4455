//! A server that follows a `RegistryHandle`: each change to the registry
//! behind it is served from the next request on, and told to the clients
//! (`notifications/tools/list_changed`), as `replace_registry` does.

use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;
use tool_core::ToolContext;
use tool_core::toolset::RegistryHandle;

use crate::McpServer;
use crate::server::changes::Follower;
use crate::server::listeners::Change;

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// A server of the registry behind `handle` that follows it: a tool
    /// added, removed, enabled or disabled through the handle (or a mount's
    /// tools changing) is served from the next request on, and every open
    /// session and subscription is told with
    /// `notifications/tools/list_changed`. A request already begun ends on
    /// the registry it began with. This is what makes a server a gateway:
    /// its own tools and mounted servers' behind one endpoint.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::toolset::RegistryHandle;
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    /// use tool_mcp::McpServer;
    ///
    /// /// Add two numbers.
    /// #[tool(read_only)]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    /// let server = McpServer::following(&handle, ToolContext::new(()));
    /// assert_eq!(server.registry().names().collect::<Vec<_>>(), ["add"]);
    /// # drop(server);
    /// # });
    /// ```
    pub fn following(handle: &RegistryHandle<Ctx>, context: ToolContext<Ctx>) -> Self {
        // Followed from before the registry is taken: no change is missed.
        let changes = handle.changes();
        let mut server = Self::new(handle.current(), context);
        server.follower = Some(Arc::new(Follower {
            changes: Mutex::new(Some(changes)),
            stop: CancellationToken::new(),
        }));
        server
    }

    /// Starts following the handle's changes, once for all the server's
    /// clones: when it is served, or at its first session. Needs a Tokio
    /// runtime; without one, nothing starts until a session does.
    pub(crate) fn start_following(&self) {
        let Some(follower) = &self.follower else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let taken = follower
            .changes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let Some(mut changes) = taken else {
            return;
        };
        let stop = follower.stop.clone();
        let current = Arc::downgrade(&self.current);
        let listeners = Arc::downgrade(&self.listeners);
        runtime.spawn(async move {
            loop {
                let next = tokio::select! {
                    () = stop.cancelled() => return,
                    next = changes.next() => next,
                };
                let (Some(current), Some(listeners)) = (current.upgrade(), listeners.upgrade())
                else {
                    return;
                };
                current.replace(next);
                listeners.tell(Change::Tools).await;
            }
        });
    }
}
