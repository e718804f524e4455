//! Whom a server tells what changed while it serves, and what each one is
//! told of:
//!
//! - an open session (2025-11-25 and before, from its
//!   `notifications/initialized`): the list changes the capabilities it
//!   was given declare (`listChanged` of tools, resources, prompts), and
//!   the updates of the resources it subscribed to with
//!   `resources/subscribe`;
//! - a 2026-07-28 `subscriptions/listen` stream, until it ends: what its
//!   accepted filter holds (`toolsListChanged`, `resourcesListChanged`,
//!   `promptsListChanged`, `resourceSubscriptions`).
//!
//! Source: MCP 2026-07-28, `SubscriptionFilter` and
//! `notifications/subscriptions/acknowledged`: the server sends only the
//! notifications the client asked for, and acknowledges the subset it
//! agrees to honor, leaving out what it does not serve (a URI it has no
//! resource for).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{ResourceUpdatedNotificationParam, ServerCapabilities, SubscriptionFilter};
use rmcp::service::{Peer, SubscriptionSink};
use tool_core::resource::Resources;

use crate::resources;

/// A change a client may be told of.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Change<'a> {
    /// The tool list.
    Tools,
    /// The resource list, its templates included.
    Resources,
    /// The prompt list.
    Prompts,
    /// The resource of this URI.
    Updated(&'a str),
}

impl Change<'_> {
    /// The notification that tells it.
    fn method(self) -> &'static str {
        match self {
            Change::Tools => "notifications/tools/list_changed",
            Change::Resources => "notifications/resources/list_changed",
            Change::Prompts => "notifications/prompts/list_changed",
            Change::Updated(_) => "notifications/resources/updated",
        }
    }
}

/// What one listener is told of.
#[derive(Debug, Default)]
struct Follows {
    tools: bool,
    resources: bool,
    prompts: bool,
    /// The resources whose updates it is told.
    uris: BTreeSet<String>,
}

impl Follows {
    /// The list changes `capabilities` declare (`listChanged`).
    fn declared(capabilities: &ServerCapabilities) -> Self {
        Self {
            tools: capabilities
                .tools
                .as_ref()
                .is_some_and(|tools| tools.list_changed == Some(true)),
            resources: capabilities
                .resources
                .as_ref()
                .is_some_and(|resources| resources.list_changed == Some(true)),
            prompts: capabilities
                .prompts
                .as_ref()
                .is_some_and(|prompts| prompts.list_changed == Some(true)),
            uris: BTreeSet::new(),
        }
    }

    /// What a listen stream's accepted filter holds.
    fn accepted(filter: &SubscriptionFilter) -> Self {
        Self {
            tools: filter.tools_list_changed == Some(true),
            resources: filter.resources_list_changed == Some(true),
            prompts: filter.prompts_list_changed == Some(true),
            uris: filter
                .resource_subscriptions
                .iter()
                .flatten()
                .cloned()
                .collect(),
        }
    }

    fn has(&self, change: Change<'_>) -> bool {
        match change {
            Change::Tools => self.tools,
            Change::Resources => self.resources,
            Change::Prompts => self.prompts,
            Change::Updated(uri) => self.uris.contains(uri),
        }
    }
}

/// Where a listener is told.
#[derive(Clone)]
enum Ear {
    /// A session, told in it.
    Session(Peer<RoleServer>),
    /// A `subscriptions/listen` stream, told on it (each notification
    /// carrying its subscription's id).
    Stream(SubscriptionSink),
}

impl Ear {
    /// Whether it can still be told: a stream is until its guard drops.
    fn is_open(&self) -> bool {
        match self {
            Ear::Session(peer) => !peer.is_transport_closed(),
            Ear::Stream(_) => true,
        }
    }

    /// Whether it is the session of `peer`: the same `initialize`, which
    /// every request of a session shares.
    fn is_session_of(&self, peer: &Peer<RoleServer>) -> bool {
        let Ear::Session(known) = self else {
            return false;
        };
        match (known.peer_info(), peer.peer_info()) {
            (Some(known), Some(asking)) => Arc::ptr_eq(&known, &asking),
            _ => false,
        }
    }

    async fn tell(&self, change: Change<'_>) {
        let told = match self {
            Ear::Session(peer) => match change {
                Change::Tools => peer.notify_tool_list_changed().await,
                Change::Resources => peer.notify_resource_list_changed().await,
                Change::Prompts => peer.notify_prompt_list_changed().await,
                Change::Updated(uri) => {
                    let params = ResourceUpdatedNotificationParam::new(uri);
                    peer.notify_resource_updated(params).await
                }
            }
            .map_err(|error| error.to_string()),
            Ear::Stream(sink) => match change {
                Change::Tools => sink.notify_tool_list_changed().await,
                Change::Resources => sink.notify_resource_list_changed().await,
                Change::Prompts => sink.notify_prompt_list_changed().await,
                Change::Updated(uri) => sink.notify_resource_updated(uri).await,
            }
            .map_err(|error| error.to_string()),
        };
        if let Err(error) = told {
            let whom = match self {
                Ear::Session(_) => "a session",
                Ear::Stream(_) => "a subscription",
            };
            tracing::debug!(%error, "{} not sent to {whom}", change.method());
        }
    }
}

struct Listener {
    key: u64,
    ear: Ear,
    follows: Follows,
}

/// Whom to tell that what the server serves changed.
#[derive(Default)]
pub(crate) struct Listeners {
    listeners: Mutex<Vec<Listener>>,
    next_key: AtomicU64,
}

/// A listen stream's place among the listeners, given up when it ends.
pub(crate) struct Subscribed {
    listeners: Arc<Listeners>,
    key: u64,
}

impl Drop for Subscribed {
    fn drop(&mut self) {
        self.listeners
            .lock()
            .retain(|listener| listener.key != self.key);
    }
}

impl Listeners {
    /// A session that has opened (its `notifications/initialized`), told
    /// the list changes `capabilities`, those it was given, declare.
    pub(crate) fn add_session(&self, peer: Peer<RoleServer>, capabilities: &ServerCapabilities) {
        let declared = Follows::declared(capabilities);
        let mut listeners = self.open();
        match listeners
            .iter_mut()
            .find(|listener| listener.ear.is_session_of(&peer))
        {
            // It subscribed to a resource before it said it was ready.
            Some(known) => {
                known.follows = Follows {
                    uris: std::mem::take(&mut known.follows.uris),
                    ..declared
                };
            }
            None => listeners.push(Listener {
                key: self.next_key.fetch_add(1, Ordering::Relaxed),
                ear: Ear::Session(peer),
                follows: declared,
            }),
        }
    }

    /// The session of `peer` told of the updates of `uri`
    /// (`resources/subscribe`). A request outside a session has none.
    pub(crate) fn subscribe_session(&self, peer: &Peer<RoleServer>, uri: &str) {
        if peer.peer_info().is_none() {
            return;
        }
        let mut listeners = self.open();
        let at = match listeners
            .iter()
            .position(|listener| listener.ear.is_session_of(peer))
        {
            Some(at) => at,
            None => {
                listeners.push(Listener {
                    key: self.next_key.fetch_add(1, Ordering::Relaxed),
                    ear: Ear::Session(peer.clone()),
                    follows: Follows::default(),
                });
                listeners.len() - 1
            }
        };
        listeners[at].follows.uris.insert(uri.to_owned());
    }

    /// The session of `peer` no longer told of the updates of `uri`
    /// (`resources/unsubscribe`).
    pub(crate) fn unsubscribe_session(&self, peer: &Peer<RoleServer>, uri: &str) {
        for listener in self.open().iter_mut() {
            if listener.ear.is_session_of(peer) {
                listener.follows.uris.remove(uri);
            }
        }
    }

    /// A `subscriptions/listen` stream, told what its accepted filter
    /// holds until the returned guard is dropped.
    pub(crate) fn listen(self: &Arc<Self>, sink: SubscriptionSink) -> Subscribed {
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let follows = Follows::accepted(sink.accepted());
        self.lock().push(Listener {
            key,
            ear: Ear::Stream(sink),
            follows,
        });
        Subscribed {
            listeners: Arc::clone(self),
            key,
        }
    }

    /// Tells `change` to every session and stream still open that follows
    /// it.
    pub(crate) async fn tell(&self, change: Change<'_>) {
        let ears: Vec<Ear> = self
            .open()
            .iter()
            .filter(|listener| listener.follows.has(change))
            .map(|listener| listener.ear.clone())
            .collect();
        for ear in ears {
            ear.tell(change).await;
        }
    }

    /// The listeners, those whose session has ended forgotten.
    fn open(&self) -> MutexGuard<'_, Vec<Listener>> {
        let mut listeners = self.lock();
        listeners.retain(|listener| listener.ear.is_open());
        listeners
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Listener>> {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// What this server agrees to tell a `subscriptions/listen` stream that
/// asked for `requested`: the list changes it asked for (rmcp leaves out
/// those the server's capabilities do not declare), and of the resources
/// it asked for, those `resources` serves: a URI listed, or one a
/// template fits.
pub(crate) fn accepted<Ctx: 'static>(
    requested: &SubscriptionFilter,
    resources: &Resources<Ctx>,
) -> SubscriptionFilter {
    let mut accepted = SubscriptionFilter::new();
    accepted.tools_list_changed = requested.tools_list_changed;
    accepted.resources_list_changed = requested.resources_list_changed;
    accepted.prompts_list_changed = requested.prompts_list_changed;
    accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
        uris.iter()
            .filter(|uri| resources::serves(resources, uri))
            .cloned()
            .collect()
    });
    accepted
}
