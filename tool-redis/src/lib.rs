//! A [`Store`] on Redis: what waits (calls whose results come later, calls
//! parked for approval, stored turns) kept where every replica of an
//! application reads it, and where it outlives the process that started
//! it.
//!
//! ```no_run
//! # async fn run() -> Result<(), tool_core::store::StoreError> {
//! use std::time::Duration;
//! use tool_core::store::{Store, When};
//! use tool_redis::RedisStore;
//!
//! // Fails here, not at the first call, if Redis cannot be reached.
//! let store = RedisStore::connect("redis://127.0.0.1:6379").await?;
//! store.put("call:1", b"done".to_vec(), Duration::from_secs(600), When::Always).await?;
//! # Ok(()) }
//! ```
//!
//! Every record is written with its time to live (Redis `PX`), so Redis
//! holds only what still waits. Each write is published on one channel
//! per key prefix; every store connected with that prefix hears it and
//! wakes its watches. See docs/scaling.md for what this costs per call.
//!
//! While Redis cannot be reached (restarted, failed over), what waits on
//! it keeps waiting, for the store's grace ([`RedisOptions::grace`], 30 s
//! unless set); the store reconnects with backoff meanwhile. A request
//! that would start something (a new call, a delivery, a decision) fails
//! at once, saying Redis is unreachable.

mod listen;
mod outage;
mod scripts;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio_util::sync::CancellationToken;
use tool_core::BoxFuture;
use tool_core::store::{OUTAGE_GRACE, Store, StoreError, Watch, Watchers, When};

use crate::outage::Outages;

/// How long connecting, or any one command, may take before the store is
/// said to be unreachable.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// How often watches wake with nothing heard: a write published while the
/// subscription was being made again is still read within this.
const POLL: Duration = Duration::from_secs(2);

/// A [`Store`] on a Redis server, shared by every process connected to it
/// with the same prefix. Clones share one connection.
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

struct Inner {
    connection: ConnectionManager,
    /// Put before every key.
    prefix: String,
    /// Where writes are published: `<prefix>changed`.
    channel: String,
    /// Where Redis is, for messages: the URL without its password.
    address: String,
    watchers: Watchers,
    /// Stops the subscription's task when the last clone is dropped.
    stop: CancellationToken,
    /// How long what waits keeps waiting while Redis cannot be reached.
    grace: Duration,
    /// When Redis was last seen unreachable, by a command or the
    /// subscription.
    outages: Outages,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("address", &self.inner.address)
            .field("prefix", &self.inner.prefix)
            .finish_non_exhaustive()
    }
}

/// How to connect: see [`RedisStore::options`].
#[derive(Clone, Debug)]
pub struct RedisOptions {
    url: String,
    prefix: String,
    timeout: Duration,
    grace: Duration,
}

impl RedisOptions {
    /// Put `prefix` before every key, so that applications sharing one
    /// Redis keep apart (`tools:` unless set).
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// How long connecting, or any one command, may take (5 s unless
    /// set): past it, the store is unreachable.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How long what waits on the store (a call's result, a decision on
    /// a parked call, a task's end) keeps waiting while Redis cannot be
    /// reached: 30 s unless set ([`OUTAGE_GRACE`]). Within it, an outage
    /// loses nothing that Redis kept (one restarted with its data, a
    /// replica promoted); past it, each wait ends with an error result
    /// saying the result was lost because Redis is unreachable.
    /// `Duration::ZERO` ends them at the first failure.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), tool_core::store::StoreError> {
    /// use std::time::Duration;
    /// use tool_core::ToolRegistry;
    /// use tool_redis::RedisStore;
    ///
    /// // Calls wait through a Redis failover of up to two minutes.
    /// let store = RedisStore::options("redis://127.0.0.1:6379")
    ///     .grace(Duration::from_secs(120))
    ///     .connect()
    ///     .await?;
    /// let registry = ToolRegistry::<()>::builder().store(store).build();
    /// # drop(registry);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// Connects, and subscribes to the writes of other processes: an
    /// error now if Redis cannot be reached.
    pub async fn connect(self) -> Result<RedisStore, StoreError> {
        let address = redact(&self.url);
        let unreachable = |error: redis::RedisError| StoreError::Unreachable {
            store: "redis".into(),
            message: format!("{address}: {error}"),
        };
        let client = redis::Client::open(self.url.as_str()).map_err(unreachable)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout))
            .set_number_of_retries(1);
        let connect = client.get_connection_manager_with_config(config);
        let mut connection = tokio::time::timeout(self.timeout, connect)
            .await
            .map_err(|_| StoreError::Unreachable {
                store: "redis".into(),
                message: format!("{address}: no answer in {:?}", self.timeout),
            })?
            .map_err(unreachable)?;
        redis::cmd("PING")
            .query_async::<()>(&mut connection)
            .await
            .map_err(unreachable)?;
        let channel = format!("{}changed", self.prefix);
        let watchers = Watchers::polling(POLL);
        let stop = CancellationToken::new();
        let outages = Outages::default();
        let subscribed = listen::subscribe(
            client,
            channel.clone(),
            self.prefix.clone(),
            watchers.clone(),
            outages.clone(),
            stop.clone(),
        );
        tokio::time::timeout(self.timeout, subscribed)
            .await
            .map_err(|_| StoreError::Unreachable {
                store: "redis".into(),
                message: format!("{address}: no answer to SUBSCRIBE in {:?}", self.timeout),
            })?
            .map_err(unreachable)?;
        Ok(RedisStore {
            inner: Arc::new(Inner {
                connection,
                prefix: self.prefix,
                channel,
                address,
                watchers,
                stop,
                grace: self.grace,
                outages,
            }),
        })
    }
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://host:port/db`, with
    /// `rediss://` for TLS where the client has it) with the default
    /// options.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::options(url).connect().await
    }

    /// Options for connecting to the Redis at `url`.
    pub fn options(url: &str) -> RedisOptions {
        RedisOptions {
            url: url.to_owned(),
            prefix: "tools:".into(),
            timeout: DEFAULT_TIMEOUT,
            grace: OUTAGE_GRACE,
        }
    }

    /// The prefix of this store's keys.
    pub fn prefix(&self) -> &str {
        &self.inner.prefix
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.inner.prefix)
    }

    fn error(&self, key: &str, error: &redis::RedisError) -> StoreError {
        if error.is_io_error()
            || error.is_timeout()
            || error.is_connection_dropped()
            || error.is_connection_refusal()
            || error.is_unrecoverable_error()
        {
            self.inner.outages.seen();
            StoreError::Unreachable {
                store: "redis".into(),
                message: format!("{}: {error}", self.inner.address),
            }
        } else {
            StoreError::Refused {
                store: "redis".into(),
                key: key.to_owned(),
                message: error.to_string(),
            }
        }
    }
}

impl Store for RedisStore {
    fn kind(&self) -> &str {
        "redis"
    }

    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        Box::pin(async move {
            let mut connection = self.inner.connection.clone();
            redis::cmd("GET")
                .arg(self.key(key))
                .query_async(&mut connection)
                .await
                .map_err(|error| self.error(key, &error))
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
            let mut connection = self.inner.connection.clone();
            // Redis takes whole milliseconds, and refuses none.
            let ttl = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
            let (mode, expected): (&str, &[u8]) = match when {
                When::Always => ("always", b""),
                When::Absent => ("absent", b""),
                When::Equals(expected) => ("equals", expected),
            };
            let wrote: i64 = scripts::put()
                .key(self.key(key))
                .key(&self.inner.channel)
                .arg(mode)
                .arg(value)
                .arg(ttl)
                .arg(expected)
                .arg(key)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.error(key, &error))?;
            Ok(wrote == 1)
        })
    }

    fn delete<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut connection = self.inner.connection.clone();
            let deleted: i64 = scripts::delete()
                .key(self.key(key))
                .key(&self.inner.channel)
                .arg(key)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.error(key, &error))?;
            Ok(deleted == 1)
        })
    }

    fn watch(&self, key: &str) -> Watch {
        self.inner.watchers.watch(key)
    }

    fn outage_grace(&self) -> Duration {
        self.inner.grace
    }

    /// Since a command last failed to reach Redis, or the subscription
    /// was last lost or made again.
    fn since_outage(&self) -> Option<Duration> {
        self.inner.outages.since()
    }

    /// A sorted set scored by each member's time, whose key expires at
    /// the highest: one script, which also removes the members whose
    /// time has passed.
    fn add_member<'a>(
        &'a self,
        key: &'a str,
        member: &'a str,
        until_ms: u64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut connection = self.inner.connection.clone();
            let _: i64 = scripts::add_member()
                .key(self.key(key))
                .key(&self.inner.channel)
                .arg(member)
                .arg(until_ms)
                .arg(now_ms())
                .arg(key)
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.error(key, &error))?;
            Ok(())
        })
    }

    /// The members scored past now, the others removed, in text order.
    fn members<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            let mut connection = self.inner.connection.clone();
            let mut members: Vec<String> = scripts::members()
                .key(self.key(key))
                .arg(now_ms())
                .invoke_async(&mut connection)
                .await
                .map_err(|error| self.error(key, &error))?;
            // Read in the order of their times.
            members.sort_unstable();
            Ok(members)
        })
    }
}

/// The wall-clock time in ms since the Unix epoch, as members' times are
/// given: this process's clock, as the store in memory uses its own.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

/// `url` without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://…@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_password_is_left_out_of_messages() {
        assert_eq!(
            super::redact("redis://user:secret@db:6379/2"),
            "redis://…@db:6379/2"
        );
        assert_eq!(super::redact("redis://db:6379"), "redis://db:6379");
    }
}
