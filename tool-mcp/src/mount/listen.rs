//! A server's list changes over 2026-07-28, where a server tells them only
//! on a stream the client opens for them (`subscriptions/listen`); over
//! older versions they come on the session's own (`connect.rs`).

use std::time::Duration;

use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::{Peer, RoleClient, Subscription};

/// How long the mount waits before opening again a stream the server
/// ended.
pub(crate) const REOPEN_AFTER: Duration = Duration::from_secs(1);

/// What a stream of list changes brought.
pub(crate) enum Heard {
    /// The server's tools changed.
    ToolsChanged,
    /// The stream ended.
    Ended,
}

/// A stream of the server's tool list changes, if the server speaks
/// 2026-07-28 and says its tool list changes; opened before the list is
/// read, so that no change between the two is missed.
pub(crate) async fn open(peer: &Peer<RoleClient>) -> Option<Subscription> {
    let info = peer.peer_info()?;
    let changes = info
        .capabilities
        .tools
        .as_ref()
        .and_then(|tools| tools.list_changed)
        .unwrap_or(false);
    if info.protocol_version.has_initialize() || !changes {
        return None;
    }
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    match peer.listen(filter).await {
        Ok(subscription) => Some(subscription),
        Err(error) => {
            tracing::warn!(%error, "the server's tool list changes cannot be followed");
            None
        }
    }
}

/// The next change `stream` brings; never, without a stream.
pub(crate) async fn next(stream: &mut Option<Subscription>) -> Heard {
    let Some(subscription) = stream else {
        return std::future::pending().await;
    };
    loop {
        match subscription.next().await {
            Ok(Some(ServerNotification::ToolListChangedNotification(_))) => {
                return Heard::ToolsChanged;
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => {
                *stream = None;
                return Heard::Ended;
            }
        }
    }
}
