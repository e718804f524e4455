//! Calls parked for a person's approval ([`Approval::Park`]): a record
//! holding the arguments until a decision takes it (once, in whichever
//! process it is given) or its deadline passes, when the call is denied.
//!
//! [`Approval::Park`]: crate::policy::Approval::Park

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::stored::{MARGIN, Record, State, StoredCalls, StoredClaim, key, millis, now_ms};
use crate::policy::DecisionError;
use crate::store::{StoreError, When};

impl StoredCalls {
    /// Parks the call `id` until a decision or until `within` has passed:
    /// `false` if it is parked or pending already (one parking, one run).
    pub(crate) async fn park(
        &self,
        id: &str,
        tool: &str,
        arguments: &Value,
        within: Duration,
    ) -> Result<bool, StoreError> {
        let key = key(id);
        let parked = Record {
            tool: tool.to_owned(),
            state: State::Parked {
                arguments: arguments.clone(),
                deadline_ms: now_ms().saturating_add(millis(within)),
                after_ms: millis(within),
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
                return Ok(true);
            }
        }
    }

    /// Takes the decision on the parked call `id` for this process: its
    /// tool and the arguments the model sent, and the claim on its run,
    /// whose result [`StoredClaim::finish`] records.
    pub(crate) async fn decide(
        self: &Arc<Self>,
        id: &str,
        runs_for: Duration,
    ) -> Result<(StoredClaim, Value), DecisionError> {
        let failed = |error| DecisionError::Store {
            call_id: id.to_owned(),
            error,
        };
        let key = key(id);
        loop {
            let Some((read, record)) = self.read(&key).await.map_err(failed)? else {
                return Err(DecisionError::UnknownCall {
                    call_id: id.to_owned(),
                });
            };
            let State::Parked {
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
                .claim_from(id, &record.tool, runs_for, Some(&read))
                .await
                .map_err(failed)?
            {
                return Ok((claim, arguments));
            }
            // Decided elsewhere meanwhile: read again.
        }
    }
}
