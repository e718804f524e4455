//! Where what waits is kept: the results of calls delivered later, the
//! records of tasks, parked approvals and questions, stored turns.
//!
//! A [`Store`] is a map of keys to bytes in which every record expires,
//! with the three writes waiting work needs: write always, write only if
//! absent (one process claims a call), and write only if the record is
//! still what it was read as (a task moves from one state to the next
//! once). A process [watches](Store::watch) a key to hear when another
//! writes it. [`MemoryStore`] keeps the records in this process, as
//! every registry does by default; a store shared by many processes (the
//! `tool-redis` crate's, on Redis) lets work paused on one be finished on
//! another.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use std::time::Duration;
//! use tool_core::store::{MemoryStore, Store, When};
//!
//! let store = MemoryStore::new();
//! let minute = Duration::from_secs(60);
//!
//! // One process claims the call; a second claim is refused.
//! assert!(store.put("call:1", b"working".to_vec(), minute, When::Absent).await?);
//! assert!(!store.put("call:1", b"working".to_vec(), minute, When::Absent).await?);
//!
//! // Someone waits for it to end...
//! let mut watch = store.watch("call:1");
//! // ...and it ends once, from the state it was read in.
//! assert!(store.put("call:1", b"done".to_vec(), minute, When::Equals(b"working")).await?);
//! assert!(!store.put("call:1", b"failed".to_vec(), minute, When::Equals(b"working")).await?);
//! watch.changed().await;
//! assert_eq!(store.get("call:1").await?.as_deref(), Some(&b"done"[..]));
//! # Ok::<(), tool_core::store::StoreError>(())
//! # }).unwrap();
//! ```

pub(crate) mod lease;
pub(crate) mod memory;
pub(crate) mod outage;
pub(crate) mod set;
#[cfg(feature = "testing")]
pub mod testing;
pub(crate) mod watch;

use std::time::Duration;

pub use lease::{LEASE, Lease, RENEW_EVERY};
pub use memory::MemoryStore;
pub use outage::{OUTAGE_GRACE, through_outage};
pub use watch::{Watch, Watchers};

use crate::BoxFuture;

/// When [`Store::put`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When<'a> {
    /// Always, over whatever is there.
    Always,
    /// Only if the key holds nothing: the first of many writers wins.
    Absent,
    /// Only if the key holds exactly these bytes: a change made from what
    /// was read, which fails if someone changed it meanwhile.
    Equals(&'a [u8]),
}

/// Why a store could not do what it was asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The store cannot be reached (a server down, a connection lost):
    /// what it holds may be lost as well. What waits on the store waits
    /// through it for the store's [grace](Store::outage_grace).
    #[error("the {store} store is unreachable: {message}")]
    Unreachable {
        /// Which store: `memory`, `redis`...
        store: String,
        /// What went wrong, as the store's client says it.
        message: String,
    },
    /// The store refused the operation (a value too large, a key of the
    /// wrong type, an error in the store itself).
    #[error("the {store} store refused an operation on `{key}`: {message}")]
    Refused {
        /// Which store.
        store: String,
        /// The key.
        key: String,
        /// What the store said.
        message: String,
    },
}

/// Records that expire, kept where every process that shares the store
/// can read them: see the [module](self).
///
/// Every write sets the record's time to live: nothing a store holds
/// outlives it, so a store left alone goes back to empty. Keys are plain
/// strings, which the registry and the MCP server prefix by what they
/// hold (`call:`, `task:`...); a store shared by several applications
/// separates them (a key prefix, a database).
///
/// Implementations wake the [`Watch`]es of a key on every write and delete
/// of it, from any process sharing the store, using [`Watchers`]; they
/// need not wake them when a record expires.
pub trait Store: Send + Sync + 'static {
    /// What the store is (`memory`, `redis`), for messages.
    fn kind(&self) -> &str;

    /// The record under `key`, if there is one that has not expired.
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>>;

    /// Writes `value` under `key` for `ttl`, if `when` holds: whether it
    /// wrote. A write wakes the key's watches.
    fn put<'a>(
        &'a self,
        key: &'a str,
        value: Vec<u8>,
        ttl: Duration,
        when: When<'a>,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Removes the record under `key`: whether there was one. Removing
    /// one wakes the key's watches.
    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Hears the writes of `key` from now on, from this process and any
    /// other sharing the store. Watch first, then read: a write between
    /// the two is heard.
    fn watch(&self, key: &str) -> Watch;

    /// Adds `member` to the set under `key`, kept until `until_ms` (the
    /// wall-clock time, in ms since the Unix epoch); a member added again
    /// is kept until the later of its two times. The key expires with
    /// its last member.
    ///
    /// A set is written by many processes at once, each adding its own
    /// members, and each member expires on its own: an index of what one
    /// caller has under way (its tasks), read with
    /// [`members`](Store::members), whose entries go with the records
    /// they point to. A key holding a set is read and written only by
    /// these two methods.
    ///
    /// By default the set is one record, the JSON object
    /// `{member: until_ms}`, read and written back changed until no other
    /// write came between (members whose time has passed are dropped on
    /// the way); a store that has sets of its own ([`MemoryStore`], Redis)
    /// uses them.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::time::{SystemTime, UNIX_EPOCH};
    /// use tool_core::store::{MemoryStore, Store};
    ///
    /// let store = MemoryStore::new();
    /// let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    /// let hour = u64::try_from(now.as_millis()).unwrap() + 3_600_000;
    ///
    /// // Two processes each index a task of one caller.
    /// store.add_member("tasks:alice", "0000019a2b3c4d5e:t2", hour).await?;
    /// store.add_member("tasks:alice", "0000019a2b3c4d00:t1", hour).await?;
    /// assert_eq!(
    ///     store.members("tasks:alice").await?,
    ///     ["0000019a2b3c4d00:t1", "0000019a2b3c4d5e:t2"],
    /// );
    /// # Ok::<(), tool_core::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    fn add_member<'a>(
        &'a self,
        key: &'a str,
        member: &'a str,
        until_ms: u64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(set::add_member(self, key, member, until_ms))
    }

    /// The members of the set under `key` whose time has not passed, in
    /// text order (members that begin with their creation time, in fixed
    /// width, come oldest first); none if there is no set. Members whose
    /// time has passed are left out, and may be removed.
    ///
    /// What [`add_member`](Store::add_member) indexed, read in one ask: a
    /// caller's tasks, listed without scanning the store.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::time::{SystemTime, UNIX_EPOCH};
    /// use tool_core::store::{MemoryStore, Store};
    ///
    /// let store = MemoryStore::new();
    /// let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    /// let now = u64::try_from(now.as_millis()).unwrap();
    ///
    /// store.add_member("tasks:bob", "b", now + 60_000).await?;
    /// store.add_member("tasks:bob", "a", now - 1).await?; // its time has passed
    /// assert_eq!(store.members("tasks:bob").await?, ["b"]);
    /// assert!(store.members("tasks:carol").await?.is_empty());
    /// # Ok::<(), tool_core::store::StoreError>(())
    /// # }).unwrap();
    /// ```
    fn members<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(set::members(self, key))
    }

    /// How long what waits on the store (a call's result, a decision on
    /// a parked call, a task's end) goes on waiting while the store cannot
    /// be reached, before it ends as lost ([`through_outage`]):
    /// [`OUTAGE_GRACE`] (30 s) unless the store says otherwise. A store
    /// that is never unreachable ([`MemoryStore`]) need not say.
    fn outage_grace(&self) -> Duration {
        OUTAGE_GRACE
    }

    /// How long the store has been reachable since the last outage this
    /// process saw: `None` if it saw none, or the store does not tell;
    /// about zero while one lasts.
    ///
    /// A process that could not renew its [`Lease`] through an outage is
    /// not taken for stopped until it has had a lease's time to renew it
    /// since ([`Lease::lives`]): a store that tells makes that hold after
    /// its outages.
    fn since_outage(&self) -> Option<Duration> {
        None
    }
}

/// A shared store is a store.
impl<S: Store + ?Sized> Store for std::sync::Arc<S> {
    fn kind(&self) -> &str {
        (**self).kind()
    }

    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        (**self).get(key)
    }

    fn put<'a>(
        &'a self,
        key: &'a str,
        value: Vec<u8>,
        ttl: Duration,
        when: When<'a>,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).put(key, value, ttl, when)
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        (**self).delete(key)
    }

    fn watch(&self, key: &str) -> Watch {
        (**self).watch(key)
    }

    fn add_member<'a>(
        &'a self,
        key: &'a str,
        member: &'a str,
        until_ms: u64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        (**self).add_member(key, member, until_ms)
    }

    fn members<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        (**self).members(key)
    }

    fn outage_grace(&self) -> Duration {
        (**self).outage_grace()
    }

    fn since_outage(&self) -> Option<Duration> {
        (**self).since_outage()
    }
}
