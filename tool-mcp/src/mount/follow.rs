//! Following a mounted server until the mount ends: its list changes put
//! in the registry, and, when its connection ends, the server started or
//! reached again with backoff, its tools answering that it is down
//! meanwhile; or, when it is not to be started again, its tools taken out
//! of the registry.

use std::sync::Arc;
use std::time::Duration;

use rmcp::service::{Peer, RoleClient, RunningService, Subscription};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::toolset::RegistryHandle;

use super::child::Alive;
use super::connect::{Client, ServerLocation, connect};
use super::connection::{Gone, ServerLink};
use super::heard::Heard;
use super::listen;
use super::progress::Reports;
use super::shared::MountShared;

/// How a mount brings back a server whose connection ended (a child
/// process that exited, an HTTP server gone): it tries again after
/// `first`, then after twice as long each time, up to `max`; its tools
/// answer that the server is down meanwhile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restart {
    first: Duration,
    max: Duration,
}

impl Restart {
    /// The default: after half a second, doubling up to 30 seconds.
    pub const DEFAULT: Restart = Restart {
        first: Duration::from_millis(500),
        max: Duration::from_secs(30),
    };

    /// After `first`, then twice as long each time, up to `max`.
    pub fn backoff(first: Duration, max: Duration) -> Self {
        Self {
            first,
            max: max.max(first),
        }
    }
}

impl Default for Restart {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// What following a server takes.
pub(crate) struct Follow<Ctx> {
    pub(crate) shared: Arc<MountShared>,
    pub(crate) handle: RegistryHandle<Ctx>,
    pub(crate) source: ServerLocation,
    pub(crate) client: Client,
    pub(crate) changed: Arc<Notify>,
    pub(crate) stop: CancellationToken,
    pub(crate) restart: Option<Restart>,
    pub(crate) connect_timeout: Duration,
    /// Held until the following ends.
    pub(crate) alive: Alive,
}

impl<Ctx: Send + Sync + 'static> Follow<Ctx> {
    /// Follows the server, connected through `running`, until the mount
    /// ends; `listening`: its list changes, where they come on a stream
    /// of their own.
    pub(crate) async fn run(
        self,
        mut running: RunningService<RoleClient, Client>,
        mut listening: Option<Subscription>,
    ) {
        loop {
            let peer = running.peer().clone();
            let stopped = self.session(&peer, listening.take()).await;
            let restart = match (stopped, self.restart) {
                (false, Some(restart)) => restart,
                (false, None) => {
                    // Gone before the connection is closed, so that a call
                    // it ends says so.
                    self.shared.end(&self.handle, Gone::Ended);
                    let _ = running.close().await;
                    return;
                }
                (true, _) => {
                    // Dropped: its tools are out of the registry already;
                    // closing ends the calls still running.
                    self.shared.end(&self.handle, Gone::Unmounted);
                    let _ = running.close().await;
                    return;
                }
            };
            let _ = running.close().await;
            match self.reconnect(restart).await {
                Some((next, changes)) => (running, listening) = (next, changes),
                None => {
                    self.shared.end(&self.handle, Gone::Unmounted);
                    return;
                }
            }
        }
    }

    /// One connection: `true` when the mount ends, `false` when the
    /// connection does.
    async fn session(&self, peer: &Peer<RoleClient>, mut listening: Option<Subscription>) -> bool {
        loop {
            tokio::select! {
                () = self.stop.cancelled() => return true,
                () = self.changed.notified() => self.relist(peer).await,
                heard = listen::next(&mut listening) => {
                    if let listen::Heard::Ended = heard {
                        // Opened again, and the list read again: it may
                        // have changed in between.
                        tokio::select! {
                            () = self.stop.cancelled() => return true,
                            () = tokio::time::sleep(listen::REOPEN_AFTER) => {}
                        }
                        listening = listen::open(peer).await;
                    }
                    self.relist(peer).await;
                }
                () = wait_closed(peer) => return false,
            }
        }
    }

    /// The server's new list, in the registry.
    async fn relist(&self, peer: &Peer<RoleClient>) {
        let server = &self.shared.server;
        match self.shared.list(peer).await {
            Ok(listed) => {
                if let Err(error) = self.shared.put(&self.handle, &listed, false) {
                    tracing::warn!(%server, %error, "the new tool list is not mounted");
                }
            }
            Err(error) => tracing::warn!(%server, %error, "the new tool list could not be read"),
        }
    }

    /// Starts or reaches the server again until it answers and lists its
    /// tools, or the mount ends (`None`); with the stream of its list
    /// changes, where they come on one.
    async fn reconnect(
        &self,
        restart: Restart,
    ) -> Option<(RunningService<RoleClient, Client>, Option<Subscription>)> {
        let server = &self.shared.server;
        let mut delay = restart.first;
        for attempt in 1_u64.. {
            self.down(&format!(
                "it closed its connection; starting it again, attempt {attempt}"
            ));
            tokio::select! {
                () = self.stop.cancelled() => return None,
                () = tokio::time::sleep(delay) => {}
            }
            delay = (delay * 2).min(restart.max);
            // A new connection's calls count their progress tokens anew.
            let heard = Heard {
                tasks: Arc::clone(&self.shared.connection.tasks),
                reports: Arc::new(Reports::default()),
                too_deep: Arc::clone(&self.shared.connection.too_deep),
                desk: self.client.desk(),
            };
            let reports = Arc::clone(&heard.reports);
            let connecting = connect(
                server,
                &self.source,
                self.client.clone(),
                heard,
                &self.alive,
            );
            let running = match tokio::time::timeout(self.connect_timeout, connecting).await {
                Ok(Ok(running)) => running,
                Ok(Err(error)) => {
                    tracing::warn!(%server, %error, attempt, "not started again");
                    continue;
                }
                Err(_) => {
                    tracing::warn!(%server, attempt, "no answer when started again");
                    continue;
                }
            };
            let listening = listen::open(running.peer()).await;
            let listing = self.shared.list(running.peer());
            match tokio::time::timeout(self.connect_timeout, listing).await {
                Ok(Ok(listed)) => {
                    self.shared.connection.up(ServerLink {
                        peer: running.peer().clone(),
                        reports,
                    });
                    if let Err(error) = self.shared.put(&self.handle, &listed, false) {
                        tracing::warn!(%server, %error, "the tool list is not mounted");
                    }
                    tracing::info!(%server, attempt, "started again");
                    return Some((running, listening));
                }
                // A list over the mount's limit says so.
                Ok(Err(error)) => {
                    tracing::warn!(%server, attempt, %error, "started again, but its tools are not mounted");
                }
                Err(_) => {
                    tracing::warn!(%server, attempt, "started again, but did not list its tools")
                }
            }
        }
        None
    }

    fn down(&self, why: &str) {
        self.shared.connection.down(why.to_owned());
    }
}

/// Waits until the transport to the server is closed.
async fn wait_closed(peer: &Peer<RoleClient>) {
    // rmcp says so only when asked: ask now and then.
    while !peer.is_transport_closed() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
