//! Pending calls kept in this process: channels, no copies.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::{oneshot, watch};

use crate::dispatch::pending::DeliveryError;
use crate::output::result::ToolResult;

/// One pending call.
struct CallSlot {
    /// Where a delivered result goes: taken by the first delivery.
    deliver: Option<oneshot::Sender<ToolResult>>,
    /// The final result, once there is one; every waiter watches it.
    result: watch::Sender<Option<ToolResult>>,
}

/// The pending calls of one registry, by call id.
#[derive(Default)]
pub(crate) struct MemoryCalls {
    slots: Mutex<HashMap<String, CallSlot>>,
}

/// The two ends the background task of a pending call holds.
pub(crate) struct MemoryOpened {
    /// Delivered results arrive here.
    pub(crate) delivered: oneshot::Receiver<ToolResult>,
    /// The final result goes here.
    pub(crate) finish: watch::Sender<Option<ToolResult>>,
}

impl MemoryCalls {
    fn slots(&self) -> MutexGuard<'_, HashMap<String, CallSlot>> {
        // A panic while holding this lock leaves the map consistent: every
        // operation is a single insert, take or remove.
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a call; `None` when the same call is pending already, or
    /// its result waits to be taken (one run, one result). A call whose
    /// result was taken is forgotten, and runs again.
    pub(crate) fn open(&self, call_id: &str) -> Option<MemoryOpened> {
        let mut slots = self.slots();
        if slots.contains_key(call_id) {
            return None;
        }
        let (deliver, delivered) = oneshot::channel();
        let (finish, _) = watch::channel(None);
        slots.insert(
            call_id.to_owned(),
            CallSlot {
                deliver: Some(deliver),
                result: finish.clone(),
            },
        );
        Some(MemoryOpened { delivered, finish })
    }

    /// Hands a result to a pending call. A delivery made while the tool is
    /// still running is kept for when it defers; if the tool produces its
    /// own result instead, that result is the call's.
    pub(crate) fn deliver(&self, call_id: &str, result: ToolResult) -> Result<(), DeliveryError> {
        let sender = {
            let mut slots = self.slots();
            let slot = slots
                .get_mut(call_id)
                .ok_or_else(|| DeliveryError::UnknownCall {
                    call_id: call_id.to_owned(),
                })?;
            if slot.result.borrow().is_some() {
                None
            } else {
                slot.deliver.take()
            }
        };
        let not_awaiting = || DeliveryError::NotAwaitingDelivery {
            call_id: call_id.to_owned(),
        };
        sender
            .ok_or_else(not_awaiting)?
            .send(result)
            .map_err(|_| not_awaiting())
    }

    /// The final result of a call, once there is one; `None` for a call that
    /// is not pending. Cancelling the wait loses nothing, and every waiter
    /// gets the result; the call is forgotten once one of them has it.
    pub(crate) async fn wait(&self, call_id: &str) -> Option<ToolResult> {
        let mut watcher = self.slots().get(call_id)?.result.subscribe();
        let result = watcher.wait_for(Option::is_some).await.ok()?.clone();
        let mut slots = self.slots();
        // Unless a new call of the same id has taken the place meanwhile.
        if slots
            .get(call_id)
            .is_some_and(|slot| slot.result.subscribe().same_channel(&watcher))
        {
            slots.remove(call_id);
        }
        result
    }

    /// Forgets the call `call_id` whose result went to `finish`, if no one
    /// took it (and no new call of the same id took its place).
    pub(crate) fn forget(&self, call_id: &str, finish: &watch::Sender<Option<ToolResult>>) {
        let mut slots = self.slots();
        if slots
            .get(call_id)
            .is_some_and(|slot| slot.result.subscribe().same_channel(&finish.subscribe()))
        {
            slots.remove(call_id);
        }
    }

    /// Whether the call `call_id` is pending here, or finished with its
    /// result not yet taken.
    pub(crate) fn has(&self, call_id: &str) -> bool {
        self.slots().contains_key(call_id)
    }

    /// The ids of the calls still pending, or finished with their result
    /// not yet taken.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.slots().keys().cloned().collect()
    }
}
