//! The approval hook set on the server
//! ([`McpServer::with_approval`](crate::McpServer::with_approval)), kept as
//! what puts it in each request's context, shared by all of them.

use std::sync::Arc;

use tool_core::ToolContext;
use tool_core::context::ContextBuilder;
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};

/// Puts an approval hook in a context: the server's hook, kept behind the
/// type that names it.
pub(crate) type InstallHook<Ctx> = dyn Fn(ToolContext<Ctx>) -> ToolContext<Ctx> + Send + Sync;

/// The server's hook, as what puts it in a context.
pub(crate) fn installer<Ctx, H>(hook: H) -> Arc<InstallHook<Ctx>>
where
    Ctx: Send + Sync + 'static,
    H: ApprovalHook<Ctx>,
{
    let hook = Arc::new(hook);
    Arc::new(move |ctx: ToolContext<Ctx>| {
        ContextBuilder::from(ctx)
            .approval(SharedHook(Arc::clone(&hook)))
            .build()
    })
}

/// One hook shared by every request's context.
struct SharedHook<H>(Arc<H>);

impl<Ctx, H: ApprovalHook<Ctx>> ApprovalHook<Ctx> for SharedHook<H> {
    fn approve(
        &self,
        request: &ApprovalRequest<'_, Ctx>,
    ) -> impl std::future::Future<Output = Approval> + Send {
        self.0.approve(request)
    }
}
