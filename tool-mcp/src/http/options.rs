//! What a server keeps for HTTP alone: its sessions' limits and the
//! protected resource it publishes.

use std::sync::Arc;
use std::time::Duration;

use crate::http::protected_resource::ProtectedResource;
use crate::http::sessions::{DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_LIMIT};

/// A server's settings that only HTTP uses.
#[derive(Clone)]
pub(crate) struct HttpOptions {
    /// How long a session may go without a request.
    pub(crate) idle: Duration,
    /// How many sessions may be open at once.
    pub(crate) max_sessions: usize,
    /// What the server publishes as an OAuth protected resource.
    pub(crate) resource: Option<Arc<ProtectedResource>>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            idle: DEFAULT_SESSION_IDLE_LIMIT,
            max_sessions: DEFAULT_MAX_SESSIONS,
            resource: None,
        }
    }
}
