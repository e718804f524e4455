//! Hearing a key's writes: the watches of one process, which a store
//! wakes when it writes a key or hears that another process did.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::watch;

/// The watches of a store's keys in this process, for implementations of
/// [`Store`](super::Store): [`watch`](Watchers::watch) makes one, and the
/// store calls [`wake`](Watchers::wake) on each write of a key, its own or
/// one it hears of from elsewhere. Cloning shares them.
///
/// A store whose notices can be lost (those of a server, while its
/// connection is down) also wakes every watch when it may have missed
/// some ([`wake_all`](Watchers::wake_all)), or asks its watches to wake
/// now and then regardless ([`Watchers::polling`]).
#[derive(Clone, Debug, Default)]
pub struct Watchers {
    keys: Arc<Mutex<HashMap<String, watch::Sender<()>>>>,
    poll: Option<Duration>,
}

impl Watchers {
    /// Watchers woken by writes alone.
    pub fn new() -> Self {
        Self::default()
    }

    /// Watchers that also wake every `every`, with nothing written: for a
    /// store that cannot be sure to hear every write.
    pub fn polling(every: Duration) -> Self {
        Self {
            keys: Arc::default(),
            poll: Some(every),
        }
    }

    fn keys(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<()>>> {
        // Every operation under this lock is a single insert, lookup or
        // remove: a panic elsewhere leaves the map consistent.
        self.keys.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A watch of `key`, which hears the wakes from now on.
    pub fn watch(&self, key: &str) -> Watch {
        let receiver = self
            .keys()
            .entry(key.to_owned())
            .or_insert_with(|| watch::channel(()).0)
            .subscribe();
        Watch {
            receiver,
            key: key.to_owned(),
            watchers: self.clone(),
        }
    }

    /// Wakes the watches of `key`.
    pub fn wake(&self, key: &str) {
        if let Some(sender) = self.keys().get(key) {
            sender.send_replace(());
        }
    }

    /// Wakes every watch: for a store that may have missed writes.
    pub fn wake_all(&self) {
        for sender in self.keys().values() {
            sender.send_replace(());
        }
    }

    /// How many keys are watched: each costs a little memory while it is.
    pub fn len(&self) -> usize {
        self.keys().len()
    }

    /// Whether no key is watched.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Hears the writes of one key: see [`Store::watch`](super::Store::watch).
#[derive(Debug)]
pub struct Watch {
    receiver: watch::Receiver<()>,
    key: String,
    watchers: Watchers,
}

impl Watch {
    /// Resolves once the key was written (or deleted) since the watch was
    /// made or this last resolved; for a store that polls, also when its
    /// interval has passed. It may resolve with nothing changed: read the
    /// key again, and wait again if it is not what you wait for.
    pub async fn changed(&mut self) {
        let heard = async {
            // Its sender is kept while this watch lives; were it gone,
            // nothing more could be heard.
            if self.receiver.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        match self.watchers.poll {
            Some(every) => {
                let _ = tokio::time::timeout(every, heard).await;
            }
            None => heard.await,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut keys = self.watchers.keys();
        // The last watch of its key forgets it: nothing is kept for keys
        // no one watches. This watch's own receiver is still alive here.
        if keys
            .get(&self.key)
            .is_some_and(|sender| sender.receiver_count() <= 1)
        {
            keys.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Watchers;

    /// A key is kept only while someone watches it.
    #[test]
    fn keys_no_one_watches_are_forgotten() {
        let watchers = Watchers::new();
        let first = watchers.watch("call:1");
        let second = watchers.watch("call:1");
        let other = watchers.watch("call:2");
        assert_eq!(watchers.len(), 2);
        drop(first);
        assert_eq!(watchers.len(), 2, "call:1 is still watched");
        drop(second);
        drop(other);
        assert!(watchers.is_empty());
        // Waking a key no one watches keeps nothing either.
        watchers.wake("call:3");
        assert!(watchers.is_empty());
    }
}
