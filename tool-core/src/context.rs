//! The context a tool runs in: the application's state plus per-call data.

use std::fmt;
use std::sync::Arc;

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
    state: Arc<Ctx>,
    call_id: Option<Arc<str>>,
    cancellation: CancellationToken,
    scopes: Arc<[String]>,
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
            state,
            call_id: None,
            cancellation: CancellationToken::new(),
            scopes: Arc::from([]),
        }
    }

    /// The application's state.
    pub fn state(&self) -> &Ctx {
        &self.state
    }

    /// The application's state as the shared pointer it lives in, for a tool
    /// that hands it to a task of its own.
    pub fn state_arc(&self) -> &Arc<Ctx> {
        &self.state
    }

    /// The id of the call being run. Inside a call made through a
    /// [`ToolRegistry`](crate::ToolRegistry) it is the call's stable id
    /// ([`call_id`](crate::call_id())); elsewhere, whatever
    /// [`ToolContext::with_call_id`] set.
    pub fn call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }

    /// The same context with the call id set.
    #[must_use]
    pub fn with_call_id(mut self, call_id: impl Into<Arc<str>>) -> Self {
        self.call_id = Some(call_id.into());
        self
    }

    /// The token that is cancelled when the call should stop: a long-running
    /// tool selects on [`CancellationToken::cancelled`] or polls
    /// [`ToolContext::is_cancelled`].
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancellation
    }

    /// The same context with the given cancellation token.
    #[must_use]
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = token;
        self
    }

    /// Whether the call has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
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
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The scopes granted to the caller.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether the caller holds `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// The context of one call: the same state and scopes, the call's id,
    /// and a token cancelled with this context's or on its own.
    pub(crate) fn for_call(&self, call_id: Arc<str>) -> Self {
        Self {
            state: Arc::clone(&self.state),
            call_id: Some(call_id),
            cancellation: self.cancellation.child_token(),
            scopes: Arc::clone(&self.scopes),
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
            state: Arc::clone(&self.state),
            call_id: self.call_id.clone(),
            cancellation: self.cancellation.clone(),
            scopes: Arc::clone(&self.scopes),
        }
    }
}

impl<Ctx> fmt::Debug for ToolContext<Ctx> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("state", &std::any::type_name::<Ctx>())
            .field("call_id", &self.call_id)
            .field("cancelled", &self.is_cancelled())
            .field("scopes", &self.scopes)
            .finish()
    }
}
