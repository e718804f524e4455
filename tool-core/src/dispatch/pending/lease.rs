//! Which process runs a stored call, and whether it still lives: each
//! process sharing a store writes `owner:<id>` every second, for five, as
//! long as it runs calls; a call whose owner's key has expired was left
//! by a process that stopped (killed, crashed, cut off), and whoever waits
//! on it ends it. A word is missing for a moment from a store that was
//! restarted, so a process is taken for stopped only when its word is
//! still missing a renewal later.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

use crate::store::{Store, StoreError, When};

/// How long a process's word that it lives lasts: the time a stopped
/// process's calls stay running before they are ended.
pub(crate) const LEASE: Duration = Duration::from_secs(5);

/// How often a living process says so again.
const RENEW_EVERY: Duration = Duration::from_secs(1);

/// This process's lease on the calls it runs.
pub(crate) struct Lease {
    /// This process's id among those sharing the store.
    owner: String,
    /// Started with the first call this process runs.
    renewing: OnceCell<()>,
}

impl Lease {
    pub(crate) fn new() -> Self {
        Self {
            owner: new_owner(),
            renewing: OnceCell::new(),
        }
    }

    /// This process's id.
    pub(crate) fn owner(&self) -> &str {
        &self.owner
    }

    /// Says this process lives, and goes on saying so every second for
    /// as long as `holder` does: before its first call is recorded, so
    /// that no call of it is ever seen without its owner.
    pub(crate) async fn hold<T: Send + Sync + 'static>(
        &self,
        store: &Arc<dyn Store>,
        holder: Weak<T>,
    ) -> Result<(), StoreError> {
        self.renewing
            .get_or_try_init(|| async {
                let key = key(&self.owner);
                store.put(&key, b"1".to_vec(), LEASE, When::Always).await?;
                let store = Arc::clone(store);
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(RENEW_EVERY).await;
                        if holder.strong_count() == 0 {
                            // No one can run calls on it any more.
                            let _ = store.delete(&key).await;
                            return;
                        }
                        if let Err(error) = store.put(&key, b"1".to_vec(), LEASE, When::Always).await {
                            tracing::warn!(%error, "could not renew this process's lease on its calls");
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
    /// living process would have renewed it: a store that was restarted
    /// lacks every process's word until then.
    pub(crate) async fn lives(store: &dyn Store, owner: &str) -> Result<bool, StoreError> {
        let key = key(owner);
        if store.get(&key).await?.is_some() {
            return Ok(true);
        }
        tokio::time::sleep(RENEW_EVERY * 3 / 2).await;
        Ok(store.get(&key).await?.is_some())
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
