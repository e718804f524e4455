//! Calls parked for a person's approval ([`Approval::Park`]): a record
//! holding the arguments and whose the call is until a decision takes it
//! (once, in whichever process it is given, with a context of the same
//! caller) or its deadline passes, when the call is denied; and an index
//! of each caller's parked calls, so that any process lists them.
//!
//! [`Approval::Park`]: crate::policy::Approval::Park

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use serde_json::Value;

use crate::dispatch::pending::stored::{
    CallRecord, MARGIN, RecordState, StoredCalls, StoredClaim, key, millis, now_ms,
};
use crate::policy::{DecisionError, ParkedCall};
use crate::store::{Store, StoreError, When};
use crate::tool::call_id::Scope;

/// The index of a caller's parked calls: a set of `<parked at>:<id>`.
fn index(caller: Option<&str>) -> String {
    format!("parked:{}", Scope::caller_key(caller))
}

/// Where parking a call left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parking {
    /// Parked for a decision: now, or by an earlier ask of the same call.
    Parked,
    /// The same call was decided already, and runs or has its result
    /// waiting to be taken: one decision, one run.
    Decided,
}

impl StoredCalls {
    /// Parks the call `id` of `scope`'s caller until a decision or until
    /// `within` has passed, unless the same call is parked or decided
    /// already (one parking, one decision, one run). A call whose result
    /// was taken is parked again: it is asked for anew.
    pub(crate) async fn park(
        &self,
        id: &str,
        tool: &str,
        arguments: &Value,
        scope: &Scope,
        within: Duration,
    ) -> Result<Parking, StoreError> {
        let key = key(id);
        let now = now_ms();
        let deadline_ms = now.saturating_add(millis(within));
        let parked = CallRecord {
            tool: tool.to_owned(),
            caller: scope.caller().map(str::to_owned),
            state: RecordState::Parked {
                arguments: arguments.clone(),
                deadline_ms,
                after_ms: millis(within),
                conversation: scope.conversation().map(str::to_owned),
            },
        };
        // Indexed first, so that a parked call is always listed: an entry
        // whose record is not parked (never written, decided) is passed
        // over when read.
        let member = format!("{now:016x}:{id}");
        self.store
            .add_member(&index(scope.caller()), &member, deadline_ms)
            .await?;
        loop {
            let parks = match self.read(&key).await? {
                None => {
                    self.write(&key, &parked, within + MARGIN, When::Absent)
                        .await?
                }
                Some((
                    read,
                    CallRecord {
                        state: RecordState::Done { taken: true, .. },
                        ..
                    },
                )) => {
                    self.write(&key, &parked, within + MARGIN, When::Equals(&read))
                        .await?
                }
                Some((
                    _,
                    CallRecord {
                        state: RecordState::Parked { .. },
                        ..
                    },
                )) => return Ok(Parking::Parked),
                Some(_) => return Ok(Parking::Decided),
            };
            if parks {
                return Ok(Parking::Parked);
            }
        }
    }

    /// Takes the decision on the parked call `id` for this process, for
    /// `caller`: its tool and the arguments the model sent, and the claim
    /// on its run, whose result [`StoredClaim::finish`] records. Another
    /// caller's call, in whatever state, is as unknown as one that never
    /// was.
    pub(crate) async fn decide(
        self: &Arc<Self>,
        id: &str,
        caller: Option<&str>,
        runs_for: Duration,
    ) -> Result<(StoredClaim, Value), DecisionError> {
        let failed = |error| DecisionError::Store {
            call_id: id.to_owned(),
            error,
        };
        let key = key(id);
        loop {
            let found = self.read(&key).await.map_err(failed)?;
            let Some((read, record)) =
                found.filter(|(_, record)| record.caller.as_deref() == caller)
            else {
                return Err(DecisionError::UnknownCall {
                    call_id: id.to_owned(),
                });
            };
            let RecordState::Parked {
                arguments,
                deadline_ms,
                ..
            } = record.state
            else {
                return Err(DecisionError::NotParked {
                    call_id: id.to_owned(),
                });
            };
            if now_ms() >= deadline_ms {
                return Err(DecisionError::NotParked {
                    call_id: id.to_owned(),
                });
            }
            if let Some(claim) = self
                .claim_as(id, &record.tool, caller, runs_for, Some(&read), true)
                .await
                .map_err(failed)?
            {
                return Ok((claim, arguments));
            }
            // Decided elsewhere meanwhile: read again.
        }
    }

    /// The calls of `caller` parked for a decision now, parked by any
    /// process sharing the store, the longest parked first, each once.
    pub(crate) async fn parked(&self, caller: Option<&str>) -> Result<Vec<ParkedCall>, StoreError> {
        let mut calls: Vec<ParkedCall> = Vec::new();
        for member in self.store.members(&index(caller)).await? {
            let Some((_, id)) = member.split_once(':') else {
                continue;
            };
            if calls.iter().any(|call| call.call_id == id) {
                continue;
            }
            let Some((_, record)) = self.read(&key(id)).await? else {
                continue;
            };
            if let RecordState::Parked {
                arguments,
                deadline_ms,
                conversation,
                ..
            } = record.state
                && record.caller.as_deref() == caller
                && now_ms() < deadline_ms
            {
                calls.push(ParkedCall {
                    call_id: id.to_owned(),
                    tool: record.tool,
                    arguments,
                    conversation,
                    deadline: UNIX_EPOCH + Duration::from_millis(deadline_ms),
                });
            }
        }
        Ok(calls)
    }
}

/// Whether the call `id`, recorded in `store`, waits for a decision still:
/// `Some(false)` once it was decided, `None` when no record of it is left.
pub(crate) async fn awaits_decision<S: Store + ?Sized>(
    store: &S,
    id: &str,
) -> Result<Option<bool>, StoreError> {
    let Some(bytes) = store.get(&key(id)).await? else {
        return Ok(None);
    };
    Ok(serde_json::from_slice::<CallRecord>(&bytes)
        .ok()
        .map(|record| matches!(record.state, RecordState::Parked { .. })))
}
