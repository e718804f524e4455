//! The store in this process's memory: every registry's by default.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use crate::BoxFuture;
use crate::store::watch::{Watch, Watchers};
use crate::store::{Store, StoreError, When};

/// How often a write also sweeps out the records that expired.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// A [`Store`] in this process's memory: what waits is lost with the
/// process, and seen by no other. Clones share the records.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::time::Duration;
/// use tool_core::store::{MemoryStore, Store, When};
///
/// let store = MemoryStore::new();
/// store.put("turn:7", b"{}".to_vec(), Duration::from_secs(600), When::Always).await?;
/// assert_eq!(store.len(), 1);
/// assert!(store.delete("turn:7").await?);
/// assert!(store.is_empty());
/// # Ok::<(), tool_core::store::StoreError>(())
/// # }).unwrap();
/// ```
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    records: Arc<Mutex<Records>>,
    watchers: Watchers,
}

#[derive(Debug, Default)]
struct Records {
    /// Each record and when it expires.
    by_key: HashMap<String, (Vec<u8>, Instant)>,
    /// Each set ([`Store::add_member`]): its members and when each
    /// expires, in ms since the Unix epoch. Kept apart from the records,
    /// so that adding a member costs the same however many there are.
    sets: HashMap<String, BTreeMap<String, u64>>,
    /// When a write next sweeps out expired records.
    next_sweep: Option<Instant>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn records(&self) -> MutexGuard<'_, Records> {
        // Each operation under this lock leaves the map whole.
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many records (and sets) the store holds that have not expired.
    pub fn len(&self) -> usize {
        let now = Instant::now();
        let now_ms = super::set::now_ms();
        let records = self.records();
        let held = records
            .by_key
            .values()
            .filter(|(_, expires)| *expires > now)
            .count();
        let sets = records
            .sets
            .values()
            .filter(|members| members.values().any(|until| *until > now_ms))
            .count();
        held + sets
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn put_now(&self, key: &str, value: Vec<u8>, ttl: Duration, when: When<'_>) -> bool {
        let now = Instant::now();
        let mut records = self.records();
        let current = records
            .by_key
            .get(key)
            .filter(|(_, expires)| *expires > now)
            .map(|(value, _)| value.as_slice());
        let writes = match when {
            When::Always => true,
            When::Absent => current.is_none(),
            When::Equals(expected) => current == Some(expected),
        };
        if !writes {
            return false;
        }
        records.by_key.insert(key.to_owned(), (value, now + ttl));
        records.sweep(now);
        drop(records);
        self.watchers.wake(key);
        true
    }
}

impl Records {
    /// Sweeps out what expired, once a [`SWEEP_EVERY`].
    fn sweep(&mut self, now: Instant) {
        if self.next_sweep.is_some_and(|at| at > now) {
            return;
        }
        self.by_key.retain(|_, (_, expires)| *expires > now);
        let now_ms = super::set::now_ms();
        self.sets.retain(|_, members| {
            members.retain(|_, until| *until > now_ms);
            !members.is_empty()
        });
        self.next_sweep = Some(now + SWEEP_EVERY);
    }
}

impl Store for MemoryStore {
    fn kind(&self) -> &str {
        "memory"
    }

    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        let now = Instant::now();
        let found = self
            .records()
            .by_key
            .get(key)
            .filter(|(_, expires)| *expires > now)
            .map(|(value, _)| value.clone());
        Box::pin(std::future::ready(Ok(found)))
    }

    fn put<'a>(
        &'a self,
        key: &'a str,
        value: Vec<u8>,
        ttl: Duration,
        when: When<'a>,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let wrote = self.put_now(key, value, ttl, when);
        Box::pin(std::future::ready(Ok(wrote)))
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        let now = Instant::now();
        let mut records = self.records();
        let record = records
            .by_key
            .remove(key)
            .is_some_and(|(_, expires)| expires > now);
        let set = records.sets.remove(key).is_some();
        drop(records);
        let removed = record || set;
        if removed {
            self.watchers.wake(key);
        }
        Box::pin(std::future::ready(Ok(removed)))
    }

    fn watch(&self, key: &str) -> Watch {
        self.watchers.watch(key)
    }

    fn add_member<'a>(
        &'a self,
        key: &'a str,
        member: &'a str,
        until_ms: u64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let mut records = self.records();
        let members = records.sets.entry(key.to_owned()).or_default();
        let until = members.entry(member.to_owned()).or_insert(until_ms);
        *until = (*until).max(until_ms);
        records.sweep(Instant::now());
        drop(records);
        self.watchers.wake(key);
        Box::pin(std::future::ready(Ok(())))
    }

    fn members<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        let now_ms = super::set::now_ms();
        let members = self
            .records()
            .sets
            .get(key)
            .map_or_else(Vec::new, |members| {
                members
                    .iter()
                    .filter(|(_, until)| **until > now_ms)
                    .map(|(member, _)| member.clone())
                    .collect()
            });
        Box::pin(std::future::ready(Ok(members)))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{MemoryStore, Store, When};

    /// Expired records are not kept: a later write sweeps them out.
    #[tokio::test(start_paused = true)]
    async fn expired_records_are_swept_out_by_later_writes() {
        let store = MemoryStore::new();
        for call in 0..1000 {
            let key = format!("call:{call}");
            let brief = Duration::from_millis(50);
            store
                .put(&key, vec![0; 64], brief, When::Always)
                .await
                .expect("put");
        }
        assert_eq!(store.records().by_key.len(), 1000);
        tokio::time::advance(Duration::from_millis(1100)).await;
        assert!(store.is_empty(), "expired records are not counted");
        let minute = Duration::from_secs(60);
        store
            .put("call:new", vec![0; 64], minute, When::Always)
            .await
            .expect("put");
        assert_eq!(
            store.records().by_key.len(),
            1,
            "the write swept out the rest"
        );
    }
}
