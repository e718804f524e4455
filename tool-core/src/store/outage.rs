//! Waiting through a store's outage: what waits on a store (a call's
//! result, a decision on a parked call, a task's end) goes on waiting
//! while the store cannot be reached, trying again with backoff, and is
//! taken for lost only once the outage has lasted the store's grace
//! ([`Store::outage_grace`]). A request that starts something new is not
//! held: it fails at once, saying the store is unreachable.

use std::time::Duration;

use tokio::time::Instant;

use crate::store::{Store, StoreError};

/// How long what waits on a store keeps waiting while the store cannot be
/// reached, unless the store says otherwise ([`Store::outage_grace`]):
/// long enough for a Redis restarted or failed over, short enough that a
/// store gone for good is told to whoever waits within a minute.
pub const OUTAGE_GRACE: Duration = Duration::from_secs(30);

/// The first wait before trying again.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// The longest wait between two tries: a store that is back is used again
/// within this.
const MOST_BACKOFF: Duration = Duration::from_secs(2);

/// Runs `attempt` until it succeeds or fails for good: while it fails
/// because the store is unreachable ([`StoreError::Unreachable`]), it is
/// tried again with backoff (from 100 ms, doubling, at most 2 s apart),
/// until the store's [`outage_grace`](Store::outage_grace) has passed
/// since the first failure; then that error is returned. Any other result
/// is returned at once.
///
/// For waiting on a store's record, where a store that is briefly down
/// (restarted, failed over) should not end the wait; not for a request
/// that starts something, which should fail at once and say why.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::time::Duration;
/// use tool_core::store::{MemoryStore, Store, When, through_outage};
///
/// let store = MemoryStore::new();
/// store.put("call:1", b"done".to_vec(), Duration::from_secs(60), When::Always).await?;
/// // A store that answers is read once.
/// let read = through_outage(&store, || store.get("call:1")).await?;
/// assert_eq!(read.as_deref(), Some(&b"done"[..]));
/// # Ok::<(), tool_core::store::StoreError>(())
/// # }).unwrap();
/// ```
pub async fn through_outage<T, F, Fut>(
    store: &(impl Store + ?Sized),
    mut attempt: F,
) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, StoreError>>,
{
    let mut gives_up: Option<Instant> = None;
    let mut backoff = FIRST_BACKOFF;
    loop {
        match attempt().await {
            Err(error @ StoreError::Unreachable { .. }) => {
                let now = Instant::now();
                let gives_up = *gives_up.get_or_insert_with(|| now + store.outage_grace());
                if now >= gives_up {
                    return Err(error);
                }
                tracing::debug!(%error, "the store is unreachable; trying again");
                tokio::time::sleep(backoff.min(gives_up - now)).await;
                backoff = (backoff * 2).min(MOST_BACKOFF);
            }
            done => return done,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::{Arc, Mutex, PoisonError};
    use std::time::Duration;

    use tokio::time::Instant;

    use super::{OUTAGE_GRACE, through_outage};
    use crate::BoxFuture;
    use crate::store::memory::MemoryStore;
    use crate::store::watch::Watch;
    use crate::store::{Store, StoreError, When};

    /// A store in memory that can be cut off: while it is, every
    /// operation fails as a server's would ([`StoreError::Unreachable`]),
    /// and it says when it last was ([`Store::since_outage`]).
    #[derive(Clone, Default)]
    pub(crate) struct Severable {
        pub(crate) records: MemoryStore,
        down: Arc<Mutex<bool>>,
        last_down: Arc<Mutex<Option<Instant>>>,
        pub(crate) grace: Option<Duration>,
        /// How many operations failed.
        pub(crate) failed: Arc<AtomicU32>,
    }

    impl Severable {
        /// Another connection to the same records, cut off on its own.
        pub(crate) fn other_connection(&self) -> Self {
            Self {
                records: self.records.clone(),
                ..Self::default()
            }
        }

        pub(crate) fn set_down(&self, down: bool) {
            *self.down.lock().unwrap_or_else(PoisonError::into_inner) = down;
            *self
                .last_down
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
        }

        fn reach(&self) -> Result<(), StoreError> {
            if !*self.down.lock().unwrap_or_else(PoisonError::into_inner) {
                return Ok(());
            }
            self.failed.fetch_add(1, Ordering::SeqCst);
            *self
                .last_down
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
            Err(StoreError::Unreachable {
                store: "severable".into(),
                message: "cut off".into(),
            })
        }
    }

    impl Store for Severable {
        fn kind(&self) -> &str {
            "severable"
        }

        fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
            Box::pin(async move {
                self.reach()?;
                self.records.get(key).await
            })
        }

        fn put<'a>(
            &'a self,
            key: &'a str,
            value: Vec<u8>,
            ttl: Duration,
            when: When<'a>,
        ) -> BoxFuture<'a, Result<bool, StoreError>> {
            Box::pin(async move {
                self.reach()?;
                self.records.put(key, value, ttl, when).await
            })
        }

        fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
            Box::pin(async move {
                self.reach()?;
                self.records.delete(key).await
            })
        }

        fn watch(&self, key: &str) -> Watch {
            self.records.watch(key)
        }

        fn outage_grace(&self) -> Duration {
            self.grace.unwrap_or(OUTAGE_GRACE)
        }

        fn since_outage(&self) -> Option<Duration> {
            let last = *self
                .last_down
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            last.map(|at| at.elapsed())
        }
    }

    /// A store down for a few seconds is waited for: the read returns
    /// what it holds once it is back.
    #[tokio::test(start_paused = true)]
    async fn a_short_outage_is_waited_through() {
        let store = Severable::default();
        let minute = Duration::from_secs(60);
        assert!(
            store
                .put("call:1", b"done".to_vec(), minute, When::Always)
                .await
                .expect("written")
        );
        store.set_down(true);
        let back = {
            let store = store.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(5)).await;
                store.set_down(false);
            })
        };
        let started = Instant::now();
        let read = through_outage(&store, || store.get("call:1")).await;
        assert_eq!(read.expect("read once back").as_deref(), Some(&b"done"[..]));
        let took = started.elapsed();
        assert!(took >= Duration::from_secs(5), "{took:?}");
        assert!(
            took <= Duration::from_secs(7),
            "tried again within 2 s: {took:?}"
        );
        back.await.expect("joined");
    }

    /// Past the grace, the store's own error is returned; tries are at
    /// most two seconds apart, and none comes after the grace.
    #[tokio::test(start_paused = true)]
    async fn an_outage_past_the_grace_is_its_error() {
        let store = Severable {
            grace: Some(Duration::from_secs(10)),
            ..Severable::default()
        };
        store.set_down(true);
        let started = Instant::now();
        let read = through_outage(&store, || store.get("call:1")).await;
        assert_eq!(
            read.expect_err("unreachable").to_string(),
            "the severable store is unreachable: cut off"
        );
        assert_eq!(started.elapsed(), Duration::from_secs(10));
        // 0, 0.1, 0.3, 0.7, 1.5, 3.1, 5.1, 7.1, 9.1 and 10 s.
        assert_eq!(store.failed.load(std::sync::atomic::Ordering::SeqCst), 10);
    }

    /// An error that is not of reach is returned at once.
    #[tokio::test(start_paused = true)]
    async fn a_refusal_is_not_tried_again() {
        let store = MemoryStore::new();
        let tries = std::sync::atomic::AtomicU32::new(0);
        let started = Instant::now();
        let refused = through_outage(&store, || {
            tries.fetch_add(1, Ordering::SeqCst);
            async {
                Err::<(), _>(StoreError::Refused {
                    store: "memory".into(),
                    key: "call:1".into(),
                    message: "too large".into(),
                })
            }
        })
        .await;
        assert!(refused.is_err());
        assert_eq!(tries.load(Ordering::SeqCst), 1);
        assert_eq!(started.elapsed(), Duration::ZERO);
    }
}
