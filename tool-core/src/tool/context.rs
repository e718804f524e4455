//! The context a tool runs in: the application's state plus per-call data.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};

use tokio_util::sync::CancellationToken;

use crate::tool::approval::ApprovalHook;
use crate::tool::approval::DynApprovalHook;
use crate::tool::ask::Asker;
use crate::tool::call_id::Scope;
use crate::tool::client::ClientRequests;
use crate::tool::log::{CallLog, LogLevel, LogListener, trace};
use crate::tool::name::Name;
use crate::tool::progress::{
    CallProgress, Listener, ProgressAmount, ProgressMessage, ProgressSink, ProgressTotal,
};
use crate::tool::shared_call::SharedCall;

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
/// let ctx = ToolContext::builder(App { greeting: "hello".into() }).call_id("call_1").build();
/// assert_eq!(ctx.state().greeting, "hello");
/// assert_eq!(ctx.call_id(), Some("call_1"));
/// assert!(!ctx.is_cancelled());
/// ```
pub struct ToolContext<Ctx = ()> {
    /// What every call of one caller shares, behind one `Arc`: each call
    /// clones the context, and one count is cheaper than three (cloning a
    /// token even takes a lock).
    shared: Arc<ContextParts<Ctx>>,
    /// The id given with [`ContextBuilder::call_id`](crate::context::ContextBuilder::call_id): the provider's,
    /// for the call made with this context.
    call_id: Option<Arc<str>>,
    /// The call being run, inside a registry call: shared from the start,
    /// or made from `lent` when first asked for.
    call: OnceLock<Arc<SharedCall>>,
    /// The call of a context the registry lends a tool for the length of a
    /// call made at once, kept here: most tools never ask for its id, its
    /// token or its progress, nor clone their context, and then it is
    /// never shared (no allocation, no count).
    lent: Option<Lent>,
}

/// A lent context's call, as made from its text.
struct Lent {
    tool: Name,
    text: String,
    sink: Option<Arc<dyn ProgressSink>>,
    /// The id the caller gave the call.
    given: Option<Arc<str>>,
}

struct ContextParts<Ctx> {
    state: Arc<Ctx>,
    scopes: Arc<[String]>,
    /// The caller's token, made when first asked for: most contexts are
    /// never cancelled, and then asking whether one was costs no lock.
    cancellation: OnceLock<CancellationToken>,
    /// Who hears the progress of this caller's calls, besides the
    /// registry's observer.
    progress: Option<Arc<Listener>>,
    /// Who hears this caller's calls' log lines, besides tracing.
    log: Option<Arc<LogListener>>,
    /// Who approves this caller's calls of `Confirm` tools, in place of
    /// the registry's hook.
    approval: Option<Arc<dyn DynApprovalHook<Ctx>>>,
    /// Who answers a tool's questions ([`ContextBuilder::asker`](crate::context::ContextBuilder::asker)).
    asker: Option<Arc<dyn Asker>>,
    /// The client that called, for sampling and roots
    /// ([`ContextBuilder::client`](crate::context::ContextBuilder::client)).
    client: Option<Arc<dyn ClientRequests>>,
    /// Whose the calls are: the caller and the conversation.
    scope: Scope,
}

/// A caller's token, as the registry watches it while a call waits to
/// start.
#[derive(Clone, Copy)]
pub(crate) struct CallerToken<'a>(pub(crate) &'a OnceLock<CancellationToken>);

impl CallerToken<'_> {
    /// Whether the caller has cancelled: no lock taken while no one has
    /// asked for the token, when no one can have cancelled it.
    pub(crate) fn cancelled(self) -> bool {
        self.0.get().is_some_and(CancellationToken::is_cancelled)
    }

    /// The token, made if no one had asked for it.
    pub(crate) fn token(&self) -> &CancellationToken {
        self.0.get_or_init(CancellationToken::new)
    }
}

impl<Ctx> ContextParts<Ctx> {
    fn token(&self) -> &CancellationToken {
        self.cancellation.get_or_init(CancellationToken::new)
    }

    /// A copy with `token` in place of this one's.
    fn with_token(&self, token: CancellationToken) -> Self {
        Self {
            state: Arc::clone(&self.state),
            scopes: Arc::clone(&self.scopes),
            cancellation: OnceLock::from(token),
            progress: self.progress.clone(),
            log: self.log.clone(),
            approval: self.approval.clone(),
            asker: self.asker.clone(),
            client: self.client.clone(),
            scope: self.scope.clone(),
        }
    }
}

impl<Ctx> Clone for ContextParts<Ctx> {
    fn clone(&self) -> Self {
        // Made now if it was not, so that the two share it.
        self.with_token(self.token().clone())
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
            shared: Arc::new(ContextParts {
                state,
                scopes: Arc::from([]),
                cancellation: OnceLock::new(),
                progress: None,
                log: None,
                approval: None,
                asker: None,
                client: None,
                scope: Scope::default(),
            }),
            call_id: None,
            call: OnceLock::new(),
            lent: None,
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

    /// The token that is cancelled when the call should stop: when its time
    /// runs out, or when the caller cancels its own. A long-running tool
    /// selects on [`CancellationToken::cancelled`] or polls
    /// [`ToolContext::is_cancelled`].
    pub fn cancellation(&self) -> &CancellationToken {
        match self.shared_call() {
            Some(call) => call.token(self.shared.token()),
            None => self.shared.token(),
        }
    }

    /// What [`ContextBuilder::approval`](crate::context::ContextBuilder::approval) sets.
    pub(crate) fn with_approval(mut self, hook: impl ApprovalHook<Ctx>) -> Self {
        Arc::make_mut(&mut self.shared).approval = Some(Arc::new(hook));
        self
    }

    /// The context's own approval hook.
    pub(crate) fn approval(&self) -> Option<&dyn DynApprovalHook<Ctx>> {
        self.shared.approval.as_deref()
    }

    /// The caller's own token, not the call's: what the registry watches
    /// while a call waits to start.
    pub(crate) fn caller_token(&self) -> CallerToken<'_> {
        CallerToken(&self.shared.cancellation)
    }

    /// Whether the caller has cancelled; see [`CallerToken::cancelled`].
    pub(crate) fn caller_cancelled(&self) -> bool {
        self.caller_token().cancelled()
    }

    /// What [`ContextBuilder::cancellation`](crate::context::ContextBuilder::cancellation) sets.
    pub(crate) fn with_cancellation(mut self, token: CancellationToken) -> Self {
        match Arc::get_mut(&mut self.shared) {
            Some(parts) => parts.cancellation = OnceLock::from(token),
            // Shared (a server's context, given a request's token): copied
            // with the new token, not a clone of the old one first, which
            // takes a lock every context of the server's shares.
            None => self.shared = Arc::new(self.shared.with_token(token)),
        }
        self
    }

    /// Whether the call has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        // A lent call no one has shared: no one can have cancelled it.
        self.caller_cancelled() || self.call.get().is_some_and(|call| call.is_cancelled())
    }

    /// Reports how far the call has got: `done` out of `total`, when the
    /// tool knows it, and what it is doing, for people. What MCP sends as
    /// `notifications/progress`.
    ///
    /// `done` is any integer or float ([`ProgressAmount`]); `total` one
    /// too, or `None`, or `Some` of an `f64` ([`ProgressTotal`]); the
    /// message a `&str`, a `String` such as `format!(..)`, or `None`
    /// ([`ProgressMessage`]):
    ///
    /// ```
    /// # use tool_core::ToolContext;
    /// # let ctx = ToolContext::new(());
    /// # let files = vec!["a.md".to_owned()];
    /// ctx.progress(1, 3, format!("step {} of {}", 1, 3)); // integers, a `String`
    /// ctx.progress(2u64, None, "no total");               // a `u64`, a `&str`
    /// ctx.progress(0.5, Some(2.0), None);                 // floats, no message
    /// ctx.progress(files.len(), files.len(), &files[0]);   // a `usize`, a `&String`
    /// let note: Option<String> = None;
    /// ctx.progress(4, None, note.as_deref());             // an `Option<String>`
    /// ```
    ///
    /// Inside a call made through a [`ToolRegistry`](crate::ToolRegistry),
    /// the report reaches the registry's observer
    /// ([`CallObserver::call_progress`](crate::observe::CallObserver::call_progress),
    /// with the call's id) and a `tracing` event at level DEBUG, `"tool
    /// progress"`, with the fields `done`, `total` and `progress_message`,
    /// in the call's `tool_call` span, and the context's own listener
    /// ([`ContextBuilder::progress_listener`](crate::context::ContextBuilder::progress_listener)). So does a report of a `long_running`
    /// call, and one from a task the tool hands a clone of its context to
    /// (its tracing event is then in whatever span that task runs in).
    ///
    /// Reports must advance, as MCP requires: one whose `done` is not more
    /// than the last one sent for the call, or is not a finite number, is
    /// dropped; a `total` that is not finite is sent as none. A context
    /// that is not a registry call's sends nothing: one made with
    /// [`ToolContext::new`] and used directly.
    /// With no observer and the tracing event disabled, a report allocates
    /// and formats nothing.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Copy the files.
    /// #[tool]
    /// async fn copy_files(ctx: &ToolContext, files: Vec<String>) -> String {
    ///     ctx.progress(0.0, None, "counting");
    ///     for (done, file) in files.iter().enumerate() {
    ///         // ... copy it ...
    ///         ctx.progress((done + 1) as f64, Some(files.len() as f64), file.as_str());
    ///     }
    ///     ctx.progress(files.len() as f64, None, None); // not past the last: dropped
    ///     format!("copied {}", files.len())
    /// }
    ///
    /// let registry = ToolRegistry::new().with(CopyFiles);
    /// let ctx = ToolContext::new(());
    /// let result = registry.call(&ctx, "copy_files", json!({"files": ["a", "b"]})).await;
    /// assert_eq!(result.model_text(), "copied 2");
    ///
    /// // Outside a registry call, a report goes nowhere.
    /// ctx.progress(1.0, Some(2.0), "nobody hears this");
    /// # });
    /// ```
    pub fn progress<'m>(
        &self,
        done: impl ProgressAmount,
        total: impl ProgressTotal,
        message: impl ProgressMessage<'m>,
    ) {
        // Outside a call, nothing is converted, not even a message's text.
        if let Some(call) = self.shared_call() {
            let message = message.into_message();
            self.report(
                call,
                done.into_f64(),
                total.into_total(),
                message.as_deref(),
            );
        }
    }

    /// Whether a [`progress`](Self::progress) report of this call reaches
    /// anyone: the registry's observer or the context's listener. A tool
    /// whose reports cost something to gather (a mounted MCP server's,
    /// relayed) can skip them when no one hears.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    ///
    /// /// Say whether anyone hears this call's progress.
    /// #[tool]
    /// fn heard(ctx: &ToolContext) -> bool {
    ///     ctx.progress_heard()
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(Heard);
    /// let quiet = ToolContext::new(());
    /// assert_eq!(registry.call(&quiet, "heard", json!({})).await.model_text(), "false");
    /// let listened = ToolContext::builder(()).progress_listener(|_| {}).build();
    /// assert_eq!(registry.call(&listened, "heard", json!({})).await.model_text(), "true");
    /// # });
    /// ```
    pub fn progress_heard(&self) -> bool {
        let sink = match (self.call.get(), &self.lent) {
            (Some(call), _) => call.progress.has_sink(),
            (None, Some(lent)) => lent.sink.is_some(),
            (None, None) => return false,
        };
        sink || self.shared.progress.is_some()
    }

    /// [`progress`](Self::progress) once its arguments are plain: compiled
    /// once, whatever types the tools pass.
    fn report(&self, call: &SharedCall, done: f64, total: Option<f64>, message: Option<&str>) {
        let listener = self.shared.progress.as_deref();
        call.progress
            .report(done, total, message, listener, || (&call.tool, call.id()));
    }

    /// Writes a line to the call's log, at `level`: to `tracing` (at
    /// DEBUG for `debug`, INFO for `info` and `notice`, WARN for
    /// `warning`, ERROR above, with the fields `tool` and `log_level`),
    /// and to the context's own listener
    /// ([`ContextBuilder::log_listener`](crate::context::ContextBuilder::log_listener)):
    /// served over MCP, to the client as `notifications/message`, when it
    /// asked for lines of that level.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::{Arc, Mutex};
    /// use serde_json::json;
    /// use tool_core::observe::LogLevel;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Import the rows.
    /// #[tool]
    /// async fn import(ctx: &ToolContext, rows: Vec<String>) -> usize {
    ///     ctx.log(LogLevel::Info, format!("importing {} rows", rows.len()));
    ///     if rows.is_empty() {
    ///         ctx.log(LogLevel::Warning, "nothing to import");
    ///     }
    ///     rows.len()
    /// }
    ///
    /// let lines = Arc::new(Mutex::new(Vec::new()));
    /// let ctx = ToolContext::builder(())
    ///     .log_listener({
    ///         let lines = Arc::clone(&lines);
    ///         move |log| lines.lock().unwrap().push(format!("{} {}", log.level, log.message))
    ///     })
    ///     .build();
    /// let registry = ToolRegistry::new().with(Import);
    /// registry.call(&ctx, "import", json!({"rows": []})).await;
    /// assert_eq!(*lines.lock().unwrap(), ["info importing 0 rows", "warning nothing to import"]);
    /// # });
    /// ```
    pub fn log<'m>(&self, level: LogLevel, message: impl Into<Cow<'m, str>>) {
        self.write_log(level, &message.into());
    }

    /// [`log`](Self::log) once its message is text: compiled once.
    fn write_log(&self, level: LogLevel, message: &str) {
        let tool = match (&self.lent, self.call.get()) {
            (Some(lent), _) => Some(&*lent.tool),
            (None, Some(call)) => Some(&*call.tool),
            (None, None) => None,
        };
        trace(tool, level, message);
        if let Some(listener) = &self.shared.log {
            listener(&CallLog {
                tool,
                level,
                message,
            });
        }
    }

    /// What [`ContextBuilder::log_listener`](crate::context::ContextBuilder::log_listener) sets.
    pub(crate) fn with_log_listener(
        mut self,
        listener: impl Fn(&CallLog<'_>) + Send + Sync + 'static,
    ) -> Self {
        Arc::make_mut(&mut self.shared).log = Some(Arc::new(listener));
        self
    }

    /// What [`ContextBuilder::progress_listener`](crate::context::ContextBuilder::progress_listener) sets.
    pub(crate) fn with_progress_listener(
        mut self,
        listener: impl Fn(&CallProgress<'_>) + Send + Sync + 'static,
    ) -> Self {
        Arc::make_mut(&mut self.shared).progress = Some(Arc::new(listener));
        self
    }

    /// What [`ContextBuilder::scopes`](crate::context::ContextBuilder::scopes) sets.
    pub(crate) fn with_scopes<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
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
    /// Who answers the tool's questions, if the context names someone.
    #[cfg(feature = "schemars")]
    pub(crate) fn asker(&self) -> Option<&Arc<dyn Asker>> {
        self.shared.asker.as_ref()
    }

    /// The client that called, if the context names one.
    pub(crate) fn client(&self) -> Option<&Arc<dyn ClientRequests>> {
        self.shared.client.as_ref()
    }

    /// Names the client that called.
    pub(crate) fn set_client(&mut self, client: Arc<dyn ClientRequests>) {
        Arc::make_mut(&mut self.shared).client = Some(client);
    }

    /// Names who answers the tool's questions.
    pub(crate) fn set_asker(&mut self, asker: Arc<dyn Asker>) {
        Arc::make_mut(&mut self.shared).asker = Some(asker);
    }

    pub(crate) fn for_call(&self, call: Arc<SharedCall>) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
            call_id: None,
            call: OnceLock::from(call),
            lent: None,
        }
    }

    /// The context a call made at once lends its tool: the call of `tool`
    /// on the arguments' `text`, made a shared [`SharedCall`] only if asked for.
    pub(crate) fn for_lent_call(
        &self,
        tool: Name,
        text: String,
        sink: Option<Arc<dyn ProgressSink>>,
    ) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
            call_id: None,
            call: OnceLock::new(),
            lent: Some(Lent {
                tool,
                text,
                sink,
                given: self.call_id.clone(),
            }),
        }
    }

    /// The call this context was made for, if any: a lent one shared
    /// now (its text copied), if it was not.
    pub(crate) fn shared_call(&self) -> Option<&Arc<SharedCall>> {
        match &self.lent {
            None => self.call.get(),
            Some(lent) => Some(self.call.get_or_init(|| {
                Arc::new(
                    SharedCall::from_text(lent.tool.clone(), lent.text.clone(), lent.sink.clone())
                        .of(self.shared.scope.clone(), lent.given.clone()),
                )
            })),
        }
    }

    /// The text of the arguments of the call this context was made for,
    /// when they were read from it; empty otherwise.
    pub(crate) fn call_text(&self) -> &str {
        match (&self.lent, self.call.get()) {
            (Some(lent), _) => &lent.text,
            (None, Some(call)) => call.text(),
            (None, None) => "",
        }
    }

    /// That text, taken back (copied only if the call is still shared).
    pub(crate) fn into_call_text(self) -> String {
        match (self.lent, self.call.into_inner()) {
            (Some(lent), _) => lent.text,
            (None, Some(call)) => SharedCall::into_text(call),
            (None, None) => String::new(),
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
            // A lent call is shared with the clone, which may outlive the
            // call made at once.
            call: self
                .shared_call()
                .cloned()
                .map_or_else(OnceLock::new, OnceLock::from),
            lent: None,
        }
    }
}

impl<Ctx> fmt::Debug for ToolContext<Ctx> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("state", &std::any::type_name::<Ctx>())
            .field("call_id", &self.call_id())
            .field("caller", &self.caller())
            .field("conversation", &self.conversation())
            .field("cancelled", &self.is_cancelled())
            .field("scopes", &self.shared.scopes)
            .finish()
    }
}

pub(crate) mod identity;
#[cfg(test)]
mod tests;
