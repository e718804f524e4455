//! Pending calls kept in a [`Store`]: each call one record, `call:<id>`,
//! which moves from running to awaiting a delivery to done, each step
//! made from the state read (so that two processes never both make it),
//! and which any process sharing the store can deliver to or wait on.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dispatch::output::bound_media;
use crate::dispatch::pending::DeliveryError;
use crate::elicit::stored_questions::StoredQuestions;
use crate::error::tool_error::Secs;
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::store::lease::{LEASE, Lease};
use crate::store::outage::through_outage;
use crate::store::{Store, StoreError, When};

/// Before every call's key.
const PREFIX: &str = "call:";

/// How long a result stays once taken, for the other waiters on the call
/// that read it a moment later.
const TAKEN_GRACE: Duration = Duration::from_secs(5);

/// Why a call whose process stopped has no result.
const STOPPED: &str = "the process that ran it stopped before it finished";

/// How long a record outlives the time its state may last: the time for a
/// process that finds it to act on it.
pub(super) const MARGIN: Duration = Duration::from_secs(60);

/// One call's record, and whose the call is: only its caller lists and
/// decides it.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct CallRecord {
    pub(super) tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) caller: Option<String>,
    #[serde(flatten)]
    pub(super) state: RecordState,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub(super) enum RecordState {
    /// The tool runs (in whichever process claimed the call); a result
    /// delivered meanwhile is kept for when it defers.
    Running {
        /// The process that runs it ([`Lease`]).
        owner: String,
        /// When the run's time is up (ms since the Unix epoch): the record
        /// is kept until then, whatever else is written to it.
        #[serde(default)]
        until_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delivered: Option<ToolResult>,
        /// A parked call being decided: empty until its tool runs as
        /// another call of the registry (a `long_running` one's), that
        /// call's id then, where its deliveries go.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approved_as: Option<String>,
    },
    /// The tool deferred: a delivery is awaited until the deadline (ms
    /// since the Unix epoch, every process's clock).
    Awaiting { deadline_ms: u64, after_ms: u64 },
    /// The call's final result; `taken` once someone waiting had it,
    /// after which the same call asked for again is run again.
    Done {
        result: ToolResult,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        taken: bool,
    },
    /// Parked for a person's decision until the deadline, with the
    /// arguments the model sent and the conversation it was made in.
    Parked {
        arguments: Value,
        deadline_ms: u64,
        after_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        conversation: Option<String>,
    },
}

/// The pending calls of a registry whose store is shared.
pub(crate) struct StoredCalls {
    pub(super) store: Arc<dyn Store>,
    /// This process's lease, where other processes share the store; none
    /// where no other process can see it (the calls a registry without a
    /// store parks), whose calls' owner always lives.
    lease: Option<Arc<Lease>>,
    /// The calls this process runs that have not finished, for
    /// [`Pending::ids`](crate::registry::Pending::ids).
    running: Mutex<Vec<String>>,
    /// The questions of tools marked `asks`, parked in the same store.
    desk: OnceLock<Arc<StoredQuestions>>,
}

/// A call this process claimed: it runs the tool and records the result.
pub(crate) struct StoredClaim {
    pub(super) calls: Arc<StoredCalls>,
    pub(super) id: String,
    pub(super) tool: String,
    pub(super) caller: Option<String>,
}

/// The owner of the calls of a store no other process sees.
const THIS_PROCESS: &str = "this-process";

impl StoredCalls {
    /// The calls kept in `store`, which other processes may share.
    pub(crate) fn new(store: Arc<dyn Store>) -> Self {
        Self {
            lease: Some(Lease::new(Arc::clone(&store))),
            store,
            running: Mutex::default(),
            desk: OnceLock::new(),
        }
    }

    /// The calls kept in a store of this process's own: no lease to renew.
    pub(crate) fn private(store: Arc<dyn Store>) -> Self {
        Self {
            lease: None,
            store,
            running: Mutex::default(),
            desk: OnceLock::new(),
        }
    }

    /// Where the questions of tools marked `asks` are parked.
    pub(crate) fn desk(&self) -> &Arc<StoredQuestions> {
        self.desk
            .get_or_init(|| Arc::new(StoredQuestions::new(Arc::clone(&self.store))))
    }

    /// This process's id among those sharing the store.
    pub(super) fn owner(&self) -> &str {
        self.lease.as_deref().map_or(THIS_PROCESS, Lease::owner)
    }

    /// Whether the process `owner` still lives.
    async fn lives(&self, owner: &str) -> Result<bool, StoreError> {
        match &self.lease {
            Some(_) => Lease::lives(&*self.store, owner).await,
            None => Ok(true),
        }
    }

    pub(super) fn running(&self) -> MutexGuard<'_, Vec<String>> {
        // Each operation under this lock is one push or removal.
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The ids of the calls this process runs that have not finished.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.running().clone()
    }

    /// Claims the call `id` of `caller` for this process to run: `None`
    /// when it is pending already, here or in another process sharing the
    /// store, or its result waits to be taken (one run, one result). A
    /// call whose result was taken, or whose process stopped before it
    /// finished, is claimed again.
    pub(crate) async fn open(
        self: &Arc<Self>,
        id: &str,
        tool: &str,
        caller: Option<&str>,
        runs_for: Duration,
    ) -> Result<Option<StoredClaim>, StoreError> {
        // Most calls are new: claimed without a read first.
        if let Some(claim) = self.claim_from(id, tool, caller, runs_for, None).await? {
            return Ok(Some(claim));
        }
        let key = key(id);
        loop {
            let Some((read, record)) = self.read(&key).await? else {
                if let Some(claim) = self.claim_from(id, tool, caller, runs_for, None).await? {
                    return Ok(Some(claim));
                }
                continue;
            };
            let free = match &record.state {
                RecordState::Done { taken, .. } => *taken,
                RecordState::Running { owner, .. } => !self.lives(owner).await?,
                RecordState::Awaiting { .. } | RecordState::Parked { .. } => false,
            };
            if !free {
                return Ok(None);
            }
            if let Some(claim) = self
                .claim_from(id, tool, caller, runs_for, Some(&read))
                .await?
            {
                return Ok(Some(claim));
            }
            // Changed between the read and the write: read again.
        }
    }

    /// Claims the call `id` for this process to run, if its record is
    /// still `read` (or absent, for `None`).
    pub(super) async fn claim_from(
        self: &Arc<Self>,
        id: &str,
        tool: &str,
        caller: Option<&str>,
        runs_for: Duration,
        read: Option<&[u8]>,
    ) -> Result<Option<StoredClaim>, StoreError> {
        self.claim_as(id, tool, caller, runs_for, read, false).await
    }

    /// [`claim_from`](Self::claim_from), for a decision on a parked call
    /// when `deciding`: no delivery is taken until its approved run has an
    /// id ([`StoredClaim::approved_as`]).
    pub(super) async fn claim_as(
        self: &Arc<Self>,
        id: &str,
        tool: &str,
        caller: Option<&str>,
        runs_for: Duration,
        read: Option<&[u8]>,
        deciding: bool,
    ) -> Result<Option<StoredClaim>, StoreError> {
        if let Some(lease) = &self.lease {
            lease.hold().await?;
        }
        let running = CallRecord {
            tool: tool.to_owned(),
            caller: caller.map(str::to_owned),
            state: RecordState::Running {
                owner: self.owner().to_owned(),
                until_ms: now_ms().saturating_add(millis(runs_for)),
                delivered: None,
                approved_as: deciding.then(String::new),
            },
        };
        let when = match read {
            Some(read) => When::Equals(read),
            None => When::Absent,
        };
        if !self.write(&key(id), &running, runs_for, when).await? {
            return Ok(None);
        }
        self.running().push(id.to_owned());
        Ok(Some(StoredClaim {
            calls: Arc::clone(self),
            id: id.to_owned(),
            tool: tool.to_owned(),
            caller: caller.map(str::to_owned),
        }))
    }

    /// Hands a result to the call `id`, from any process: delivered, or
    /// given back with the id of the call it goes to instead (a parked
    /// call approved, whose tool runs as another call).
    pub(crate) async fn deliver(
        &self,
        id: &str,
        result: ToolResult,
        keep_for: Duration,
        max_media_bytes: usize,
    ) -> Result<Option<(String, ToolResult)>, DeliveryError> {
        let key = key(id);
        let failed = |error| DeliveryError::Store {
            call_id: id.to_owned(),
            error,
        };
        let not_awaiting = || DeliveryError::NotAwaitingDelivery {
            call_id: id.to_owned(),
        };
        let mut result = Some(result);
        loop {
            let Some((read, record)) = self.read(&key).await.map_err(failed)? else {
                return Err(DeliveryError::UnknownCall {
                    call_id: id.to_owned(),
                });
            };
            // Bounded here, as the tool's own result is where it runs.
            let mut delivered = || {
                bound_media(
                    &record.tool,
                    result.take().unwrap_or_else(|| ToolResult::text("")),
                    max_media_bytes,
                )
            };
            let (state, ttl) = match record.state {
                // Being decided: its run has no id yet.
                RecordState::Running {
                    approved_as: Some(other),
                    ..
                } if other.is_empty() => return Err(not_awaiting()),
                RecordState::Running {
                    approved_as: Some(other),
                    ..
                } => {
                    let result = result.take().unwrap_or_else(|| ToolResult::text(""));
                    return Ok(Some((other, result)));
                }
                RecordState::Running {
                    owner,
                    until_ms,
                    delivered: None,
                    approved_as: None,
                } => (
                    RecordState::Running {
                        owner,
                        until_ms,
                        delivered: Some(delivered()),
                        approved_as: None,
                    },
                    // As long as the run may last, which the claim set.
                    Duration::from_millis(until_ms.saturating_sub(now_ms())).max(keep_for) + MARGIN,
                ),
                RecordState::Awaiting { deadline_ms, .. } if now_ms() < deadline_ms => (
                    RecordState::Done {
                        result: delivered(),
                        taken: false,
                    },
                    keep_for,
                ),
                _ => return Err(not_awaiting()),
            };
            let next = CallRecord {
                tool: record.tool,
                caller: record.caller,
                state,
            };
            let wrote = self
                .write(&key, &next, ttl, When::Equals(&read))
                .await
                .map_err(failed)?;
            if wrote {
                return Ok(None);
            }
            // Changed meanwhile: take the result back and read again.
            result = match next.state {
                RecordState::Running { delivered, .. } => delivered,
                RecordState::Done { result, .. } => Some(result),
                RecordState::Awaiting { .. } | RecordState::Parked { .. } => None,
            };
        }
    }

    /// The call that the parked call `id`, approved, runs as, if it does.
    pub(crate) async fn approved_as(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(match self.read(&key(id)).await? {
            Some((
                _,
                CallRecord {
                    state: RecordState::Running { approved_as, .. },
                    ..
                },
            )) => approved_as.filter(|other| !other.is_empty()),
            _ => None,
        })
    }

    /// The final result of the call `id`, once there is one; `None` when
    /// no such call is pending. A result awaited past its deadline ends the
    /// call with a timeout, whoever notices; a store that cannot be reached
    /// is waited for through its grace ([`through_outage`]), and one that
    /// fails for good ends the wait with an error result that says the
    /// result was lost.
    pub(crate) async fn wait(&self, id: &str, tool: Option<&str>) -> Option<ToolResult> {
        let key = key(id);
        let mut watch = self.store.watch(&key);
        // The tool, once the record has been read: a record that goes
        // before its result was taken was lost, not taken.
        let mut seen: Option<String> = None;
        loop {
            let (read, record) = match through_outage(&*self.store, || self.read(&key)).await {
                Ok(Some(found)) => found,
                Ok(None) => {
                    let tool = seen?;
                    return Some(lost(&tool, id, self.gone()));
                }
                Err(error) => {
                    let tool = seen.as_deref().or(tool).unwrap_or_default();
                    return Some(lost(tool, id, error.to_string()));
                }
            };
            seen = Some(record.tool.clone());
            match record.state {
                RecordState::Done { result, .. } => {
                    // Final: nothing of it runs here any more.
                    self.running().retain(|running| running != id);
                    // Taken: left a moment for the other waiters, then
                    // forgotten; the same call asked for again runs again.
                    let taken = CallRecord {
                        tool: record.tool,
                        caller: record.caller,
                        state: RecordState::Done {
                            result: result.clone(),
                            taken: true,
                        },
                    };
                    let _ = self
                        .write(&key, &taken, TAKEN_GRACE, When::Equals(&read))
                        .await;
                    return Some(result);
                }
                RecordState::Awaiting {
                    deadline_ms,
                    after_ms,
                }
                | RecordState::Parked {
                    deadline_ms,
                    after_ms,
                    ..
                } => {
                    let left = deadline_ms.saturating_sub(now_ms());
                    if left == 0 {
                        let timeout = match record.state {
                            RecordState::Parked { .. } => undecided(&record.tool, after_ms),
                            _ => pending_timeout(&record.tool, id, after_ms),
                        };
                        let done = CallRecord {
                            tool: record.tool,
                            caller: record.caller,
                            state: RecordState::Done {
                                result: timeout,
                                taken: false,
                            },
                        };
                        let write = || self.write(&key, &done, MARGIN, When::Equals(&read));
                        if let Err(error) = through_outage(&*self.store, write).await {
                            return Some(lost(&done.tool, id, error.to_string()));
                        }
                        continue;
                    }
                    let _ =
                        tokio::time::timeout(Duration::from_millis(left), watch.changed()).await;
                }
                RecordState::Running {
                    owner, delivered, ..
                } => {
                    match through_outage(&*self.store, || self.lives(&owner)).await {
                        Ok(true) => {}
                        Ok(false) => {
                            // Its process stopped: the call ends here.
                            let result = delivered
                                .unwrap_or_else(|| lost(&record.tool, id, STOPPED.to_owned()));
                            let done = CallRecord {
                                tool: record.tool,
                                caller: record.caller,
                                state: RecordState::Done {
                                    result,
                                    taken: false,
                                },
                            };
                            let write = || self.write(&key, &done, MARGIN, When::Equals(&read));
                            if let Err(error) = through_outage(&*self.store, write).await {
                                return Some(lost(&done.tool, id, error.to_string()));
                            }
                            continue;
                        }
                        Err(error) => return Some(lost(&record.tool, id, error.to_string())),
                    }
                    // Its process may stop without a word: looked at again
                    // once a lease would have lapsed.
                    let _ = tokio::time::timeout(LEASE, watch.changed()).await;
                }
            }
        }
    }

    /// Why a record that went before its time is lost.
    pub(super) fn gone(&self) -> String {
        format!(
            "its record is gone from the {} store, which was emptied or restarted",
            self.store.kind()
        )
    }

    pub(super) async fn read(
        &self,
        key: &str,
    ) -> Result<Option<(Vec<u8>, CallRecord)>, StoreError> {
        let Some(bytes) = self.store.get(key).await? else {
            return Ok(None);
        };
        match serde_json::from_slice(&bytes) {
            Ok(record) => Ok(Some((bytes, record))),
            Err(error) => Err(StoreError::Refused {
                store: self.store.kind().to_owned(),
                key: key.to_owned(),
                message: format!("the record is not a pending call's: {error}"),
            }),
        }
    }

    pub(super) async fn write(
        &self,
        key: &str,
        record: &CallRecord,
        ttl: Duration,
        when: When<'_>,
    ) -> Result<bool, StoreError> {
        let bytes = serde_json::to_vec(record).map_err(|error| StoreError::Refused {
            store: self.store.kind().to_owned(),
            key: key.to_owned(),
            message: error.to_string(),
        })?;
        self.store.put(key, bytes, ttl, when).await
    }
}

pub(super) fn key(id: &str) -> String {
    format!("{PREFIX}{id}")
}

pub(super) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, millis)
}

/// The result of a parked call no one decided on in time: denied.
fn undecided(tool: &str, after_ms: u64) -> ToolResult {
    ToolError::Denied {
        tool: tool.to_owned(),
        reason: format!(
            "no one decided on it within {}",
            Secs(Duration::from_millis(after_ms))
        ),
    }
    .into()
}

pub(super) fn pending_timeout(tool: &str, id: &str, after_ms: u64) -> ToolResult {
    ToolError::PendingTimeout {
        tool: tool.to_owned(),
        call_id: id.to_owned(),
        after: Duration::from_millis(after_ms),
    }
    .into()
}

/// The result of a call whose record the store lost or cannot reach.
pub(super) fn lost(tool: &str, id: &str, reason: String) -> ToolResult {
    ToolError::Lost {
        tool: tool.to_owned(),
        call_id: id.to_owned(),
        reason,
    }
    .into()
}
