//! The registry a server serves, which can be replaced while it serves,
//! and the clients told when it is: `notifications/tools/list_changed` to
//! each open session (stdio, HTTP with sessions) and to each
//! `subscriptions/listen` of a 2026-07-28 client that asked for it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use rmcp::service::{Peer, SubscriptionSink};
use rmcp::{ErrorData, RoleServer};
use tokio_util::sync::CancellationToken;
use tool_core::ToolRegistry;
use tool_core::toolset::Changes;

use crate::listing::ToolsPage;

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

/// Whom to tell that the tools changed.
#[derive(Default)]
pub(crate) struct Listeners {
    sessions: Mutex<Vec<Peer<RoleServer>>>,
    subscriptions: Mutex<HashMap<u64, SubscriptionSink>>,
    next_key: AtomicU64,
}

/// A subscription's place among the listeners, given up when it ends.
pub(crate) struct Subscribed {
    listeners: Arc<Listeners>,
    key: u64,
}

impl Drop for Subscribed {
    fn drop(&mut self) {
        self.listeners
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

impl Listeners {
    /// A session that has opened (its `notifications/initialized`).
    pub(crate) fn add_session(&self, peer: Peer<RoleServer>) {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions.retain(|peer| !peer.is_transport_closed());
        sessions.push(peer);
    }

    /// A `subscriptions/listen` that takes tool list changes, until the
    /// returned guard is dropped.
    pub(crate) fn subscribe(self: &Arc<Self>, sink: SubscriptionSink) -> Subscribed {
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, sink);
        Subscribed {
            listeners: Arc::clone(self),
            key,
        }
    }

    /// Sends `notifications/tools/list_changed` to every session and
    /// subscription still open.
    pub(crate) async fn tools_changed(&self) {
        let sessions: Vec<_> = {
            let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
            sessions.retain(|peer| !peer.is_transport_closed());
            sessions.clone()
        };
        for peer in sessions {
            if let Err(error) = peer.notify_tool_list_changed().await {
                tracing::debug!(%error, "tools/list_changed not sent to a session");
            }
        }
        let subscriptions: Vec<_> = self
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .cloned()
            .collect();
        for sink in subscriptions {
            if let Err(error) = sink.notify_tool_list_changed().await {
                tracing::debug!(%error, "tools/list_changed not sent to a subscription");
            }
        }
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
