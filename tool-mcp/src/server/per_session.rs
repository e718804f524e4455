//! What a server keeps for each session of 2025-11-25 (a log level):
//! known by the session's `initialize` parameters, which rmcp keeps for as
//! long as the session lives. Once they are dropped the session is gone
//! and its entry is forgotten, so the list holds only live sessions,
//! whatever the transport.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use rmcp::RoleServer;
use rmcp::model::InitializeRequestParams;
use rmcp::service::RequestContext;

/// A `T` for each live session.
pub(crate) struct PerSession<T> {
    entries: Mutex<Vec<(Weak<InitializeRequestParams>, T)>>,
    /// How many entries there are, written under the lock and read
    /// without it: while no session has one (none set a log level, say),
    /// a request reads nothing and takes no lock.
    len: AtomicUsize,
}

impl<T> Default for PerSession<T> {
    fn default() -> Self {
        Self {
            entries: Mutex::new(Vec::new()),
            len: AtomicUsize::new(0),
        }
    }
}

impl<T: Default> PerSession<T> {
    /// Changes the request's session's `T` (made if it had none); a
    /// request outside a session (2026-07-28) has none to change: false.
    pub(crate) fn update(
        &self,
        request: &RequestContext<RoleServer>,
        change: impl FnOnce(&mut T),
    ) -> bool {
        let Some(session) = request.peer.peer_info() else {
            return false;
        };
        let mut entries = self.lock();
        entries.retain(|(known, _)| known.strong_count() > 0);
        let at = match entries.iter().position(|(known, _)| is(known, &session)) {
            Some(at) => at,
            None => {
                entries.push((Arc::downgrade(&session), T::default()));
                entries.len() - 1
            }
        };
        change(&mut entries[at].1);
        self.len.store(entries.len(), Ordering::Release);
        true
    }
}

impl<T> PerSession<T> {
    /// What `read` makes of the request's session's `T`, if it has one.
    pub(crate) fn read<R>(
        &self,
        request: &RequestContext<RoleServer>,
        read: impl FnOnce(&T) -> R,
    ) -> Option<R> {
        if self.len.load(Ordering::Acquire) == 0 {
            return None;
        }
        let session = request.peer.peer_info()?;
        let entries = self.lock();
        entries
            .iter()
            .find(|(known, _)| is(known, &session))
            .map(|(_, value)| read(value))
    }

    fn lock(&self) -> MutexGuard<'_, Vec<(Weak<InitializeRequestParams>, T)>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn is(known: &Weak<InitializeRequestParams>, session: &Arc<InitializeRequestParams>) -> bool {
    std::ptr::eq(known.as_ptr(), Arc::as_ptr(session))
}
