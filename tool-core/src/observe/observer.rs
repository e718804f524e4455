//! What the application sees of every call: events to an observer it
//! installs, and a tracing span.

use std::time::Duration;

use crate::output::result::ToolResult;
use crate::tool::progress::CallProgress;
use crate::tool::progress::ProgressSink;

/// Receives an event when a call starts, when it reports progress, and when
/// it finishes.
///
/// Installed with [`RegistryBuilder::observer`](crate::registry::RegistryBuilder::observer).
/// Events are delivered on the task that runs the call (progress, on the
/// task that reports it), so an observer should be quick (count, log, send
/// on a channel). A panic in an observer is its own: the call goes on.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use tool_core::observe::{CallFinished, CallObserver, CallStarted};
///
/// #[derive(Default)]
/// struct Counts { started: AtomicUsize, failed: AtomicUsize }
///
/// impl CallObserver for Counts {
///     fn call_started(&self, _: &CallStarted<'_>) {
///         self.started.fetch_add(1, Ordering::Relaxed);
///     }
///     fn call_finished(&self, event: &CallFinished<'_>) {
///         if event.result.is_error() {
///             self.failed.fetch_add(1, Ordering::Relaxed);
///         }
///     }
/// }
/// ```
pub trait CallObserver: Send + Sync + 'static {
    /// A call has started.
    fn call_started(&self, event: &CallStarted<'_>) {
        let _ = event;
    }

    /// A running call has reported progress
    /// ([`ToolContext::progress`](crate::ToolContext::progress)): for an MCP
    /// server, a `notifications/progress` to send for the request whose
    /// call this is. The events of a call come after its start, with `done`
    /// increasing; a `long_running` call's come after its pending result
    /// too. See [`CallProgress`] for an example.
    fn call_progress(&self, event: &CallProgress<'_>) {
        let _ = event;
    }

    /// A call has finished. A call of a `long_running` tool finishes twice:
    /// once with its pending result, and once, later, with its final one.
    fn call_finished(&self, event: &CallFinished<'_>) {
        let _ = event;
    }
}

/// An observer as a call's progress reaches it.
impl<O: CallObserver> ProgressSink for O {
    fn progress(&self, event: &CallProgress<'_>) {
        quietly(|| self.call_progress(event));
    }
}

/// A call has started.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct CallStarted<'a> {
    /// The tool's name, as the model sent it.
    pub tool: &'a str,
    /// The call's id ([`ToolContext::call_id`](crate::ToolContext::call_id)).
    pub call_id: &'a str,
}

/// A call has finished.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct CallFinished<'a> {
    /// The tool's name, as the model sent it.
    pub tool: &'a str,
    /// The call's id ([`ToolContext::call_id`](crate::ToolContext::call_id)).
    pub call_id: &'a str,
    /// From the start of the call.
    pub duration: Duration,
    /// The result the model receives, with the [`ToolError`](crate::ToolError)
    /// of a failure in [`ToolResult::tool_error`].
    pub result: &'a ToolResult,
}

impl CallFinished<'_> {
    /// `"success"`, `"error"` or `"pending"`: the outcome in a word, for
    /// logs and metrics.
    pub fn outcome(&self) -> &'static str {
        if self.result.is_pending() {
            "pending"
        } else if self.result.is_error() {
            "error"
        } else {
            "success"
        }
    }
}

/// Runs an observer's callback; its panic is its own and does not end the
/// call.
pub(crate) fn quietly(callback: impl FnOnce()) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(callback));
}
