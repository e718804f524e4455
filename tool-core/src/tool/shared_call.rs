//! One call through a registry, as the context of the tool that runs it
//! shares it: its arguments (or their text), whose it is, and the id and
//! the token made only when someone asks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::tool::ask::Asker;
use crate::tool::call_id::Scope;
use crate::tool::name::Name;
use crate::tool::progress::{Progress, ProgressSink};

/// One call through a registry: its arguments, and the id and token made
/// from them when first asked for. Most calls never ask, and a hash and a
/// child token are not free.
pub(crate) struct SharedCall {
    pub(super) tool: Name,
    /// Made from `text` when first asked for, for a call read from it.
    arguments: OnceLock<Value>,
    text: Option<String>,
    /// Whose the call is, and the id its caller gave it: what its own id
    /// is made from.
    scope: Scope,
    given: Option<Arc<str>>,
    id: OnceLock<String>,
    token: OnceLock<CancellationToken>,
    cancelled: AtomicBool,
    pub(super) progress: Progress,
    /// Who answers the questions of a tool marked `asks`, when its
    /// context names no one: the registry's.
    desk: Option<Arc<dyn Asker>>,
    /// Whether the tool is marked `asks`.
    asks: bool,
    /// The time its questions waited for an answer, which its time limit
    /// does not count: what is not yet credited, and since when one
    /// waits now.
    asking: Mutex<Asking>,
}

/// The time a call's questions waited, not yet given back to its limit.
#[derive(Default)]
struct Asking {
    owed: Duration,
    since: Option<Instant>,
}

impl SharedCall {
    /// A call of `tool`; its progress goes to `sink` (the registry's
    /// observer, when it has one) and to tracing.
    pub(crate) fn new(tool: Name, arguments: Value, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Self {
            tool,
            arguments: OnceLock::from(arguments),
            text: None,
            scope: Scope::default(),
            given: None,
            id: OnceLock::new(),
            token: OnceLock::new(),
            cancelled: AtomicBool::new(false),
            progress: Progress::new(sink),
            desk: None,
            asks: false,
            asking: Mutex::default(),
        }
    }

    /// The same call, made by `scope`'s caller in its conversation, under
    /// the id the caller `given` it (the provider's).
    pub(crate) fn of(mut self, scope: Scope, given: Option<Arc<str>>) -> Self {
        self.scope = scope;
        self.given = given;
        self
    }

    /// The same call under the id it was given already.
    pub(crate) fn with_id(self, id: String) -> Self {
        let _ = self.id.set(id);
        self
    }

    /// Whose the call is.
    pub(crate) fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The call of a tool marked `asks`, whose questions `desk` answers
    /// when its context names no one.
    pub(crate) fn asking_through(mut self, desk: Arc<dyn Asker>) -> Self {
        self.asks = true;
        self.desk = Some(desk);
        self
    }

    /// The tool's name.
    #[cfg(feature = "schemars")]
    pub(crate) fn tool(&self) -> &str {
        &self.tool
    }

    /// Whether the tool is marked `asks`, and who answers it by default.
    pub(crate) fn desk(&self) -> (bool, Option<&Arc<dyn Asker>>) {
        (self.asks, self.desk.as_ref())
    }

    /// A question waits for the person from now.
    #[cfg(feature = "schemars")]
    pub(crate) fn question_asked(&self) {
        let mut asking = self.asking.lock().unwrap_or_else(PoisonError::into_inner);
        asking.since.get_or_insert_with(Instant::now);
    }

    /// The question has its answer (or none will come).
    #[cfg(feature = "schemars")]
    pub(crate) fn question_ended(&self) {
        let mut asking = self.asking.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(since) = asking.since.take() {
            asking.owed += since.elapsed();
        }
    }

    /// The time questions waited since last asked, which the call's time
    /// limit gives back, and whether one waits still.
    pub(crate) fn take_question_time(&self) -> (Duration, bool) {
        let mut asking = self.asking.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        let waiting = match &mut asking.since {
            Some(since) => now - std::mem::replace(since, now),
            None => Duration::ZERO,
        };
        (
            std::mem::take(&mut asking.owed) + waiting,
            asking.since.is_some(),
        )
    }

    /// A call whose arguments were read out of their text, a JSON object:
    /// its value is made only if someone asks (for the id, say).
    pub(crate) fn from_text(tool: Name, text: String, sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Self {
            tool,
            arguments: OnceLock::new(),
            text: Some(text),
            scope: Scope::default(),
            given: None,
            id: OnceLock::new(),
            token: OnceLock::new(),
            cancelled: AtomicBool::new(false),
            progress: Progress::new(sink),
            desk: None,
            asks: false,
            asking: Mutex::default(),
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

    /// The call's id, made once, when first asked for
    /// ([`Scope::call_id`]).
    pub(crate) fn id(&self) -> &str {
        self.id.get_or_init(|| {
            self.scope
                .call_id(self.given.as_deref(), &self.tool, || self.arguments())
        })
    }

    /// The call's own token: a child of the caller's, cancelled with it or
    /// by [`SharedCall::cancel`], made when first asked for.
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
