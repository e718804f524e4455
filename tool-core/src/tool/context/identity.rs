//! Whose a call is and what it is called: the caller and the
//! conversation a context names, and the call's id, made from them and
//! the provider's id for the call.

use std::sync::Arc;

use crate::tool::call_id::Scope;
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
    /// [`conversation`](crate::context::ContextBuilder::conversation) for when a call asked
    /// for again is the same call. Outside a registry call, whatever
    /// [`ContextBuilder::call_id`](crate::context::ContextBuilder::call_id) set.
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

    /// What [`ContextBuilder::call_id`](crate::context::ContextBuilder::call_id) sets.
    pub(crate) fn with_call_id(mut self, call_id: impl Into<Arc<str>>) -> Self {
        self.call_id = Some(call_id.into());
        self
    }

    /// What [`ContextBuilder::caller`](crate::context::ContextBuilder::caller) sets.
    pub(crate) fn with_caller(mut self, caller: impl Into<Arc<str>>) -> Self {
        Arc::make_mut(&mut self.shared).scope.caller = Some(caller.into());
        self
    }

    /// The caller the context names ([`caller`](crate::context::ContextBuilder::caller)).
    pub fn caller(&self) -> Option<&str> {
        self.shared.scope.caller()
    }

    /// What [`ContextBuilder::conversation`](crate::context::ContextBuilder::conversation) sets.
    pub(crate) fn with_conversation(mut self, conversation: impl Into<Arc<str>>) -> Self {
        Arc::make_mut(&mut self.shared).scope.conversation = Some(conversation.into());
        self
    }

    /// The conversation the context names
    /// ([`conversation`](crate::context::ContextBuilder::conversation)).
    pub fn conversation(&self) -> Option<&str> {
        self.shared.scope.conversation()
    }

    /// Whose the calls made with this context are.
    pub(crate) fn scope(&self) -> &Scope {
        &self.shared.scope
    }

    /// The id the caller gave the next call ([`call_id`](crate::context::ContextBuilder::call_id)).
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
