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

use super::stored::{MARGIN, Record, State, StoredCalls, StoredClaim, key, millis, now_ms};
use crate::policy::{DecisionError, ParkedCall};
use crate::store::{Store, StoreError, When};
use crate::tool::Scope;

/// The index of a caller's parked calls: a set of `<parked at>:<id>`.
fn index(caller: Option<&str>) -> String {
    format!("parked:{}", Scope::caller_key(caller))
}

impl StoredCalls {
    /// Parks the call `id` of `scope`'s caller until a decision or until
    /// `within` has passed: `false` if it is parked or pending already
    /// (one parking, one run).
    pub(crate) async fn park(
        &self,
        id: &str,
        tool: &str,
        arguments: &Value,
        scope: &Scope,
        within: Duration,
    ) -> Result<bool, StoreError> {
        let key = key(id);
        let now = now_ms();
        let deadline_ms = now.saturating_add(millis(within));
        let parked = Record {
            tool: tool.to_owned(),
            state: State::Parked {
                arguments: arguments.clone(),
                deadline_ms,
                after_ms: millis(within),
                caller: scope.caller().map(str::to_owned),
                conversation: scope.conversation().map(str::to_owned),
            },
        };
        loop {
            let parks = match self.read(&key).await? {
                None => {
                    self.write(&key, &parked, within + MARGIN, When::Absent)
                        .await?
                }
                Some((
                    read,
                    Record {
                        state: State::Done { .. },
                        ..
                    },
                )) => {
                    self.write(&key, &parked, within + MARGIN, When::Equals(&read))
                        .await?
                }
                Some(_) => return Ok(false),
            };
            if parks {
                // Listed from any process until its deadline; a call
                // decided before is left out when read.
                let member = format!("{now:016x}:{id}");
                self.store
                    .add_member(&index(scope.caller()), &member, deadline_ms)
                    .await?;
                return Ok(true);
            }
        }
    }

    /// Takes the decision on the parked call `id` for this process, for
    /// `caller`: its tool and the arguments the model sent, and the claim
    /// on its run, whose result [`StoredClaim::finish`] records. Another
    /// caller's call is as unknown as one that never was.
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
        let unknown = || DecisionError::UnknownCall {
            call_id: id.to_owned(),
        };
        let key = key(id);
        loop {
            let Some((read, record)) = self.read(&key).await.map_err(failed)? else {
                return Err(unknown());
            };
            let State::Parked {
                arguments,
                deadline_ms,
                caller: parked_by,
                ..
            } = record.state
            else {
                return Err(DecisionError::NotParked {
                    call_id: id.to_owned(),
                });
            };
            if parked_by.as_deref() != caller {
                return Err(unknown());
            }
            if now_ms() >= deadline_ms {
                return Err(DecisionError::NotParked {
                    call_id: id.to_owned(),
                });
            }
            if let Some(claim) = self
                .claim_from(id, &record.tool, runs_for, Some(&read))
                .await
                .map_err(failed)?
            {
                return Ok((claim, arguments));
            }
            // Decided elsewhere meanwhile: read again.
        }
    }

    /// The calls of `caller` parked for a decision now, parked by any
    /// process sharing the store, the longest parked first.
    pub(crate) async fn parked(&self, caller: Option<&str>) -> Result<Vec<ParkedCall>, StoreError> {
        let mut calls = Vec::new();
        for member in self.store.members(&index(caller)).await? {
            let Some((_, id)) = member.split_once(':') else {
                continue;
            };
            let Some((_, record)) = self.read(&key(id)).await? else {
                continue;
            };
            if let State::Parked {
                arguments,
                deadline_ms,
                caller: parked_by,
                conversation,
                ..
            } = record.state
                && parked_by.as_deref() == caller
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
    Ok(serde_json::from_slice::<Record>(&bytes)
        .ok()
        .map(|record| matches!(record.state, State::Parked { .. })))
}
