//! Calls of `long_running` tools whose results come later: kept in this
//! process ([`MemoryCalls`]), or in a [`Store`](crate::store::Store) that
//! other processes share ([`StoredCalls`]), where a result delivered to
//! any of them reaches whoever waits on the call, and a turn paused in
//! one can be finished in another.

pub(crate) mod claim;
pub(crate) mod memory;
pub(crate) mod parked;
pub(crate) mod stored;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::dispatch::pending::memory::MemoryCalls;
use crate::dispatch::pending::parked::Parking;
use crate::dispatch::pending::stored::{StoredCalls, StoredClaim};
use crate::output::result::ToolResult;
use crate::policy::{DecisionError, ParkedCall};
use crate::store::StoreError;
use crate::store::memory::MemoryStore;
use crate::tool::call_id::Scope;

/// Why [`Pending::deliver`](crate::registry::Pending::deliver) did not take
/// a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeliveryError {
    /// No pending call has that id (it never existed, or its result was
    /// already taken by [`Pending::wait`](crate::registry::Pending::wait)).
    #[error("no pending call has the id `{call_id}`")]
    UnknownCall {
        /// The id given.
        call_id: String,
    },
    /// The call's result is final already: a result was delivered before,
    /// the tool produced its own, or the call timed out.
    #[error("the call `{call_id}` is not waiting for a delivered result")]
    NotAwaitingDelivery {
        /// The id given.
        call_id: String,
    },
    /// The store that keeps the registry's pending calls failed
    /// ([`RegistryBuilder::store`](crate::registry::RegistryBuilder::store)): the
    /// result was not delivered.
    #[error("the result of call `{call_id}` was not delivered: {error}")]
    Store {
        /// The id given.
        call_id: String,
        /// What the store said.
        error: StoreError,
    },
}

/// Where a registry keeps its pending calls.
pub(crate) enum PendingCalls {
    /// In this process; calls parked for approval in a store in memory,
    /// made when the first is parked.
    Memory {
        calls: MemoryCalls,
        parked: OnceLock<Arc<StoredCalls>>,
    },
    Stored(Arc<StoredCalls>),
}

impl PendingCalls {
    /// The final result of a call; `tool`, when known, names it in the
    /// error of a result the store lost.
    pub(crate) async fn wait(&self, call_id: &str, tool: Option<&str>) -> Option<ToolResult> {
        match self {
            PendingCalls::Memory { calls, parked } => match calls.wait(call_id).await {
                Some(result) => Some(result),
                None => Box::pin(parked.get()?.wait(call_id, tool)).await,
            },
            PendingCalls::Stored(calls) => Box::pin(calls.wait(call_id, tool)).await,
        }
    }

    /// Hands a result to a call; a stored one keeps it for `keep_for`,
    /// its media bounded by `max_media_bytes` as the tool's own would be
    /// (the background run bounds it in memory).
    pub(crate) async fn deliver(
        &self,
        call_id: &str,
        result: ToolResult,
        keep_for: Duration,
        max_media_bytes: usize,
    ) -> Result<(), DeliveryError> {
        match self {
            PendingCalls::Memory { calls, parked } => {
                let Some(parking) = parked.get() else {
                    return calls.deliver(call_id, result);
                };
                if !calls.has(call_id) {
                    // A parked call approved, whose tool runs here under
                    // an id of its own, takes its deliveries there.
                    return match parking.approved_as(call_id).await {
                        Ok(Some(other)) => calls.deliver(&other, result),
                        Ok(None) => Err(DeliveryError::NotAwaitingDelivery {
                            call_id: call_id.to_owned(),
                        }),
                        Err(error) => Err(DeliveryError::Store {
                            call_id: call_id.to_owned(),
                            error,
                        }),
                    };
                }
                calls.deliver(call_id, result)
            }
            PendingCalls::Stored(calls) => {
                let forwarded = calls
                    .deliver(call_id, result, keep_for, max_media_bytes)
                    .await?;
                match forwarded {
                    None => Ok(()),
                    // Approved and run as another call: once, no further.
                    Some((other, result)) => calls
                        .deliver(&other, result, keep_for, max_media_bytes)
                        .await
                        .map(|_| ()),
                }
            }
        }
    }

    /// The ids of the calls pending here.
    pub(crate) fn ids(&self) -> Vec<String> {
        match self {
            PendingCalls::Memory { calls, .. } => calls.ids(),
            PendingCalls::Stored(calls) => calls.ids(),
        }
    }

    /// Where calls are parked for approval.
    fn parking(&self) -> &Arc<StoredCalls> {
        match self {
            PendingCalls::Memory { parked, .. } => {
                parked.get_or_init(|| Arc::new(StoredCalls::private(Arc::new(MemoryStore::new()))))
            }
            PendingCalls::Stored(calls) => calls,
        }
    }

    /// Where the questions of tools marked `asks` are parked: beside the
    /// calls parked for approval.
    pub(crate) fn desk(&self) -> &Arc<crate::elicit::stored_questions::StoredQuestions> {
        self.parking().desk()
    }

    /// Parks the call `call_id` of `scope`'s caller for a decision, for
    /// at most `within`.
    pub(crate) async fn park(
        &self,
        call_id: &str,
        tool: &str,
        arguments: &serde_json::Value,
        scope: &Scope,
        within: Duration,
    ) -> Result<Parking, StoreError> {
        self.parking()
            .park(call_id, tool, arguments, scope, within)
            .await
    }

    /// Takes `caller`'s decision on a parked call: the claim on its run
    /// and the arguments the model sent.
    pub(crate) async fn decide(
        &self,
        call_id: &str,
        caller: Option<&str>,
        runs_for: Duration,
    ) -> Result<(StoredClaim, serde_json::Value), DecisionError> {
        if let PendingCalls::Memory { parked, .. } = self
            && parked.get().is_none()
        {
            return Err(DecisionError::UnknownCall {
                call_id: call_id.to_owned(),
            });
        }
        self.parking().decide(call_id, caller, runs_for).await
    }

    /// `caller`'s calls parked for a decision.
    pub(crate) async fn parked(&self, caller: Option<&str>) -> Result<Vec<ParkedCall>, StoreError> {
        if let PendingCalls::Memory { parked, .. } = self
            && parked.get().is_none()
        {
            return Ok(Vec::new());
        }
        self.parking().parked(caller).await
    }
}

impl Default for PendingCalls {
    fn default() -> Self {
        PendingCalls::Memory {
            calls: MemoryCalls::default(),
            parked: OnceLock::new(),
        }
    }
}
