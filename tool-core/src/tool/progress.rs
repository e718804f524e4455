//! Progress a running call reports ([`ToolContext::progress`]): the event,
//! the rule that it must advance, and the seam through which it reaches
//! whoever listens without this module knowing the registry.
//!
//! [`ToolContext::progress`]: crate::ToolContext::progress

use std::borrow::Cow;
use std::sync::{Arc, Mutex, PoisonError};

/// A running call has reported progress with
/// [`ToolContext::progress`](crate::ToolContext::progress); what a
/// registry's [`CallObserver`](crate::observe::CallObserver) receives in
/// [`call_progress`](crate::observe::CallObserver::call_progress), and a context's
/// own listener
/// ([`ContextBuilder::progress_listener`](crate::context::ContextBuilder::progress_listener)).
///
/// The fields are those of MCP's `notifications/progress` (`progress`,
/// `total`, `message`), plus the call they belong to. An MCP server sets a
/// listener on the context of each request, which knows the request's
/// `progressToken`. From one event of a call to the next, `done`
/// increases.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::{Arc, Mutex};
/// use serde_json::json;
/// use tool_core::observe::{CallObserver, CallProgress};
/// use tool_core::{ToolContext, ToolRegistry, tool};
///
/// /// Index the documents.
/// #[tool]
/// async fn index(ctx: &ToolContext, documents: Vec<String>) -> usize {
///     for (done, document) in documents.iter().enumerate() {
///         ctx.progress(done as f64, Some(documents.len() as f64), document.as_str());
///     }
///     documents.len()
/// }
///
/// /// Keeps each report as the `params` of an MCP notification.
/// struct Notifications(Arc<Mutex<Vec<serde_json::Value>>>);
///
/// impl CallObserver for Notifications {
///     fn call_progress(&self, event: &CallProgress<'_>) {
///         let mut params = json!({"progress": event.done});
///         if let Some(total) = event.total {
///             params["total"] = json!(total);
///         }
///         if let Some(message) = event.message {
///             params["message"] = json!(message);
///         }
///         self.0.lock().unwrap().push(params);
///     }
/// }
///
/// let sent = Arc::new(Mutex::new(Vec::new()));
/// let registry = ToolRegistry::builder()
///     .with(Index)
///     .observer(Notifications(Arc::clone(&sent)))
///     .build();
/// let ctx = ToolContext::new(());
/// registry.call(&ctx, "index", json!({"documents": ["a.md", "b.md"]})).await;
/// assert_eq!(
///     *sent.lock().unwrap(),
///     [
///         json!({"progress": 0.0, "total": 2.0, "message": "a.md"}),
///         json!({"progress": 1.0, "total": 2.0, "message": "b.md"}),
///     ]
/// );
/// # });
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CallProgress<'a> {
    /// The tool's name.
    pub tool: &'a str,
    /// The call's id, as in its start and finish events.
    pub call_id: &'a str,
    /// How much is done: MCP's `progress`. Finite, and more than in the
    /// call's event before.
    pub done: f64,
    /// How much there is to do, when the tool knows: MCP's `total`. Finite.
    pub total: Option<f64>,
    /// What the call is doing, for people: MCP's `message`.
    pub message: Option<&'a str>,
}

/// Where a call's progress goes besides tracing: the registry's observer,
/// which the pipeline installs in each call it shares with a tool. The
/// vocabulary reports through it and knows nothing of the registry.
pub(crate) trait ProgressSink: Send + Sync {
    fn progress(&self, event: &CallProgress<'_>);
}

/// A listener of one caller's calls, set with
/// [`ContextBuilder::progress_listener`](crate::context::ContextBuilder::progress_listener):
/// an MCP server's request, which alone knows its `progressToken`.
pub(crate) type Listener = dyn Fn(&CallProgress<'_>) + Send + Sync;

/// One call's progress: where it goes, and how far the last report that
/// went got, which the next must pass.
pub(crate) struct Progress {
    sink: Option<Arc<dyn ProgressSink>>,
    /// Held while a report is sent, so that reports from several threads
    /// leave in increasing order.
    last: Mutex<f64>,
}

impl Progress {
    /// Whether the reports go somewhere.
    pub(crate) fn has_sink(&self) -> bool {
        self.sink.is_some()
    }

    pub(crate) fn new(sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Self {
            sink,
            last: Mutex::new(f64::NEG_INFINITY),
        }
    }

    /// Sends a report that advances to tracing, the sink and the caller's
    /// listener; `names` gives the tool's name and the call's id, asked for
    /// only when one of them listens: the id costs a hash.
    pub(crate) fn report<'a>(
        &self,
        done: f64,
        total: Option<f64>,
        message: Option<&str>,
        listener: Option<&Listener>,
        names: impl FnOnce() -> (&'a str, &'a str),
    ) {
        // Not JSON numbers, so no MCP client could read them.
        if !done.is_finite() {
            return;
        }
        let total = total.filter(|total| total.is_finite());
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        // MCP requires progress to increase; a report that does not is
        // stale (or a mistake), and goes nowhere.
        if done <= *last {
            return;
        }
        *last = done;
        // The tool and call id are the span's fields. `message` names the
        // event's own text in tracing, hence `progress_message`.
        tracing::debug!(done, total, progress_message = message, "tool progress");
        if self.sink.is_none() && listener.is_none() {
            return;
        }
        let (tool, call_id) = names();
        let event = CallProgress {
            tool,
            call_id,
            done,
            total,
            message,
        };
        if let Some(sink) = &self.sink {
            sink.progress(&event);
        }
        if let Some(listener) = listener {
            listener(&event);
        }
    }
}

/// A number of things done or to do, as [`ToolContext::progress`] takes
/// it: any primitive integer or float, sent to the listener as an `f64`
/// (an integer past 2^53 rounds to the nearest `f64`).
///
/// `u64`, `usize` and the 128-bit integers have no `Into<f64>`, which is
/// why progress takes this trait: `ctx.progress(done, files.len(), ..)`
/// needs no cast.
///
/// [`ToolContext::progress`]: crate::ToolContext::progress
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an amount of progress",
    label = "how much is done: a number",
    note = "pass an integer or a float (`3`, `done`, `files.len()`, `0.5`)"
)]
pub trait ProgressAmount {
    /// The amount as MCP's `progress` and `total` carry it.
    fn into_f64(self) -> f64;
}

macro_rules! amounts {
    ($($t:ty),*) => {$(
        impl ProgressAmount for $t {
            #[inline]
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn into_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}

amounts!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

/// How much there is to do, as [`ToolContext::progress`] takes it: an
/// amount (`3`, `files.len()`, `2.0`: a known total), `None` (not known),
/// or `Some` of an `f64`.
///
/// `Some` only of an `f64`, so that a bare `None` needs no type: write an
/// integer total bare (`files.len()`), not in `Some`.
///
/// [`ToolContext::progress`]: crate::ToolContext::progress
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a total of progress",
    label = "how much there is to do: a number, or `None`",
    note = "pass the total bare (`3`, `files.len()`), `None` when it is not known, or `Some` of an `f64`"
)]
pub trait ProgressTotal {
    /// The total as MCP's `total` carries it.
    fn into_total(self) -> Option<f64>;
}

impl<T: ProgressAmount> ProgressTotal for T {
    #[inline]
    fn into_total(self) -> Option<f64> {
        Some(self.into_f64())
    }
}

impl ProgressTotal for Option<f64> {
    #[inline]
    fn into_total(self) -> Option<f64> {
        self
    }
}

/// What a call is doing, for people, as [`ToolContext::progress`] takes
/// it: a `&str`, a `String` (`format!(...)`, moved, not copied), a
/// `&String`, a `Cow<str>`, an `Option<&str>`, or `None`.
///
/// `Option` only of a `&str`, so that a bare `None` needs no type: pass an
/// `Option<String>` as `message.as_deref()`.
///
/// [`ToolContext::progress`]: crate::ToolContext::progress
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a progress message",
    label = "what the call is doing, for people: text, or `None`",
    note = "pass a `&str`, a `String` (`format!(..)`), or `None`; an `Option<String>` as `.as_deref()`"
)]
pub trait ProgressMessage<'a> {
    /// The message, borrowed or owned as it came.
    fn into_message(self) -> Option<Cow<'a, str>>;
}

impl<'a> ProgressMessage<'a> for &'a str {
    #[inline]
    fn into_message(self) -> Option<Cow<'a, str>> {
        Some(Cow::Borrowed(self))
    }
}

impl<'a> ProgressMessage<'a> for &'a String {
    #[inline]
    fn into_message(self) -> Option<Cow<'a, str>> {
        Some(Cow::Borrowed(self.as_str()))
    }
}

impl<'a> ProgressMessage<'a> for String {
    #[inline]
    fn into_message(self) -> Option<Cow<'a, str>> {
        Some(Cow::Owned(self))
    }
}

impl<'a> ProgressMessage<'a> for Cow<'a, str> {
    #[inline]
    fn into_message(self) -> Option<Cow<'a, str>> {
        Some(self)
    }
}

impl<'a> ProgressMessage<'a> for Option<&'a str> {
    #[inline]
    fn into_message(self) -> Option<Cow<'a, str>> {
        self.map(Cow::Borrowed)
    }
}
