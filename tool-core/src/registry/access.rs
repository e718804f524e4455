//! Which tools a caller may use, asked of a registry: what to show it,
//! before any call.

use std::sync::Arc;

use crate::dispatch::access::{allowed, available};
use crate::registry::tool_registry::ToolRegistry;
use crate::tool::ToolDefinition;
use crate::tool::context::ToolContext;

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// The definitions of the tools `ctx` may call, in registration order:
    /// those it holds every required scope of
    /// ([`ToolContext::with_scopes`]) and whose availability check lets it
    /// ([`TypedTool::check_available`](crate::TypedTool::check_available)).
    /// What to show a caller, so that no model is offered a tool it can
    /// only be refused; calling one anyway gets the same refusal as before.
    ///
    /// ```
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Read a file.
    /// #[tool(read_only, scopes = ["files:read"])]
    /// fn read_file(path: String) -> String { path }
    ///
    /// /// The time.
    /// #[tool(read_only)]
    /// fn now() -> String { "noon".into() }
    ///
    /// let registry = ToolRegistry::new().with(ReadFile).with(Now);
    /// let names = |ctx: &ToolContext| -> Vec<String> {
    ///     registry.tool_definitions_for(ctx).map(|tool| tool.name.clone()).collect()
    /// };
    /// assert_eq!(names(&ToolContext::new(())), ["now"]);
    /// assert_eq!(names(&ToolContext::new(()).with_scopes(["files:read"])), ["read_file", "now"]);
    /// ```
    pub fn tool_definitions_for<'a>(
        &'a self,
        ctx: &'a ToolContext<Ctx>,
    ) -> impl Iterator<Item = &'a Arc<ToolDefinition>> + 'a {
        self.entries
            .iter()
            .zip(&self.definitions)
            .filter(move |(entry, _)| allowed(entry, ctx))
            .map(|(_, definition)| definition)
    }

    /// Whether `ctx` may call the tool of that name: it is registered, its
    /// availability check lets `ctx` call it, and `ctx` holds its scopes.
    /// Approval is not asked: a `Confirm` tool may still be denied.
    pub fn may_call(&self, ctx: &ToolContext<Ctx>, name: &str) -> bool {
        self.entry(name).is_some_and(|entry| allowed(entry, ctx))
    }

    /// Whether the tool of that name is registered and its availability
    /// check lets `ctx` call it, whatever scopes `ctx` holds: what to show
    /// a caller who can be given more scopes when it needs them (an OAuth
    /// client asked for a scope, which it then asks its user for).
    pub fn is_available_to(&self, ctx: &ToolContext<Ctx>, name: &str) -> bool {
        self.entry(name).is_some_and(|entry| available(entry, ctx))
    }
}
