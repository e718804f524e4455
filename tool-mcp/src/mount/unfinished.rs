//! What a call leaves on the server if its caller gives up on it: a
//! request sent and not answered, or a task not ended; dropped before it
//! is done with, the server is told.

use rmcp::model::{CancelledNotificationParam, ClientRequest, CustomRequest, RequestId};
use rmcp::service::{Peer, RoleClient};
use serde_json::json;

/// Something sent to the server and not yet done with: dropped so (the
/// call cancelled or out of time), the server is told its caller gave up.
pub(super) struct Unfinished {
    peer: Option<Peer<RoleClient>>,
    give_up: GiveUp,
}

/// What the server is told when its caller gives up.
pub(super) enum GiveUp {
    /// `notifications/cancelled` for this request.
    Request(RequestId),
    /// `tasks/cancel` for this task.
    Task(String),
}

impl Unfinished {
    pub(super) fn new(peer: &Peer<RoleClient>, give_up: GiveUp) -> Self {
        Self {
            peer: Some(peer.clone()),
            give_up,
        }
    }

    /// Done with: nothing to tell.
    pub(super) fn done(mut self) {
        self.peer = None;
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        let (Some(peer), Ok(runtime)) = (self.peer.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        match std::mem::replace(&mut self.give_up, GiveUp::Task(String::new())) {
            GiveUp::Request(id) => {
                let cancelled = CancelledNotificationParam::new(
                    Some(id),
                    Some("cancelled by the caller".into()),
                );
                runtime.spawn(async move {
                    let _ = peer.notify_cancelled(cancelled).await;
                });
            }
            GiveUp::Task(id) => {
                let cancel = ClientRequest::CustomRequest(CustomRequest::new(
                    "tasks/cancel",
                    Some(json!({"taskId": id})),
                ));
                runtime.spawn(async move {
                    let _ = peer.send_request(cancel).await;
                });
            }
        }
    }
}
