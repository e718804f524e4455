//! One call through a registry, as the context of the tool that runs it
//! shares it: its arguments (or their text), and the id and the token made
//! from them only when someone asks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::tool::Name;
use crate::tool::progress::{Progress, ProgressSink};

/// One call through a registry: its arguments, and the id and token made
/// from them when first asked for. Most calls never ask, and a hash and a
/// child token are not free.
pub(crate) struct Call {
    pub(super) tool: Name,
    /// Made from `text` when first asked for, for a call read from it.
    arguments: OnceLock<Value>,
    text: Option<String>,
    id: OnceLock<String>,
    token: OnceLock<CancellationToken>,
    cancelled: AtomicBool,
    pub(super) progress: Progress,
}

impl Call {
    /// A call of `tool`; its progress goes to `sink` (the registry's
    /// observer, when it has one) and to tracing.
    pub(crate) fn new(tool: Name, arguments: Value, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Self {
            tool,
            arguments: OnceLock::from(arguments),
            text: None,
            id: OnceLock::new(),
            token: OnceLock::new(),
            cancelled: AtomicBool::new(false),
            progress: Progress::new(sink),
        }
    }

    /// A call whose arguments were read out of their text, a JSON object:
    /// its value is made only if someone asks (for the id, say).
    pub(crate) fn from_text(tool: Name, text: String, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Self {
            tool,
            arguments: OnceLock::new(),
            text: Some(text),
            id: OnceLock::new(),
            token: OnceLock::new(),
            cancelled: AtomicBool::new(false),
            progress: Progress::new(sink),
        }
    }

    /// The text of a call read from it; empty for one read from a value.
    pub(crate) fn text(&self) -> &str {
        self.text.as_deref().unwrap_or_default()
    }

    /// The text of a call read from it, back (copied only if the call is
    /// still shared).
    pub(crate) fn into_text(call: Arc<Self>) -> String {
        match Arc::try_unwrap(call) {
            Ok(call) => call.text.unwrap_or_default(),
            Err(call) => call.text().to_owned(),
        }
    }

    /// The call's arguments, as they passed the raw-argument checks.
    pub(crate) fn arguments(&self) -> &Value {
        self.arguments.get_or_init(|| {
            // Read already as one object: it parses.
            let text = self.text.as_deref().unwrap_or("{}");
            serde_json::from_str(text).unwrap_or_default()
        })
    }

    /// The call's stable id, computed once: the same for its text as for
    /// its value.
    pub(crate) fn id(&self) -> &str {
        self.id
            .get_or_init(|| crate::call_id(&self.tool, self.arguments()))
    }

    /// The call's own token: a child of the caller's, cancelled with it or
    /// by [`Call::cancel`], made when first asked for.
    pub(super) fn token(&self, parent: &CancellationToken) -> &CancellationToken {
        let token = self.token.get_or_init(|| parent.child_token());
        // A cancel that came before the token existed.
        if self.cancelled.load(Ordering::SeqCst) {
            token.cancel();
        }
        token
    }

    /// Cancels the call (its time ran out), whether or not its token exists
    /// yet.
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(token) = self.token.get() {
            token.cancel();
        }
    }

    pub(super) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
            || self
                .token
                .get()
                .is_some_and(CancellationToken::is_cancelled)
    }
}
