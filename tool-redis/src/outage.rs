//! When this process last found Redis unreachable: what tells a living
//! process whose lease lapsed in an outage from one that stopped
//! ([`Store::since_outage`](tool_core::store::Store::since_outage)).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

/// The last time Redis was seen unreachable, shared by a store's clones
/// and its subscription's task.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outages(Arc<Mutex<Option<Instant>>>);

impl Outages {
    /// Redis is unreachable now, or has only just come back.
    pub(crate) fn seen(&self) {
        // One assignment under the lock: a panic cannot leave it half done.
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
    }

    /// How long since it was; `None` if never.
    pub(crate) fn since(&self) -> Option<Duration> {
        let last = *self.0.lock().unwrap_or_else(PoisonError::into_inner);
        last.map(|at| at.elapsed())
    }
}
