//! Which process runs what a store keeps, and whether it still lives: a
//! process that runs calls writes `owner:<id>` every second, for five; a
//! record whose owner's word has lapsed was left by a process that
//! stopped (killed, crashed, cut off), and whoever reads it may end it or
//! take it over. A word is missing for a moment from a store that was
//! restarted, so a process is taken for stopped only when its word is
//! still missing a renewal later; and after an outage of the store, in
//! which no process could renew its word, only once every process has had
//! a whole lease since to say it again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

use crate::store::{Store, StoreError, When};

/// How long a process's word that it lives lasts: at most this, and a
/// renewal more, passes between a process's stop and its records being
/// taken for left.
pub const LEASE: Duration = Duration::from_secs(5);

/// How often a living process says so again.
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

/// This process's lease on what it runs through a store: an id among the
/// processes sharing the store, and its word that it lives, renewed for
/// as long as the lease is held.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// use tool_core::store::{Lease, MemoryStore, Store};
///
/// let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
/// let lease = Lease::new(Arc::clone(&store));
/// lease.hold().await?;
/// assert!(Lease::lives(&*store, lease.owner()).await?);
/// # Ok::<(), tool_core::store::StoreError>(())
/// # }).unwrap();
/// ```
pub struct Lease {
    store: Arc<dyn Store>,
    /// This process's id.
    owner: String,
    /// Started with the first [`hold`](Lease::hold).
    renewing: OnceCell<()>,
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lease")
            .field("owner", &self.owner)
            .finish_non_exhaustive()
    }
}

impl Lease {
    /// A lease on `store`, with an id no other process has; not held until
    /// [`hold`](Lease::hold).
    pub fn new(store: Arc<dyn Store>) -> Arc<Self> {
        Arc::new(Self {
            store,
            owner: new_owner(),
            renewing: OnceCell::new(),
        })
    }

    /// This process's id, which records it runs name.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Says this process lives, and goes on saying so every
    /// [`RENEW_EVERY`] for as long as the lease is held (any clone of its
    /// `Arc` lives): call it before recording anything that names the
    /// owner, so that nothing is ever seen without its owner's word.
    pub async fn hold(self: &Arc<Self>) -> Result<(), StoreError> {
        self.renewing
            .get_or_try_init(|| async {
                let key = key(&self.owner);
                self.store
                    .put(&key, b"1".to_vec(), LEASE, When::Always)
                    .await?;
                let lease: Weak<Self> = Arc::downgrade(self);
                let store = Arc::clone(&self.store);
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(RENEW_EVERY).await;
                        if lease.strong_count() == 0 {
                            // Let go: nothing is run under it any more.
                            let _ = store.delete(&key).await;
                            return;
                        }
                        if let Err(error) =
                            store.put(&key, b"1".to_vec(), LEASE, When::Always).await
                        {
                            tracing::warn!(%error, "could not renew this process's lease");
                        }
                    }
                });
                Ok(())
            })
            .await
            .copied()
    }

    /// Whether the process `owner` still lives (an error if the store
    /// cannot tell). A word found missing is looked for again once a
    /// living process would have renewed it, so an answer of `false`
    /// takes one and a half renewals; and, within a [`LEASE`] of an
    /// outage of the store ([`Store::since_outage`]), not before a lease
    /// has passed since it: a process whose word lapsed while no one could
    /// write is not stopped, and says so again once its own connection is
    /// back.
    pub async fn lives(store: &(impl Store + ?Sized), owner: &str) -> Result<bool, StoreError> {
        let key = key(owner);
        if store.get(&key).await?.is_some() {
            return Ok(true);
        }
        loop {
            let since_outage = store.since_outage().unwrap_or(Duration::MAX);
            let look_again = (RENEW_EVERY * 3 / 2).max(LEASE.saturating_sub(since_outage));
            tokio::time::sleep(look_again).await;
            if store.get(&key).await?.is_some() {
                return Ok(true);
            }
            // Another outage meanwhile: the word may have lapsed in it.
            if store.since_outage().is_none_or(|since| since >= LEASE) {
                return Ok(false);
            }
        }
    }
}

fn key(owner: &str) -> String {
    format!("owner:{owner}")
}

/// An id no other process sharing the store has: the hash of this
/// process's id, the time, and a count.
fn new_owner() -> String {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let mut hash = Sha256::new();
    hash.update(std::process::id().to_le_bytes());
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    hash.update(now.as_nanos().to_le_bytes());
    hash.update(MADE.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    hash.finalize()[..12]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{LEASE, Lease, RENEW_EVERY, key};
    use crate::store::Store;
    use crate::store::memory::MemoryStore;
    use crate::store::outage::tests::Severable;

    /// A held lease is renewed past its first five seconds; once let go,
    /// its word lapses and its process is taken for stopped.
    #[tokio::test(start_paused = true)]
    async fn a_held_lease_lives_and_a_dropped_one_lapses() {
        let memory = MemoryStore::new();
        let store: Arc<dyn Store> = Arc::new(memory.clone());
        let lease = Lease::new(Arc::clone(&store));
        let owner = lease.owner().to_owned();
        lease.hold().await.expect("held");
        tokio::time::sleep(LEASE * 3).await;
        assert!(
            Lease::lives(&memory, &owner).await.expect("readable"),
            "renewed"
        );
        drop(lease);
        tokio::time::sleep(RENEW_EVERY * 2).await;
        assert!(
            !Lease::lives(&memory, &owner).await.expect("readable"),
            "let go"
        );
    }

    /// A process cut off from the store for longer than its lease, whose
    /// word lapsed meanwhile and whose own connection comes back after
    /// this one's, lives: its word is looked for again once it has had a
    /// lease since the outage to renew it. One that stopped is still
    /// taken for stopped, a lease after the outage.
    #[tokio::test(start_paused = true)]
    async fn a_word_that_lapsed_in_an_outage_is_not_a_stop() {
        let here = Severable::default();
        // The owner's connection to the same records.
        let there = here.other_connection();
        let lease = Lease::new(Arc::new(there.clone()));
        lease.hold().await.expect("held");
        let stopped = Lease::new(Arc::new(there.clone()));
        stopped.hold().await.expect("held");
        let stopped_owner = stopped.owner().to_owned();
        drop(stopped);
        tokio::time::sleep(RENEW_EVERY / 2).await;
        here.set_down(true);
        there.set_down(true);
        tokio::time::sleep(LEASE * 2).await;
        here.set_down(false);
        tokio::spawn({
            let there = there.clone();
            async move {
                tokio::time::sleep(RENEW_EVERY * 3).await;
                there.set_down(false);
            }
        });
        let word = here.records.get(&key(lease.owner())).await;
        assert_eq!(word, Ok(None), "lapsed in the outage");
        let started = tokio::time::Instant::now();
        assert!(Lease::lives(&here, lease.owner()).await.expect("readable"));
        assert!(
            !Lease::lives(&here, &stopped_owner).await.expect("readable"),
            "a stopped process is still found stopped"
        );
        assert!(started.elapsed() >= LEASE, "{:?}", started.elapsed());
    }

    /// A word missing for a moment, then renewed, is a living process.
    #[tokio::test(start_paused = true)]
    async fn a_word_missing_for_a_moment_is_a_living_process() {
        let memory = MemoryStore::new();
        let store: Arc<dyn Store> = Arc::new(memory.clone());
        let lease = Lease::new(Arc::clone(&store));
        lease.hold().await.expect("held");
        assert!(memory.delete(&key(lease.owner())).await.expect("deleted"));
        assert!(
            Lease::lives(&memory, lease.owner())
                .await
                .expect("readable")
        );
    }
}
