//! Which tools a caller may use: what to show it, before any call.

use crate::dispatch::entry::Entry;
use crate::error::tool_error::ToolError;
use crate::tool::context::ToolContext;

/// Whether `ctx` passes a tool's availability check and holds its scopes;
/// a check that panics says no.
pub(crate) fn allowed<Ctx: Send + Sync + 'static>(
    entry: &Entry<Ctx>,
    ctx: &ToolContext<Ctx>,
) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_access(entry, ctx)))
        .is_ok_and(|access| access.is_ok())
}

/// Whether `ctx` passes a tool's availability check, whatever its scopes.
pub(crate) fn available<Ctx: Send + Sync + 'static>(
    entry: &Entry<Ctx>,
    ctx: &ToolContext<Ctx>,
) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_access(entry, ctx)))
        .is_ok_and(|access| !matches!(access, Err(ToolError::Unavailable { .. })))
}

/// Step 5, the part that needs no one's answer: availability and scopes.
pub(crate) fn check_access<Ctx: Send + Sync + 'static>(
    entry: &Entry<Ctx>,
    ctx: &ToolContext<Ctx>,
) -> Result<(), ToolError> {
    let tool = &*entry.name;
    entry
        .runner
        .check_available(ctx)
        .map_err(|reason| ToolError::Unavailable {
            tool: tool.to_owned(),
            reason,
        })?;
    match entry
        .metadata
        .scopes
        .iter()
        .find(|scope| !ctx.has_scope(scope))
    {
        Some(scope) => Err(ToolError::MissingScope {
            tool: tool.to_owned(),
            scope: scope.to_string(),
        }),
        None => Ok(()),
    }
}
