//! The call a process claimed, as it runs: its deferral recorded, the
//! delivery awaited until the deadline, and its final result recorded,
//! unless the call was taken over elsewhere meanwhile.

use std::time::Duration;

use crate::dispatch::pending::stored::{
    CallRecord, MARGIN, RecordState, StoredClaim, key, lost, millis, now_ms, pending_timeout,
};
use crate::output::result::ToolResult;
use crate::store::outage::through_outage;
use crate::store::{StoreError, When};

impl StoredClaim {
    /// The tool deferred its result at once: records that a delivery is
    /// awaited until `within` has passed. The result and `true` if one
    /// was delivered already (and is now the call's); `None` otherwise, or
    /// if the store failed, which [`delivery`](StoredClaim::delivery) will
    /// tell.
    pub(crate) async fn defer(&self, within: Duration) -> Option<(ToolResult, bool)> {
        self.advance(within, false).await
    }

    /// The tool deferred its result: waits for a delivery (from any
    /// process) until `within` has passed, and through an outage of the
    /// store up to its grace. The result, and whether it is recorded
    /// already (as a delivery or a timeout is).
    pub(crate) async fn delivery(&self, within: Duration) -> (ToolResult, bool) {
        match self.advance(within, true).await {
            Some(ended) => ended,
            // A wait ends only with a result.
            None => (lost(&self.tool, &self.id, self.calls.gone()), false),
        }
    }

    /// Moves a deferred call on: to the delivery made while the tool ran,
    /// else to awaiting one; then, if `waits`, to the delivery, or to the
    /// timeout at the deadline. `None` where it would wait, if it does not.
    async fn advance(&self, within: Duration, waits: bool) -> Option<(ToolResult, bool)> {
        let calls = &self.calls;
        let key = key(&self.id);
        let mut watch = calls.store.watch(&key);
        let deadline_ms = now_ms().saturating_add(millis(within));
        loop {
            let failed = |reason| waits.then(|| (lost(&self.tool, &self.id, reason), false));
            // Only a wait bears an outage: a deferral is recorded before
            // its call returns, which is not held up.
            let read = if waits {
                through_outage(&*calls.store, || calls.read(&key)).await
            } else {
                calls.read(&key).await
            };
            let (read, record) = match read {
                Ok(Some(found)) => found,
                Ok(None) => return failed(calls.gone()),
                Err(error) => return failed(error.to_string()),
            };
            let next = match record.state {
                RecordState::Done { result, .. } => return Some((result, true)),
                // Never a claimed call's state: someone emptied and reused it.
                RecordState::Parked { .. } => return failed(calls.gone()),
                RecordState::Running {
                    delivered: Some(result),
                    ..
                } => RecordState::Done {
                    result,
                    taken: false,
                },
                RecordState::Running {
                    delivered: None, ..
                } => RecordState::Awaiting {
                    deadline_ms,
                    after_ms: millis(within),
                },
                RecordState::Awaiting {
                    deadline_ms,
                    after_ms,
                } => {
                    let left = deadline_ms.saturating_sub(now_ms());
                    if left > 0 {
                        if !waits {
                            return None;
                        }
                        let _ = tokio::time::timeout(Duration::from_millis(left), watch.changed())
                            .await;
                        continue;
                    }
                    RecordState::Done {
                        result: pending_timeout(&self.tool, &self.id, after_ms),
                        taken: false,
                    }
                }
            };
            let ttl = match next {
                RecordState::Awaiting { .. } => within + MARGIN,
                _ => within,
            };
            let next = CallRecord {
                tool: record.tool,
                caller: record.caller,
                state: next,
            };
            let write = || calls.write(&key, &next, ttl, When::Equals(&read));
            let written = if waits {
                through_outage(&*calls.store, write).await
            } else {
                write().await
            };
            match written {
                Ok(true) => match next.state {
                    RecordState::Done { result, .. } => return Some((result, true)),
                    // Awaiting now: read again only to wait.
                    _ if !waits => return None,
                    _ => {}
                },
                // Changed meanwhile: read again.
                Ok(false) => {}
                Err(error) => return failed(error.to_string()),
            }
        }
    }

    /// The tool the call is of.
    pub(crate) fn tool(&self) -> &str {
        &self.tool
    }

    /// A parked call approved, whose tool runs as the registry's call
    /// `other` (a `long_running` tool's, under an id of its own): results
    /// delivered to this call go there from now on, in any process.
    pub(crate) async fn approved_as(&self, other: &str) -> Result<(), StoreError> {
        let calls = &self.calls;
        let key = key(&self.id);
        loop {
            let Some((read, record)) = calls.read(&key).await? else {
                return Ok(());
            };
            let RecordState::Running {
                owner,
                until_ms,
                delivered,
                ..
            } = record.state
            else {
                return Ok(());
            };
            let next = CallRecord {
                tool: record.tool,
                caller: record.caller,
                state: RecordState::Running {
                    owner,
                    until_ms,
                    delivered,
                    approved_as: Some(other.to_owned()),
                },
            };
            let ttl = Duration::from_millis(until_ms.saturating_sub(now_ms())) + MARGIN;
            if calls.write(&key, &next, ttl, When::Equals(&read)).await? {
                return Ok(());
            }
        }
    }

    /// Forgets the call here: its result is recorded already.
    pub(crate) fn forget(self) {
        self.calls.running().retain(|id| *id != self.id);
    }

    /// Records the call's final result, kept for `keep_for` for someone to
    /// take, and forgets the call here; through an outage of the store up
    /// to its grace. A call that is no longer this process's (taken for
    /// stopped while it was cut off, ended or run again elsewhere) is left
    /// as it is.
    pub(crate) async fn finish(self, result: ToolResult, keep_for: Duration) {
        let calls = &self.calls;
        let key = key(&self.id);
        let done = CallRecord {
            tool: self.tool.clone(),
            caller: self.caller.clone(),
            state: RecordState::Done {
                result,
                taken: false,
            },
        };
        loop {
            let written = match through_outage(&*calls.store, || calls.read(&key)).await {
                Ok(Some((read, record))) => match record.state {
                    RecordState::Running { owner, .. } if owner == calls.owner() => {
                        let write = || calls.write(&key, &done, keep_for, When::Equals(&read));
                        through_outage(&*calls.store, write).await
                    }
                    _ => {
                        tracing::warn!(
                            tool = %self.tool,
                            call_id = %self.id,
                            "a pending call ended here after it was taken for stopped; its result is dropped"
                        );
                        Ok(true)
                    }
                },
                // The store lost it: its result is recorded again for
                // whoever asks for it next.
                Ok(None) => {
                    let write = || calls.write(&key, &done, keep_for, When::Always);
                    through_outage(&*calls.store, write).await
                }
                Err(error) => Err(error),
            };
            match written {
                Ok(false) => continue,
                Ok(true) => break,
                Err(error) => {
                    tracing::warn!(
                        tool = %self.tool,
                        call_id = %self.id,
                        %error,
                        "the result of a pending call could not be recorded"
                    );
                    break;
                }
            }
        }
        calls.running().retain(|id| *id != self.id);
    }
}
