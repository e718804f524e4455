//! What a server serves that can be replaced while it serves: the
//! registry (with its tool list), the resources and the prompts, each
//! shared by every clone of the server; and the registry handle a server
//! follows. Whom a replacement is told to is `listeners.rs`'s.

use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use rmcp::ErrorData;
use tokio_util::sync::CancellationToken;
use tool_core::ToolRegistry;
use tool_core::toolset::Changes;

use crate::tools::listing::ToolsPage;

/// The registry served and its MCP tool list, made on the first
/// `tools/list` after the registry is in place.
pub(crate) struct Served<Ctx> {
    pub(crate) registry: Arc<ToolRegistry<Ctx>>,
    listing: Arc<OnceLock<Result<ToolsPage, String>>>,
}

impl<Ctx> Clone for Served<Ctx> {
    fn clone(&self) -> Self {
        Self {
            registry: Arc::clone(&self.registry),
            listing: Arc::clone(&self.listing),
        }
    }
}

impl<Ctx: Send + Sync + 'static> Served<Ctx> {
    pub(crate) fn new(registry: Arc<ToolRegistry<Ctx>>) -> Self {
        Self {
            registry,
            listing: Arc::default(),
        }
    }

    /// The tool list. An error only for a registry whose tools MCP cannot
    /// take, which `ToolRegistry::with_check(Provider::Mcp)` would have
    /// refused at registration.
    pub(crate) fn listing(&self) -> Result<&ToolsPage, ErrorData> {
        self.listing
            .get_or_init(|| ToolsPage::of(&self.registry))
            .as_ref()
            .map_err(|error| ErrorData::internal_error(error.clone(), None))
    }
}

/// The registry in place, shared by every clone of a server.
pub(crate) struct Current<Ctx>(RwLock<Served<Ctx>>);

impl<Ctx: Send + Sync + 'static> Current<Ctx> {
    pub(crate) fn new(registry: Arc<ToolRegistry<Ctx>>) -> Self {
        Self(RwLock::new(Served::new(registry)))
    }

    /// What a request is served from, to its end: a replacement made
    /// meanwhile is for the requests after it.
    pub(crate) fn get(&self) -> Served<Ctx> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The registry served now, to a request's end: [`Current::get`]
    /// without the tool list, which a call does not read.
    pub(crate) fn registry(&self) -> Arc<ToolRegistry<Ctx>> {
        let served = self.0.read().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(&served.registry)
    }

    /// Puts `registry` in place and gives the one it replaces.
    pub(crate) fn replace(&self, registry: Arc<ToolRegistry<Ctx>>) -> Arc<ToolRegistry<Ctx>> {
        let served = Served::new(registry);
        let mut current = self.0.write().unwrap_or_else(PoisonError::into_inner);
        std::mem::replace(&mut *current, served).registry
    }
}

/// A set a server serves beside its tools (its resources, its prompts),
/// which can be replaced while it serves, shared by every clone of the
/// server.
pub(crate) struct Replaceable<T>(RwLock<Arc<T>>);

impl<T> Replaceable<T> {
    pub(crate) fn new(served: T) -> Self {
        Self(RwLock::new(Arc::new(served)))
    }

    /// What a request is served from, to its end: a replacement made
    /// meanwhile is for the requests after it.
    pub(crate) fn get(&self) -> Arc<T> {
        Arc::clone(&self.0.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Puts `served` in place and gives the one it replaces.
    pub(crate) fn replace(&self, served: T) -> Arc<T> {
        let served = Arc::new(served);
        let mut current = self.0.write().unwrap_or_else(PoisonError::into_inner);
        std::mem::replace(&mut *current, served)
    }
}

/// The changes to follow, until the server's last clone is dropped.
pub(crate) struct Follower<Ctx> {
    /// Taken by the task that follows them, once it starts.
    pub(crate) changes: Mutex<Option<Changes<Ctx>>>,
    /// Ends that task.
    pub(crate) stop: CancellationToken,
}

impl<Ctx> Drop for Follower<Ctx> {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
