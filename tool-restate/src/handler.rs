//! One invocation of a tool's handler: the tool called through the
//! registry, as a journaled step.

use std::sync::Arc;

use restate_sdk::context::RunFuture;
use restate_sdk::errors::TerminalError;
use restate_sdk::prelude::{Context, ContextSideEffects, Json};
use serde_json::Value;
use tool_core::context::ContextBuilder;
use tool_core::{ToolContext, ToolRegistry, ToolResult};

use crate::cancel::{CANCELLED, cancelled_result, watch, watched};
use crate::invocation::Invocation;
use crate::timeout::{self, watch_window};

/// What makes a tool's context for an invocation.
pub(crate) type ContextFn<Ctx> = dyn Fn(&Invocation<'_>) -> ToolContext<Ctx> + Send + Sync;

/// Calls `tool` with `arguments` through the registry, so that its
/// validation, policy and errors apply (Restate checks no argument against
/// the schema it publishes), inside `ctx.run`: the result is journaled, and
/// an attempt that finds it there (a retry after a crash, a replay) returns
/// it without running the tool again.
///
/// A tool's error is a result like any other, for the model to read: the
/// invocation succeeds with it, and Restate retries nothing. An invocation
/// cancelled while the tool runs cancels the tool's token
/// ([`ToolContext::cancellation`], a child of the one the context function
/// gave), and ends, once the tool does, as Restate's cancelled invocations
/// end: failed, with code 409, and a message that says what the tool ended
/// with (journaled as the step's end, so a replay ends the same). A
/// `long_running` tool's call is waited for to its end, in the step.
pub(crate) async fn call_tool<Ctx: Send + Sync + 'static>(
    restate: &Context<'_>,
    registry: &Arc<ToolRegistry<Ctx>>,
    context: &Arc<ContextFn<Ctx>>,
    tool: &str,
    arguments: Value,
) -> Result<Json<ToolResult>, TerminalError> {
    let invocation = Invocation::new(restate.invocation_id(), tool, restate.headers());
    let ctx = keyed(context(&invocation), restate.invocation_id());
    let token = ctx.cancellation().child_token();
    let ctx = ContextBuilder::from(ctx)
        .cancellation(token.clone())
        .build();
    let registry = Arc::clone(registry);
    let name = tool.to_owned();
    let cancelled = token.clone();
    let limit = timeout::of_call(&registry, tool);
    let step = restate
        .run(move || async move {
            let result = registry.call(&ctx, &name, arguments).await;
            // A `long_running` tool's call answers at once with a pending
            // result, whose id only this worker's registry knows: the
            // step waits for the call's own result, the one its caller
            // (an MCP task, say) wants. The call runs under the step's
            // token, so a cancellation stops it too.
            let result = match result.pending_call_id().map(str::to_owned) {
                Some(call_id) => registry.pending().wait(&call_id).await.unwrap_or(result),
                None => result,
            };
            if cancelled.is_cancelled() {
                let result = cancelled_result(&name, result);
                return Err(TerminalError::new_with_code(CANCELLED, result.model_text()).into());
            }
            Ok(Json(result))
        })
        .name(format!("tool:{tool}"));
    watched(step, || watch(restate), watch_window(limit), &token, || ()).await
}

/// The context with the invocation's id as the call's: the registry's id
/// for the call, which the tool reads as
/// [`ToolContext::call_id`], is then made from it (with the caller, the
/// conversation, the tool and its arguments) and is the same on every
/// attempt of the invocation, and for every call sent with the same
/// `idempotency-key` (Restate gives them one invocation). The key itself
/// never reaches the handler: restate-server 1.7 keeps the header to
/// itself, and fills the SDK's `idempotency_key()` only under service
/// protocol V7, which it does not speak by default (and even with V7 on,
/// 1.7.12 sent none). The registry
/// makes such an id only within a named conversation; a context that names
/// none is given the invocation as its conversation.
fn keyed<Ctx>(ctx: ToolContext<Ctx>, invocation_id: &str) -> ToolContext<Ctx> {
    let named = ctx.conversation().is_some();
    let builder = ContextBuilder::from(ctx).call_id(invocation_id);
    if named {
        builder.build()
    } else {
        builder.conversation(invocation_id).build()
    }
}
