//! Whose a call is and what it is called: the caller and the
//! conversation a context names, and the call's id, made from them and
//! the provider's id for the call.

use std::sync::Arc;

use crate::context::call_id::Scope;
use crate::tool::context::ToolContext;

impl<Ctx> ToolContext<Ctx> {
    /// The id of the call being run. Inside a call made through a
    /// [`ToolRegistry`](crate::ToolRegistry) it is the registry's id of the
    /// call: the one its result is pending under
    /// ([`ToolResult::pending_call_id`](crate::ToolResult::pending_call_id)),
    /// to [deliver](crate::registry::Pending::deliver) it, decide on it or
    /// wait for it, and the one the observer's events and the `tool_call`
    /// tracing span carry. Each call has one of its own, even when another
    /// asks for the same tool with the same arguments; see
    /// [`with_conversation`](Self::with_conversation) for when a call asked
    /// for again is the same call. Outside a registry call, whatever
    /// [`ToolContext::with_call_id`] set.
    pub fn call_id(&self) -> Option<&str> {
        match self.shared_call() {
            Some(call) => Some(call.id()),
            None => self.call_id.as_deref(),
        }
    }

    /// The name of the tool being run, as the registry holds it: the name
    /// the model called it by, after a [`Compose`](crate::toolset::Compose)
    /// prefix or rename, which may not be the tool's own
    /// ([`Tool::name`](crate::Tool::name)). What a tool's own texts for the
    /// model should name it by. `None` outside a registry call.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::toolset::Compose;
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    ///
    /// /// Say which tool was called.
    /// #[tool]
    /// fn whoami(ctx: &ToolContext) -> String {
    ///     format!("called as {}", ctx.tool_name().unwrap_or("?"))
    /// }
    ///
    /// let registry = Compose::new().prefix("me_").apply(ToolRegistry::new().with(Whoami)).unwrap();
    /// let ctx = ToolContext::new(());
    /// let result = registry.call(&ctx, "me_whoami", json!({})).await;
    /// assert_eq!(result.model_text(), "called as me_whoami");
    /// assert_eq!(ctx.tool_name(), None);
    /// # });
    /// ```
    pub fn tool_name(&self) -> Option<&str> {
        match (&self.lent, self.call.get()) {
            (Some(lent), _) => Some(&lent.tool),
            (None, Some(call)) => Some(&call.tool),
            (None, None) => None,
        }
    }

    /// The same context with the call id set: for a call made through a
    /// registry with it, the provider's id for the call (what
    /// [`Provider::respond`](crate::provider::Provider::respond) sets for
    /// each call of a response), from which the registry makes the call's
    /// own id in a named [conversation](Self::with_conversation).
    #[must_use]
    pub fn with_call_id(mut self, call_id: impl Into<Arc<str>>) -> Self {
        self.call_id = Some(call_id.into());
        self
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
    /// let ada = ToolContext::new(()).with_caller("ada");
    /// let bob = ToolContext::new(()).with_caller("bob");
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
    #[must_use]
    pub fn with_caller(mut self, caller: impl Into<Arc<str>>) -> Self {
        Arc::make_mut(&mut self.shared).scope.caller = Some(caller.into());
        self
    }

    /// The caller the context names ([`with_caller`](Self::with_caller)).
    pub fn caller(&self) -> Option<&str> {
        self.shared.scope.caller()
    }

    /// The same context naming the conversation (a chat, a session, a
    /// thread) its calls belong to: the scope in which a call asked for
    /// again is the same call. Within a named conversation, the call a
    /// provider's response names (its `tool_use` id, `call_id`, ...: what
    /// [`Provider::respond`](crate::provider::Provider::respond) passes as
    /// [`with_call_id`](Self::with_call_id)) has the same registry id each
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
    /// let first = ToolContext::new(()).with_conversation("chat:1").with_call_id("toolu_1");
    /// let a = registry.call(&first, "pick_file", json!({})).await;
    /// // The same request again: the same call, still waiting.
    /// let again = registry.call(&first, "pick_file", json!({})).await;
    /// assert_eq!(a.pending_call_id(), again.pending_call_id());
    /// // Another conversation whose provider reused the id: another call.
    /// let other = ToolContext::new(()).with_conversation("chat:2").with_call_id("toolu_1");
    /// let b = registry.call(&other, "pick_file", json!({})).await;
    /// assert_ne!(a.pending_call_id(), b.pending_call_id());
    /// # });
    /// ```
    #[must_use]
    pub fn with_conversation(mut self, conversation: impl Into<Arc<str>>) -> Self {
        Arc::make_mut(&mut self.shared).scope.conversation = Some(conversation.into());
        self
    }

    /// The conversation the context names
    /// ([`with_conversation`](Self::with_conversation)).
    pub fn conversation(&self) -> Option<&str> {
        self.shared.scope.conversation()
    }

    /// Whose the calls made with this context are.
    pub(crate) fn scope(&self) -> &Scope {
        &self.shared.scope
    }

    /// The id the caller gave the next call ([`with_call_id`](Self::with_call_id)).
    pub(crate) fn given_call_id(&self) -> Option<&str> {
        self.call_id.as_deref()
    }

    /// The same context with no call id given.
    pub(crate) fn without_call_id(mut self) -> Self {
        self.call_id = None;
        self
    }

    /// The same, shared.
    pub(crate) fn given_call_id_shared(&self) -> Option<Arc<str>> {
        self.call_id.clone()
    }
}
