//! The context a tool runs in: the application's state plus per-call data.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;
pub use tokio_util::sync::CancellationToken;

/// What a tool sees besides its arguments: the application's state and the
/// data of the current call.
///
/// `Ctx` is the application's own type (a database pool, an HTTP client,
/// settings); the registry hands every tool the same shared state. A tool
/// written as a function opts in by taking a `&ToolContext<App>` parameter,
/// which is never part of its input schema.
///
/// Cloning a context is cheap: the state sits behind an [`Arc`].
///
/// ```
/// use tool_core::ToolContext;
///
/// struct App { greeting: String }
///
/// let ctx = ToolContext::new(App { greeting: "hello".into() }).with_call_id("call_1");
/// assert_eq!(ctx.state().greeting, "hello");
/// assert_eq!(ctx.call_id(), Some("call_1"));
/// assert!(!ctx.is_cancelled());
/// ```
pub struct ToolContext<Ctx = ()> {
    /// What every call of one caller shares, behind one `Arc`: each call
    /// clones the context, and one count is cheaper than three (cloning a
    /// token even takes a lock).
    shared: Arc<Shared<Ctx>>,
    /// The id given with [`ToolContext::with_call_id`].
    call_id: Option<Arc<str>>,
    /// The call being run, inside a registry call.
    call: Option<Arc<Call>>,
}

struct Shared<Ctx> {
    state: Arc<Ctx>,
    scopes: Arc<[String]>,
    /// The caller's token.
    cancellation: CancellationToken,
}

impl<Ctx> Clone for Shared<Ctx> {
    fn clone(&self) -> Self {
        Self {
            state: Arc::clone(&self.state),
            scopes: Arc::clone(&self.scopes),
            cancellation: self.cancellation.clone(),
        }
    }
}

/// One call through a registry: its arguments, and the id and token made
/// from them when first asked for. Most calls never ask, and a hash and a
/// child token are not free.
pub(crate) struct Call {
    tool: Arc<str>,
    arguments: Value,
    id: OnceLock<String>,
    token: OnceLock<CancellationToken>,
    cancelled: AtomicBool,
}

impl Call {
    pub(crate) fn new(tool: Arc<str>, arguments: Value) -> Self {
        Self {
            tool,
            arguments,
            id: OnceLock::new(),
            token: OnceLock::new(),
            cancelled: AtomicBool::new(false),
        }
    }

    /// The call's arguments, as they passed the raw-argument checks.
    pub(crate) fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The call's stable id, computed once.
    pub(crate) fn id(&self) -> &str {
        self.id
            .get_or_init(|| crate::call_id(&self.tool, &self.arguments))
    }

    /// The call's own token: a child of the caller's, cancelled with it or
    /// by [`Call::cancel`], made when first asked for.
    fn token(&self, parent: &CancellationToken) -> &CancellationToken {
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

    fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
            || self
                .token
                .get()
                .is_some_and(CancellationToken::is_cancelled)
    }
}

impl<Ctx> ToolContext<Ctx> {
    /// A context around the application's state, with no call id and a fresh
    /// cancellation token.
    pub fn new(state: Ctx) -> Self {
        Self::from_arc(Arc::new(state))
    }

    /// A context around state that is already shared.
    pub fn from_arc(state: Arc<Ctx>) -> Self {
        Self {
            shared: Arc::new(Shared {
                state,
                scopes: Arc::from([]),
                cancellation: CancellationToken::new(),
            }),
            call_id: None,
            call: None,
        }
    }

    /// The application's state.
    pub fn state(&self) -> &Ctx {
        &self.shared.state
    }

    /// The application's state as the shared pointer it lives in, for a tool
    /// that hands it to a task of its own.
    pub fn state_arc(&self) -> &Arc<Ctx> {
        &self.shared.state
    }

    /// The id of the call being run. Inside a call made through a
    /// [`ToolRegistry`](crate::ToolRegistry) it is the call's stable id
    /// ([`call_id`](crate::call_id())); elsewhere, whatever
    /// [`ToolContext::with_call_id`] set.
    pub fn call_id(&self) -> Option<&str> {
        match &self.call {
            Some(call) => Some(call.id()),
            None => self.call_id.as_deref(),
        }
    }

    /// The same context with the call id set.
    #[must_use]
    pub fn with_call_id(mut self, call_id: impl Into<Arc<str>>) -> Self {
        self.call_id = Some(call_id.into());
        self
    }

    /// The token that is cancelled when the call should stop: when its time
    /// runs out, or when the caller cancels its own. A long-running tool
    /// selects on [`CancellationToken::cancelled`] or polls
    /// [`ToolContext::is_cancelled`].
    pub fn cancellation(&self) -> &CancellationToken {
        match &self.call {
            Some(call) => call.token(&self.shared.cancellation),
            None => &self.shared.cancellation,
        }
    }

    /// The same context with the given cancellation token.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        Arc::make_mut(&mut self.shared).cancellation = token;
        self
    }

    /// Whether the call has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancellation.is_cancelled()
            || self.call.as_ref().is_some_and(|call| call.is_cancelled())
    }

    /// The same context granting these scopes (and no others): a tool that
    /// requires a scope runs only for a caller that holds it.
    ///
    /// ```
    /// let ctx = tool_core::ToolContext::new(()).with_scopes(["files:read"]);
    /// assert!(ctx.has_scope("files:read"));
    /// assert!(!ctx.has_scope("files:write"));
    /// ```
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        Arc::make_mut(&mut self.shared).scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The scopes granted to the caller.
    pub fn scopes(&self) -> &[String] {
        &self.shared.scopes
    }

    /// Whether the caller holds `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.shared.scopes.iter().any(|granted| granted == scope)
    }

    /// The context of one call: the same state, scopes and caller's token,
    /// and the call.
    pub(crate) fn for_call(&self, call: Arc<Call>) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
            call_id: None,
            call: Some(call),
        }
    }
}

impl<Ctx: Default> Default for ToolContext<Ctx> {
    fn default() -> Self {
        Self::new(Ctx::default())
    }
}

impl<Ctx> Clone for ToolContext<Ctx> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
            call_id: self.call_id.clone(),
            call: self.call.clone(),
        }
    }
}

impl<Ctx> fmt::Debug for ToolContext<Ctx> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("state", &std::any::type_name::<Ctx>())
            .field("call_id", &self.call_id())
            .field("cancelled", &self.is_cancelled())
            .field("scopes", &self.shared.scopes)
            .finish()
    }
}
