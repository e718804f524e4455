//! MCP tasks, in both forms clients speak: the `io.modelcontextprotocol/tasks`
//! extension (SEP-2663, protocol 2026-07-28) and the experimental tasks of
//! protocol 2025-11-25 (`params.task`, `tasks/result`, `tasks/list`; their
//! wire shapes are in `spec2025/`). A call of a `long_running` tool
//! made by a client that asks for a task is answered at once with a task,
//! which runs on as the registry's pending call; `tasks/get` reads it and
//! `tasks/cancel` cancels the call. Both forms share one rule: each task
//! belongs to the caller that made it, and another caller's request about
//! it is told the task does not exist.
//!
//! A task is a record in a [`Store`] (`record.rs`): this process's memory
//! by default, or a store every replica of the server shares
//! ([`McpConfig::with_store`](crate::McpConfig::with_store)), where a task
//! started on one replica is read, waited for and cancelled through any
//! other. The process that runs it follows its call (`run.rs`); a task
//! whose process stopped is ended, or run again once, by the next one to
//! read it (`reap.rs`).
//!
//! Or a task is run and kept by a [`TaskEngine`](crate::TaskEngine)
//! ([`McpConfig::with_tasks`](crate::McpConfig::with_tasks)): its call is
//! sent to the engine (Restate's, say), and every request about it asks
//! the engine (`durable.rs`); no replica holds it, and the engine keeps
//! its owner beside it, which every request is checked against.

mod durable;
pub(crate) mod engine;
pub(crate) mod input;
mod list;
pub(crate) mod origin;
mod reap;
pub(crate) mod record;
mod run;
pub(crate) mod spec2025;
pub(crate) mod start;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use hyper::HeaderMap;
use hyper::header::{AUTHORIZATION, HeaderName};
use hyper::http::request::Parts;
use rmcp::service::RequestContext;
use rmcp::task_manager::DEFAULT_TASK_TTL_MS;
use rmcp::{ErrorData, RoleServer};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;
use tool_core::store::{
    LEASE, Lease, MemoryStore, RENEW_EVERY, Store, StoreError, When, through_outage,
};

use engine::TaskEngine;
pub(crate) use record::Form;
pub(crate) use record::Input;
use record::{Status, TaskRecord, key, now_ms};
pub(crate) use run::{Ended, TaskCall, record_end, run};

use crate::server::McpServer;

/// Who made a request, as far as tasks go: the hash of its bearer token
/// when the server checks tokens, else its HTTP session, else nobody in
/// particular (stdio's one client, or stateless HTTP without tokens, where
/// a task's id, 122 random bits, is what keeps it private).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TaskOwner {
    Token([u8; 32]),
    Session(String),
    Anyone,
}

impl TaskOwner {
    /// The caller of a request; `authenticated` when the server requires
    /// bearer tokens, so that the token, not the session, is who calls.
    pub(crate) fn of(request: &RequestContext<RoleServer>, authenticated: bool) -> Self {
        match request.extensions.get::<Parts>() {
            Some(parts) => Self::of_headers(&parts.headers, authenticated),
            None => TaskOwner::Anyone,
        }
    }

    /// The caller of an HTTP request with these headers.
    pub(crate) fn of_headers(headers: &HeaderMap, authenticated: bool) -> Self {
        if authenticated && let Some(token) = bearer(headers) {
            return TaskOwner::Token(Sha256::digest(token.as_bytes()).into());
        }
        match session_id(headers) {
            Some(session) => TaskOwner::Session(session.to_owned()),
            None => TaskOwner::Anyone,
        }
    }

    /// The caller as a task's record names it: hashes only, so that no
    /// session id sits in a shared store.
    pub(crate) fn key(&self) -> String {
        match self {
            TaskOwner::Token(hash) => keyed("t:", hash),
            TaskOwner::Session(session) => keyed("s:", &Sha256::digest(session.as_bytes())),
            TaskOwner::Anyone => "anyone".to_owned(),
        }
    }
}

/// The [`key`](TaskOwner::key) of the caller of a session's requests, made
/// on its first request and kept for the others: every call is given its
/// caller's key, and a session's server (rmcp makes one for each session)
/// need not hash the same id for each. Emptied when the server is cloned.
#[derive(Default)]
pub(crate) struct KnownCaller(OnceLock<(Box<str>, Arc<str>)>);

impl KnownCaller {
    /// The key of `request`'s caller, `None` for anyone.
    pub(crate) fn key(
        &self,
        request: &RequestContext<RoleServer>,
        authenticated: bool,
    ) -> Option<Arc<str>> {
        let headers = &request.extensions.get::<Parts>()?.headers;
        if authenticated && let Some(token) = bearer(headers) {
            // A token may change within a session (refreshed): not kept.
            return Some(keyed("t:", &Sha256::digest(token.as_bytes())).into());
        }
        let session = headers.get(&SESSION_ID)?.as_bytes();
        // Compared as bytes: only a session id seen before (valid, then)
        // matches, and a new one is checked as text below.
        if let Some((known, key)) = self.0.get()
            && known.as_bytes() == session
        {
            return Some(Arc::clone(key));
        }
        let session = session_id(headers)?;
        let key: Arc<str> = keyed("s:", &Sha256::digest(session.as_bytes())).into();
        // Kept for the first session seen; another's (a server serving more
        // than one session) is hashed each time.
        let _ = self.0.set((session.into(), Arc::clone(&key)));
        Some(key)
    }
}

/// The header naming a request's HTTP session.
const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers.get(&SESSION_ID)?.to_str().ok()
}

/// `prefix` and `hash` in lowercase hex, in one allocation: made for every
/// call of a session, where formatting byte by byte cost seven.
fn keyed(prefix: &str, hash: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut key = String::with_capacity(prefix.len() + 2 * hash.len());
    key.push_str(prefix);
    for byte in hash {
        key.push(char::from(DIGITS[usize::from(byte >> 4)]));
        key.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    key
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
}

/// The shortest time a task is kept: a second, so that a `ttl` of a few
/// milliseconds does not end a task before its client polls once.
pub(crate) const MIN_TTL_MS: u64 = 1_000;

/// What `tasks/get` says of a task while its run is asked to stop.
const CANCEL_ASKED: &str = "cancel asked; waiting for the run to stop";

/// The tasks of one server (shared by its clones), kept in its store.
pub(crate) struct Tasks {
    store: Arc<dyn Store>,
    /// This process's word that it lives, when the store is shared: what
    /// tells the other replicas whether a task's runner stopped.
    lease: Option<Arc<Lease>>,
    /// The longest a task is kept, and the time of those that ask none.
    ttl_ms: u64,
    /// Runners seen living, and when: asked again after a renewal.
    alive: Mutex<HashMap<String, Instant>>,
    /// Where tasks run and are kept instead of the store, if anywhere.
    engine: Option<Arc<dyn TaskEngine>>,
}

impl Default for Tasks {
    fn default() -> Self {
        Self::new(Arc::new(MemoryStore::new()), false, DEFAULT_TASK_TTL_MS)
    }
}

impl Tasks {
    /// The tasks kept in `store`, `shared` with other processes or not.
    pub(crate) fn new(store: Arc<dyn Store>, shared: bool, ttl_ms: u64) -> Self {
        let lease = shared.then(|| Lease::new(Arc::clone(&store)));
        Self {
            store,
            lease,
            ttl_ms,
            alive: Mutex::default(),
            engine: None,
        }
    }

    /// The same tasks, run and kept by `engine` when there is one.
    pub(crate) fn with_engine(mut self, engine: Option<Arc<dyn TaskEngine>>) -> Self {
        self.engine = engine;
        self
    }

    /// Which process runs a task it starts.
    pub(crate) fn me(&self) -> &str {
        self.lease.as_ref().map_or("here", |lease| lease.owner())
    }

    /// The time a task is kept when its client asks `asked`: never longer
    /// than the server keeps tasks, nor shorter than a second.
    pub(crate) fn ttl_for(&self, asked: Option<u64>) -> u64 {
        asked.map_or(self.ttl_ms, |ttl| {
            ttl.clamp(MIN_TTL_MS.min(self.ttl_ms), self.ttl_ms)
        })
    }

    /// Records a new task of `tool`, working on this process, before its
    /// tool runs: a task is never seen without its record. `input` is
    /// kept for a tool that may be run again.
    pub(crate) async fn open(
        &self,
        form: Form,
        caller: &TaskOwner,
        tool: &str,
        ttl_ms: u64,
        input: Option<Input>,
    ) -> Result<(String, TaskRecord), StoreError> {
        if let Some(lease) = &self.lease {
            lease.hold().await?;
        }
        let mut record = TaskRecord::new(form, caller.key(), tool, ttl_ms, self.me());
        record.input = input;
        let id = record::new_id(form, record.deadline_ms());
        // 122 random bits: the key is never taken.
        self.store
            .put(&key(&id), record.to_bytes(), record.ttl(), When::Absent)
            .await?;
        list::add(self, caller, &id, &record).await?;
        Ok((id, record))
    }

    /// Forgets a task whose id was never given out.
    pub(crate) async fn discard(&self, task_id: &str) {
        if let Err(error) = self.store.delete(&key(task_id)).await {
            tracing::debug!(%error, task_id, "an unused task's record was left to expire");
        }
    }

    /// Changes the task's record with `change`, from the record as read,
    /// until the write holds (another process may write between): the
    /// record as it is after, or `None` when it is gone. `change` answers
    /// `false` to leave the record as it is.
    pub(crate) async fn update(
        &self,
        task_id: &str,
        mut change: impl FnMut(&mut TaskRecord) -> bool,
    ) -> Result<Option<TaskRecord>, StoreError> {
        let key = key(task_id);
        loop {
            let Some(bytes) = self.store.get(&key).await? else {
                return Ok(None);
            };
            let Some(mut record) = TaskRecord::from_bytes(&bytes) else {
                return Ok(None);
            };
            if !change(&mut record) {
                return Ok(Some(record));
            }
            record.touch();
            let written = self
                .store
                .put(&key, record.to_bytes(), record.ttl(), When::Equals(&bytes))
                .await?;
            if written {
                return Ok(Some(record));
            }
        }
    }

    /// The task, for its owner: another caller's is unknown. A working task
    /// whose runner stopped is taken over first (`reap.rs`); one the store
    /// lost before its deadline is a failed task that says so.
    pub(crate) async fn read<Ctx: Send + Sync + 'static>(
        self: &Arc<Self>,
        server: &McpServer<Ctx>,
        caller: &TaskOwner,
        task_id: &str,
    ) -> Result<TaskRecord, ErrorData> {
        if let Some(engine) = &self.engine {
            return durable::read(&**engine, caller, task_id, self.ttl_ms).await;
        }
        let read = self.store.get(&key(task_id)).await;
        self.found(server, caller, task_id, read).await
    }

    /// The task, from what reading its record gave: see [`Tasks::read`].
    async fn found<Ctx: Send + Sync + 'static>(
        self: &Arc<Self>,
        server: &McpServer<Ctx>,
        caller: &TaskOwner,
        task_id: &str,
        read: Result<Option<Vec<u8>>, StoreError>,
    ) -> Result<TaskRecord, ErrorData> {
        let bytes = read.map_err(|error| cannot_read(task_id, &error))?;
        let Some(bytes) = bytes else {
            return self.lost(task_id);
        };
        let record = TaskRecord::from_bytes(&bytes).ok_or_else(|| unknown_task(task_id))?;
        if record.caller != caller.key() {
            return Err(unknown_task(task_id));
        }
        if record.status == Status::Working && self.runner_stopped(&record).await {
            return match reap::reap(self, server, task_id, record).await {
                Ok(Some(record)) => Ok(record),
                Ok(None) => self.lost(task_id),
                Err(error) => Err(cannot_read(task_id, &error)),
            };
        }
        Ok(record)
    }

    /// A task the store no longer holds: failed, saying so, if its id
    /// says it should still be kept; else no task at all. The answer
    /// depends on the id's text only, so it tells a stranger nothing.
    fn lost(&self, task_id: &str) -> Result<TaskRecord, ErrorData> {
        match record::parse_id(task_id) {
            Some((form, deadline_ms)) if now_ms() < deadline_ms => {
                let ttl_ms = deadline_ms.saturating_sub(now_ms());
                let mut record = TaskRecord::new(form, String::new(), "", ttl_ms, "");
                record.fail(&ErrorData::internal_error(
                    format!(
                        "task {task_id} was lost: the {} store no longer holds it (it was emptied \
                         or restarted while the task ran); call the tool again if it is still \
                         needed",
                        self.store.kind()
                    ),
                    None,
                ));
                Ok(record)
            }
            _ => Err(unknown_task(task_id)),
        }
    }

    /// Whether the process running `record` has stopped: only a shared
    /// store's task can have a runner elsewhere, and one seen living in
    /// the last renewal is not asked again.
    async fn runner_stopped(&self, record: &TaskRecord) -> bool {
        let (Some(_), Some(runner)) = (&self.lease, &record.runner) else {
            return false;
        };
        if runner == self.me() {
            return false;
        }
        {
            let alive = self.alive.lock().unwrap_or_else(PoisonError::into_inner);
            if alive
                .get(runner)
                .is_some_and(|seen| seen.elapsed() < RENEW_EVERY)
            {
                return false;
            }
        }
        match Lease::lives(&*self.store, runner).await {
            Ok(true) => {
                let mut alive = self.alive.lock().unwrap_or_else(PoisonError::into_inner);
                alive.retain(|_, seen| seen.elapsed() < LEASE);
                alive.insert(runner.clone(), Instant::now());
                false
            }
            Ok(false) => true,
            // Nothing can be told now: the next read asks again.
            Err(_) => false,
        }
    }

    /// `tasks/cancel`, in either form: the record says so, and the process
    /// that runs the task stops it when it hears. The task as it is after.
    pub(crate) async fn ask_cancel<Ctx: Send + Sync + 'static>(
        self: &Arc<Self>,
        server: &McpServer<Ctx>,
        caller: &TaskOwner,
        task_id: &str,
    ) -> Result<TaskRecord, ErrorData> {
        if let Some(engine) = &self.engine {
            return durable::cancel(&**engine, caller, task_id, self.ttl_ms).await;
        }
        let record = self.read(server, caller, task_id).await?;
        if record.is_terminal() {
            return Ok(record);
        }
        let updated = self
            .update(task_id, |record| {
                if record.is_terminal() || record.cancel {
                    return false;
                }
                record.cancel = true;
                record.message = Some(CANCEL_ASKED.to_owned());
                true
            })
            .await
            .map_err(|error| cannot_read(task_id, &error))?;
        match updated {
            Some(record) => Ok(record),
            None => self.lost(task_id),
        }
    }

    /// The task once it has ended, for its owner: what 2025-11-25's
    /// `tasks/result` answers with, and its `tasks/cancel` after
    /// cancelling. Gives up, with the task as it is, when `give_up` is
    /// cancelled (the request was). A store that cannot be reached is
    /// waited for through its grace ([`through_outage`]).
    pub(crate) async fn settled<Ctx: Send + Sync + 'static>(
        self: &Arc<Self>,
        server: &McpServer<Ctx>,
        caller: &TaskOwner,
        task_id: &str,
        give_up: &CancellationToken,
    ) -> Result<TaskRecord, ErrorData> {
        if let Some(engine) = &self.engine {
            return durable::settled(&**engine, caller, task_id, self.ttl_ms, give_up).await;
        }
        loop {
            // Watched before it is read: no change between is missed.
            let key = key(task_id);
            let mut watch = self.store.watch(&key);
            let read = tokio::select! {
                biased;
                read = through_outage(&*self.store, || self.store.get(&key)) => read,
                // Read once more as it is, ending the wait.
                () = give_up.cancelled() => self.store.get(&key).await,
            };
            let record = self.found(server, caller, task_id, read).await?;
            if record.is_terminal() {
                return Ok(record);
            }
            let until_kept = Duration::from_millis(
                record
                    .deadline_ms()
                    .saturating_sub(now_ms())
                    .saturating_add(1),
            ) + record::SETTLE;
            // A runner that stops writes nothing: its lease is looked at
            // again once it would have lapsed.
            let look_again = if self.lease.is_some() {
                until_kept.min(LEASE)
            } else {
                until_kept
            };
            tokio::select! {
                () = watch.changed() => {}
                () = tokio::time::sleep(look_again) => {}
                () = give_up.cancelled() => return Ok(record),
            }
        }
    }

    /// The caller's tasks, oldest first, a page of at most 100 after
    /// `cursor`, and the cursor of the next page.
    pub(crate) async fn list(
        &self,
        caller: &TaskOwner,
        cursor: Option<&str>,
    ) -> Result<(Vec<(String, TaskRecord)>, Option<String>), ErrorData> {
        if let Some(engine) = &self.engine {
            return durable::list(&**engine, caller, cursor, self.ttl_ms).await;
        }
        list::page(self, caller, cursor).await.map_err(|error| {
            ErrorData::internal_error(format!("tasks cannot be listed now: {error}"), None)
        })
    }
}

/// The error for a task id the caller cannot see.
pub(crate) fn unknown_task(task_id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task: {task_id}"), None)
}

/// The error for a task the store cannot give now.
fn cannot_read(task_id: &str, error: &StoreError) -> ErrorData {
    ErrorData::internal_error(format!("task {task_id} cannot be read now: {error}"), None)
}

#[cfg(test)]
mod reap_tests;

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn a_key_is_its_hash_in_lowercase_hex() {
        let hash = Sha256::digest(b"a session id");
        let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
        assert_eq!(keyed("s:", &hash), format!("s:{hex}"));
        let owner = TaskOwner::Session("a session id".to_owned());
        assert_eq!(owner.key(), format!("s:{hex}"));
    }
}
