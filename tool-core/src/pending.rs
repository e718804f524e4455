//! Calls of `long_running` tools whose results come later.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::oneshot;

use crate::ToolResult;

/// Why [`ToolRegistry::deliver`](crate::ToolRegistry::deliver) did not take
/// a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeliveryError {
    /// No pending call has that id (it never existed, or its result was
    /// already taken by [`ToolRegistry::wait`](crate::ToolRegistry::wait)).
    #[error("no pending call has the id `{call_id}`")]
    UnknownCall {
        /// The id given.
        call_id: String,
    },
    /// The call is pending but not waiting for a delivery: its tool is still
    /// running, produced its own result, was already delivered to, or timed
    /// out.
    #[error("the call `{call_id}` is not waiting for a delivered result")]
    NotAwaitingDelivery {
        /// The id given.
        call_id: String,
    },
}

/// One pending call.
struct Slot {
    /// Where a delivered result goes, once the tool has deferred it.
    deliver: Option<oneshot::Sender<ToolResult>>,
    /// Where the final result arrives, until someone waits for it.
    result: Option<oneshot::Receiver<ToolResult>>,
}

/// The pending calls of one registry, by call id.
#[derive(Default)]
pub(crate) struct PendingCalls {
    slots: Mutex<HashMap<String, Slot>>,
}

/// The two ends the background task of a pending call holds.
pub(crate) struct Opened {
    /// Delivered results arrive here.
    pub(crate) delivered: oneshot::Receiver<ToolResult>,
    /// The final result goes here.
    pub(crate) finish: oneshot::Sender<ToolResult>,
}

impl PendingCalls {
    fn slots(&self) -> MutexGuard<'_, HashMap<String, Slot>> {
        // A panic while holding this lock leaves the map consistent: every
        // operation is a single insert, take or remove.
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a call; `None` when a call with this id is pending already.
    pub(crate) fn open(&self, call_id: &str) -> Option<Opened> {
        let mut slots = self.slots();
        if slots.contains_key(call_id) {
            return None;
        }
        let (deliver, delivered) = oneshot::channel();
        let (finish, result) = oneshot::channel();
        slots.insert(
            call_id.to_owned(),
            Slot {
                deliver: Some(deliver),
                result: Some(result),
            },
        );
        Some(Opened { delivered, finish })
    }

    /// Hands a result to a call whose tool deferred it.
    pub(crate) fn deliver(&self, call_id: &str, result: ToolResult) -> Result<(), DeliveryError> {
        let sender = {
            let mut slots = self.slots();
            let slot = slots
                .get_mut(call_id)
                .ok_or_else(|| DeliveryError::UnknownCall {
                    call_id: call_id.to_owned(),
                })?;
            slot.deliver.take()
        };
        match sender {
            Some(sender) => sender
                .send(result)
                .map_err(|_| DeliveryError::NotAwaitingDelivery {
                    call_id: call_id.to_owned(),
                }),
            None => Err(DeliveryError::NotAwaitingDelivery {
                call_id: call_id.to_owned(),
            }),
        }
    }

    /// The receiver of a call's final result, for one waiter.
    pub(crate) fn waiter(&self, call_id: &str) -> Option<oneshot::Receiver<ToolResult>> {
        self.slots().get_mut(call_id)?.result.take()
    }

    /// Forgets a call whose result has been taken.
    pub(crate) fn close(&self, call_id: &str) {
        self.slots().remove(call_id);
    }

    /// The ids of the calls still pending.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.slots().keys().cloned().collect()
    }
}
