//! HTTP sessions with limits: how long one may sit idle, and how many may
//! be open at once, so that clients that leave without closing their
//! session cannot fill the server's memory.

use std::cell::Cell;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, ServerSseMessage, SessionId, SessionManager,
};
use tokio::time::Instant;

/// How long an HTTP session may go without a request before it is closed:
/// 5 minutes, rmcp's own default.
pub const DEFAULT_SESSION_IDLE_LIMIT: Duration = Duration::from_secs(300);

/// How many HTTP sessions may be open at once: 1000. An idle session holds
/// about 70 kB (2000 took 140 MB), so at most about 70 MB.
pub const DEFAULT_MAX_SESSIONS: usize = 1000;

tokio::task_local! {
    /// Set when a new session was refused for the limit, for the HTTP
    /// front serving that request to answer 503 rather than rmcp's 500.
    pub(crate) static AT_LIMIT: Cell<bool>;
}

/// rmcp's in-memory sessions ([`LocalSessionManager`]) with two limits,
/// the session manager of [`McpServer::http_service`](crate::McpServer::http_service):
///
/// - A session with no request running that has gone
///   [idle limit](crate::McpConfig::with_session_idle_limit) without one is
///   closed: the next request naming it is answered `404 Not Found`, upon
///   which the MCP transport specification has the client start a new
///   session. A request running (a long tool call, say) keeps its session
///   open however long it takes.
/// - When [`McpConfig::with_max_sessions`](crate::McpConfig::with_max_sessions) sessions are open, a new
///   `initialize` closes the one that has gone longest without a request
///   among those with none running; if every one has a request running,
///   the new session is refused (`503 Service Unavailable` from
///   [`McpServer::serve_http`](crate::McpServer::serve_http); an [`HttpSessionError::AtLimit`] that rmcp
///   answers `500` in a router of your own).
///
/// [`McpServer::serve_http`](crate::McpServer::serve_http) also closes idle sessions as they pass the
/// limit, so that the memory of clients that left is freed even when no
/// one else comes; in a router of your own they are closed when a request
/// names them or a new session is opened, so never more than the limit
/// stay open.
pub struct HttpSessions {
    inner: LocalSessionManager,
    max: usize,
    idle: Duration,
    uses: Arc<Mutex<Uses>>,
    /// What the times of [`Activity::last`] count from.
    epoch: Instant,
}

/// The sessions' use, next to rmcp's own map of them.
#[derive(Default)]
struct Uses {
    sessions: HashMap<SessionId, Use>,
    /// Sessions being created, counted before they have an id.
    reserved: usize,
}

/// A session's use, shared with its requests running: one that ends
/// says so without the lock or a look-up in the map.
#[derive(Default)]
struct Activity {
    /// The end of its last request, or the start of one running, as the
    /// time since the sessions' epoch in nanoseconds.
    last: AtomicU64,
    /// Its requests whose answer is still being streamed.
    running: AtomicUsize,
}

type Use = Arc<Activity>;

impl Activity {
    /// Whether the session may be closed for having been idle too long.
    fn expired(&self, idle: Duration, now: u64) -> bool {
        // `running` first: a request that ended wrote `last` before it.
        self.running.load(Ordering::Acquire) == 0
            && now.saturating_sub(self.last.load(Ordering::Relaxed)) >= nanos(idle)
    }

    fn touch(&self, now: u64) {
        self.last.fetch_max(now, Ordering::Relaxed);
    }
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// Why a session could not be created or reached.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpSessionError {
    /// Every one of the `max` sessions allowed has a request running.
    #[error(
        "the server is at its limit of {max} open sessions, each with a request running; try again later"
    )]
    AtLimit {
        /// The limit.
        max: usize,
    },
    /// rmcp's sessions failed.
    #[error("the session failed")]
    Local(#[source] LocalSessionManagerError),
}

impl HttpSessions {
    /// Sessions closed after `idle` without a request, at most `max` open.
    pub(crate) fn new(idle: Duration, max: usize) -> Self {
        let mut inner = LocalSessionManager::default();
        // Idleness is judged here, where a request still running counts
        // as use: rmcp's own timer would close a session under a long call.
        inner.session_config.keep_alive = None;
        Self {
            inner,
            max: max.max(1),
            idle,
            uses: Arc::default(),
            epoch: Instant::now(),
        }
    }

    /// Now, as [`Activity::last`] counts.
    fn now(&self) -> u64 {
        nanos(Instant::now().saturating_duration_since(self.epoch))
    }

    /// The number of sessions open.
    pub fn len(&self) -> usize {
        lock(&self.uses).sessions.len()
    }

    /// Whether no session is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Closes every session idle for longer than the limit.
    pub(crate) async fn close_expired(&self) {
        let expired: Vec<SessionId> = {
            let mut uses = lock(&self.uses);
            let now = self.now();
            let idle = self.idle;
            let expired: Vec<SessionId> = uses
                .sessions
                .iter()
                .filter(|(_, session)| session.expired(idle, now))
                .map(|(id, _)| id.clone())
                .collect();
            for id in &expired {
                uses.sessions.remove(id);
            }
            expired
        };
        for id in expired {
            self.close_inner(&id).await;
        }
    }

    async fn close_inner(&self, id: &SessionId) {
        if let Err(error) = self.inner.close_session(id).await {
            tracing::debug!(%error, session = %id, "closing a session failed");
        }
    }

    /// Marks a request of `id`'s now.
    fn touch(&self, id: &SessionId) {
        let now = self.now();
        if let Some(session) = lock(&self.uses).sessions.get(id) {
            session.touch(now);
        }
    }
}

fn lock(uses: &Mutex<Uses>) -> MutexGuard<'_, Uses> {
    // The map is consistent after every statement: a panic elsewhere
    // leaves nothing half-done.
    uses.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A session being created, counted until it is dropped.
struct Reserved<'a>(&'a Mutex<Uses>);

impl Drop for Reserved<'_> {
    fn drop(&mut self) {
        let mut uses = lock(self.0);
        uses.reserved = uses.reserved.saturating_sub(1);
    }
}

/// A request of a session's, counted as running until it is dropped.
struct Running {
    /// The session's, `None` when it is not open.
    activity: Option<Use>,
    epoch: Instant,
}

impl Running {
    /// Counts a request of `id`'s as running.
    fn start(sessions: &HttpSessions, id: &SessionId) -> Self {
        let now = sessions.now();
        let activity = lock(&sessions.uses).sessions.get(id).map(|session| {
            // Counted under the lock, so that the session cannot be found
            // idle and closed in between.
            session.running.fetch_add(1, Ordering::AcqRel);
            session.touch(now);
            Arc::clone(session)
        });
        Self {
            activity,
            epoch: sessions.epoch,
        }
    }
}

/// A request's answer, whose request runs until it is dropped.
struct SessionAnswer<S> {
    stream: S,
    _running: Running,
}

impl<S: Stream + Unpin> Stream for SessionAnswer<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        Pin::new(&mut self.stream).poll_next(cx)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(activity) = &self.activity {
            activity.touch(nanos(Instant::now().saturating_duration_since(self.epoch)));
            // After `last`: whoever sees no request running sees its end.
            activity.running.fetch_sub(1, Ordering::Release);
        }
    }
}

impl SessionManager for HttpSessions {
    type Error = HttpSessionError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.close_expired().await;
        let evicted = {
            let mut uses = lock(&self.uses);
            let evicted = if uses.sessions.len() + uses.reserved >= self.max {
                let Some(oldest) = uses
                    .sessions
                    .iter()
                    .filter(|(_, session)| session.running.load(Ordering::Acquire) == 0)
                    .min_by_key(|(_, session)| session.last.load(Ordering::Relaxed))
                    .map(|(id, _)| id.clone())
                else {
                    // Outside serve_http's front there is no flag to set.
                    let _ = AT_LIMIT.try_with(|flag| flag.set(true));
                    return Err(HttpSessionError::AtLimit { max: self.max });
                };
                Some(oldest)
            } else {
                None
            };
            uses.reserved += 1;
            evicted
        };
        // Released however this ends, the request dropped at an await
        // included: a reservation left behind would shrink the limit.
        let _reserved = Reserved(&self.uses);
        if let Some(id) = evicted {
            tracing::info!(session = %id, max = self.max, "session limit reached: closing the least recently used idle session");
            // Forgotten only once closed: dropped before, it is still
            // counted, and closed later as idle.
            self.close_inner(&id).await;
            lock(&self.uses).sessions.remove(&id);
        }
        let created = self.inner.create_session().await;
        let (id, transport) = created.map_err(HttpSessionError::Local)?;
        let activity = Activity::default();
        activity.touch(self.now());
        lock(&self.uses)
            .sessions
            .insert(id.clone(), Arc::new(activity));
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        let answer = self.inner.initialize_session(id, message).await;
        answer.map_err(HttpSessionError::Local)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        let expired = {
            let mut uses = lock(&self.uses);
            match uses.sessions.get(id) {
                None => return Ok(false),
                Some(session) if session.expired(self.idle, self.now()) => {
                    uses.sessions.remove(id);
                    true
                }
                Some(_) => false,
            }
        };
        if expired {
            self.close_inner(id).await;
            return Ok(false);
        }
        let open = self.inner.has_session(id).await;
        open.map_err(HttpSessionError::Local)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        lock(&self.uses).sessions.remove(id);
        let closed = self.inner.close_session(id).await;
        closed.map_err(HttpSessionError::Local)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // Counted before the request reaches the session, so that it cannot
        // be closed as idle in between.
        let running = Running::start(self, id);
        let stream = self.inner.create_stream(id, message).await;
        let stream = stream.map_err(HttpSessionError::Local)?;
        Ok(SessionAnswer {
            stream,
            _running: running,
        })
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        let accepted = self.inner.accept_message(id, message).await;
        accepted.map_err(HttpSessionError::Local)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        let stream = self.inner.create_standalone_stream(id).await;
        stream.map_err(HttpSessionError::Local)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        let stream = self.inner.resume(id, last_event_id).await;
        stream.map_err(HttpSessionError::Local)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sessions open in rmcp's own map, and in the map of their use.
    async fn open(sessions: &HttpSessions) -> (usize, usize) {
        let rmcp = sessions.inner.sessions.read().await.len();
        (rmcp, sessions.len())
    }

    #[tokio::test]
    async fn no_more_than_the_limit_are_ever_held() {
        let sessions = HttpSessions::new(Duration::from_secs(300), 5);
        for created in 1..=200 {
            sessions.create_session().await.expect("created");
            let held = open(&sessions).await;
            assert_eq!(held, (created.min(5), created.min(5)));
        }
    }

    #[tokio::test(start_paused = true)]
    async fn expired_sessions_are_released() {
        let sessions = HttpSessions::new(Duration::from_secs(60), 100);
        for _ in 0..10 {
            sessions.create_session().await.expect("created");
        }
        tokio::time::advance(Duration::from_secs(59)).await;
        sessions.close_expired().await;
        assert_eq!(open(&sessions).await, (10, 10));
        tokio::time::advance(Duration::from_secs(1)).await;
        sessions.close_expired().await;
        assert_eq!(open(&sessions).await, (0, 0));
    }
}
