//! A context set up for the calls one caller makes: who it is, in which
//! conversation, what it may use, and who answers for it.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::tool::approval::ApprovalHook;
use crate::tool::ask::Asker;
use crate::tool::ask::question::Answer;
use crate::tool::client::ClientRequests;
use crate::tool::context::ToolContext;
use crate::tool::log::CallLog;
use crate::tool::progress::CallProgress;

/// A [`ToolContext`] being set up by whoever makes calls with it (the
/// application, an MCP server for each request): whose calls they are,
/// what the caller may use, and who answers for it.
/// [`build`](ContextBuilder::build) gives the context; what a tool reads
/// of it is the context's own.
///
/// ```
/// use tool_core::context::CancellationToken;
/// use tool_core::ToolContext;
///
/// let token = CancellationToken::new();
/// let ctx = ToolContext::builder(())
///     .caller("user:7")
///     .conversation("conversation:42")
///     .scopes(["notes:read"])
///     .cancellation(token.clone())
///     .build();
/// assert_eq!(ctx.caller(), Some("user:7"));
/// assert!(ctx.has_scope("notes:read"));
/// token.cancel();
/// assert!(ctx.is_cancelled());
/// ```
#[must_use = "a builder does nothing until `build` gives the context"]
pub struct ContextBuilder<Ctx = ()> {
    context: ToolContext<Ctx>,
}

impl<Ctx> std::fmt::Debug for ContextBuilder<Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextBuilder")
            .field("context", &self.context)
            .finish()
    }
}

/// A context set up again: all it holds kept, anything may be set anew
/// before it is [built](ContextBuilder::build) (a request's caller on a
/// server's base context, say).
impl<Ctx> From<ToolContext<Ctx>> for ContextBuilder<Ctx> {
    fn from(context: ToolContext<Ctx>) -> Self {
        Self { context }
    }
}

impl<Ctx> ToolContext<Ctx> {
    /// A context for `state` to set up: its caller, conversation, scopes,
    /// cancellation and who answers for it, then
    /// [`build`](ContextBuilder::build).
    pub fn builder(state: Ctx) -> ContextBuilder<Ctx> {
        ContextBuilder {
            context: ToolContext::new(state),
        }
    }
}

impl<Ctx> ContextBuilder<Ctx> {
    /// The context, set up.
    #[must_use]
    pub fn build(self) -> ToolContext<Ctx> {
        self.context
    }

    /// The same context naming who makes the calls: a user, a tenant and
    /// user, an MCP client's token, whatever key the application knows
    /// its callers by. A call is its caller's: what waits of it (a call
    /// parked for approval, a tool's question) is listed and decided only
    /// with a context of the same caller
    /// ([`Approvals::parked`](crate::registry::Approvals::parked),
    /// [`Approvals::decide`](crate::registry::Approvals::decide)), in this
    /// process or any other sharing the registry's store. A context that
    /// names none is its own caller, "anyone", apart from every named one.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, Decision, DecisionError};
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Send money to an account.
    /// #[tool(tier = Confirm)]
    /// fn send_money(to: String, cents: u64) -> String {
    ///     format!("sent {cents} cents to {to}")
    /// }
    ///
    /// /// Leaves every decision to a person, later.
    /// struct AskLater;
    ///
    /// impl ApprovalHook<()> for AskLater {
    ///     async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
    ///         Approval::Park
    ///     }
    /// }
    ///
    /// let registry = ToolRegistry::builder().with(SendMoney).approval(AskLater).build();
    /// let ada = ToolContext::builder(()).caller("ada").build();
    /// let bob = ToolContext::builder(()).caller("bob").build();
    /// let args = json!({"to": "ada", "cents": 5000});
    /// let parked = registry.call(&ada, "send_money", args).await;
    /// let id = parked.pending_call_id().unwrap();
    ///
    /// // Bob can neither see nor decide Ada's call.
    /// assert!(registry.approvals().parked(&bob).await.unwrap().is_empty());
    /// assert!(matches!(
    ///     registry.approvals().decide(&bob, id, Decision::Approve).await,
    ///     Err(DecisionError::UnknownCall { .. })
    /// ));
    /// assert_eq!(registry.approvals().parked(&ada).await.unwrap()[0].call_id(), id);
    /// let result = registry.approvals().decide(&ada, id, Decision::Approve).await.unwrap();
    /// assert_eq!(result.model_text(), "sent 5000 cents to ada");
    /// # });
    /// ```
    pub fn caller(mut self, caller: impl Into<Arc<str>>) -> Self {
        self.context = self.context.with_caller(caller);
        self
    }

    /// The same context naming the conversation (a chat, a session, a
    /// thread) its calls belong to: the scope in which a call asked for
    /// again is the same call. Within a named conversation, the call a
    /// provider's response names (its `tool_use` id, `call_id`, ...: what
    /// [`Provider::respond`](crate::provider::Provider::respond) passes as
    /// [`call_id`](ContextBuilder::call_id)) has the same registry id each
    /// time it is asked for with the same arguments, by this caller. What
    /// waits of it is then found again: a `long_running` tool's call, or
    /// one parked for approval, asked for again (a retried request, another
    /// replica that picks up the same turn) waits for the first run or
    /// decision, and its result, instead of running the tool again, for as
    /// long as its record is kept (in the registry's
    /// [store](crate::registry::RegistryBuilder::store); until its result is taken,
    /// and a few seconds after). A call that leaves nothing waiting (a tool
    /// that ends at once) runs each time it is asked for. Without a
    /// conversation, or for a call the provider gave no id (Gemini's often
    /// have none), every call is one of its own. Two conversations, and
    /// two callers, never share a call.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::{tool, ToolContext, ToolRegistry, ToolResult};
    ///
    /// /// Ask the user to pick a file; the client shows the dialog.
    /// #[tool(long_running)]
    /// fn pick_file() -> ToolResult {
    ///     ToolResult::deferred()
    /// }
    ///
    /// let registry = ToolRegistry::new().with(PickFile);
    /// let first = ToolContext::builder(()).conversation("chat:1").call_id("toolu_1").build();
    /// let a = registry.call(&first, "pick_file", json!({})).await;
    /// // The same request again: the same call, still waiting.
    /// let again = registry.call(&first, "pick_file", json!({})).await;
    /// assert_eq!(a.pending_call_id(), again.pending_call_id());
    /// // Another conversation whose provider reused the id: another call.
    /// let other = ToolContext::builder(()).conversation("chat:2").call_id("toolu_1").build();
    /// let b = registry.call(&other, "pick_file", json!({})).await;
    /// assert_ne!(a.pending_call_id(), b.pending_call_id());
    /// # });
    /// ```
    pub fn conversation(mut self, conversation: impl Into<Arc<str>>) -> Self {
        self.context = self.context.with_conversation(conversation);
        self
    }

    /// The same context with the call id set: for a call made through a
    /// registry with it, the provider's id for the call (what
    /// [`Provider::respond`](crate::provider::Provider::respond) sets for
    /// each call of a response), from which the registry makes the call's
    /// own id in a named [conversation](ContextBuilder::conversation).
    pub fn call_id(mut self, call_id: impl Into<Arc<str>>) -> Self {
        self.context = self.context.with_call_id(call_id);
        self
    }

    /// The same context granting these scopes (and no others): a tool that
    /// requires a scope runs only for a caller that holds it.
    ///
    /// ```
    /// let ctx = tool_core::ToolContext::builder(()).scopes(["files:read"]).build();
    /// assert!(ctx.has_scope("files:read"));
    /// assert!(!ctx.has_scope("files:write"));
    /// ```
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.context = self.context.with_scopes(scopes);
        self
    }

    /// The same context with the given cancellation token.
    pub fn cancellation(mut self, token: CancellationToken) -> Self {
        self.context = self.context.with_cancellation(token);
        self
    }

    /// The same context with a listener that hears the progress of every
    /// call made with it, as the registry's observer does
    /// ([`CallProgress`], under the same rules), and after it: what an MCP
    /// server sets on the context of each `tools/call` request, to send
    /// that request's `notifications/progress`. Replaces any listener set
    /// before.
    ///
    /// The listener runs on the tool's thread while the report is made:
    /// keep it short (send the event down a channel, say).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::{Arc, Mutex};
    /// use serde_json::json;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Index the documents.
    /// #[tool]
    /// async fn index(ctx: &ToolContext, documents: Vec<String>) -> usize {
    ///     for (done, document) in documents.iter().enumerate() {
    ///         ctx.progress((done + 1) as f64, Some(documents.len() as f64), document.as_str());
    ///     }
    ///     documents.len()
    /// }
    ///
    /// let registry = ToolRegistry::new().with(Index);
    /// let heard = Arc::new(Mutex::new(Vec::new()));
    /// let ctx = ToolContext::builder(()).progress_listener({
    ///     let heard = Arc::clone(&heard);
    ///     move |event| {
    ///         let line = format!("{} {}/{:?} {:?}", event.tool, event.done, event.total, event.message);
    ///         heard.lock().unwrap().push(line);
    ///     }
    /// }).build();
    /// registry.call(&ctx, "index", json!({"documents": ["a.md", "b.md"]})).await;
    /// assert_eq!(
    ///     *heard.lock().unwrap(),
    ///     ["index 1/Some(2.0) Some(\"a.md\")", "index 2/Some(2.0) Some(\"b.md\")"]
    /// );
    /// # });
    /// ```
    pub fn progress_listener(
        mut self,
        listener: impl Fn(&CallProgress<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.context = self.context.with_progress_listener(listener);
        self
    }

    /// The same context with `client` as the client that called: what
    /// [`ToolContext::sample`] and [`ToolContext::roots`] ask. `tool-mcp`
    /// names the MCP client of each request.
    pub fn client(mut self, client: impl ClientRequests) -> Self {
        self.context.set_client(Arc::new(client));
        self
    }

    /// The same context with a listener that hears every line this
    /// caller's calls write with [`ToolContext::log`], besides `tracing`:
    /// an MCP server sets one on each request's context that sends
    /// `notifications/message` at the levels the client asked for.
    /// Replaces any listener set before.
    ///
    /// ```
    /// use tool_core::observe::LogLevel;
    /// use tool_core::ToolContext;
    ///
    /// let ctx = ToolContext::builder(())
    ///     .log_listener(|log| {
    ///         if log.level >= LogLevel::Warning {
    ///             eprintln!("{}: {}", log.level, log.message);
    ///         }
    ///     })
    ///     .build();
    /// ctx.log(LogLevel::Error, "disk full");
    /// ```
    pub fn log_listener(mut self, listener: impl Fn(&CallLog<'_>) + Send + Sync + 'static) -> Self {
        self.context = self.context.with_log_listener(listener);
        self
    }

    /// The same context with an approval hook of its own: asked about this
    /// caller's calls of [`Confirm`](crate::policy::ToolTier::Confirm) tools in
    /// place of the registry's hook
    /// ([`RegistryBuilder::approval`](crate::registry::RegistryBuilder::approval)).
    /// For the person at one client: a chat window's dialog, or, in
    /// `tool-mcp`, a question to the MCP client's user.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    ///
    /// /// Delete a note.
    /// #[tool(tier = Confirm)]
    /// fn delete_note(id: u32) -> String { format!("deleted {id}") }
    ///
    /// /// What this session's user answered in advance.
    /// struct Answered(bool);
    ///
    /// impl ApprovalHook<()> for Answered {
    ///     async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
    ///         if self.0 { Approval::Approve } else { Approval::deny("the user said no") }
    ///     }
    /// }
    ///
    /// let registry = ToolRegistry::new().with(DeleteNote);
    /// let yes = ToolContext::builder(()).approval(Answered(true)).build();
    /// let no = ToolContext::builder(()).approval(Answered(false)).build();
    /// let args = json!({"id": 7});
    /// assert_eq!(registry.call(&yes, "delete_note", args.clone()).await.model_text(), "deleted 7");
    /// assert_eq!(
    ///     registry.call(&no, "delete_note", args).await.model_text(),
    ///     "the call to tool `delete_note` was denied: the user said no",
    /// );
    /// # });
    /// ```
    pub fn approval(mut self, hook: impl ApprovalHook<Ctx>) -> Self {
        self.context = self.context.with_approval(hook);
        self
    }

    /// The same context putting the tool's questions to `asker`.
    pub fn asker(mut self, asker: impl Asker) -> Self {
        self.context = self.context.with_asker(asker);
        self
    }

    /// The same context with no one to ask: every question ends at once in
    /// [`ElicitError::Unsupported`](crate::elicit::ElicitError::Unsupported) with `reason`, which the model reads.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # use schemars::JsonSchema; use serde::Deserialize;
    /// use tool_core::elicit::{Elicit, ElicitError};
    /// use tool_core::ToolContext;
    /// # #[derive(Deserialize, JsonSchema, Elicit)] struct Yes { /** Sure? */ sure: bool }
    ///
    /// let ctx = ToolContext::builder(()).no_one_to_ask("this is a batch job").build();
    /// let Err(error) = ctx.elicit::<Yes>("Sure?").await else { panic!("asked") };
    /// assert_eq!(error.to_string(), "the person could not be asked: this is a batch job");
    /// # });
    /// ```
    pub fn no_one_to_ask(mut self, reason: impl Into<String>) -> Self {
        self.context = self.context.with_no_one_to_ask(reason);
        self
    }

    /// The same context answering the tool's questions with `answers`, one
    /// a question, in order: to test a tool's function without a person.
    pub fn answers(mut self, answers: impl IntoIterator<Item = Answer>) -> Self {
        self.context = self.context.with_answers(answers);
        self
    }
}
