//! Step 6 for a `long_running` tool: the run goes on in a task of its own,
//! and the call's result, a pending one, comes back at once.

use std::sync::OnceLock;
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::dispatch::entry::Entry;
use crate::dispatch::execute::{Run, Work, execute, quietly};
use crate::dispatch::held::Held;
use crate::dispatch::output::bound_media;
use crate::dispatch::pipeline::Pipeline;
use crate::tool::context::Caller;
use crate::{CallFinished, ToolError, ToolResult};

impl<Ctx: Send + Sync + 'static> Pipeline<Ctx> {
    /// Step 6 for a `long_running` tool: a pending result now, the tool's
    /// (or a delivered) result later through [`ToolRegistry::wait`].
    pub(crate) fn run_in_background(
        &self,
        entry: &Entry<Ctx>,
        call: &Held<'_>,
        run: Work<'static>,
        timeout: Duration,
        caller: CancellationToken,
    ) -> ToolResult {
        let name = entry.name.to_string();
        let id = call.id();
        let pending = ToolResult::pending(&name, id);
        let Some(opened) = self.pending.open(id) else {
            // The same call is running already: one run, one result.
            return pending;
        };
        let exclusive = entry.exclusive.clone();
        let observer = self.observer.clone();
        let pending_timeout = self.settings.pending_timeout;
        let max_media_bytes = self.settings.max_media_bytes;
        let call = call.shared(self.progress.as_ref());
        let span = tracing::info_span!("tool_call_background", tool = %name, call_id = id);
        let start = Instant::now();
        let task = async move {
            let id = call.id();
            let caller = OnceLock::from(caller);
            let result = execute(
                &name,
                Run::Detached(run),
                Some(&call),
                timeout,
                exclusive.as_deref(),
                Caller(&caller),
            )
            .await;
            let result = if result.is_deferred() {
                match tokio::time::timeout(pending_timeout, opened.delivered).await {
                    Ok(Ok(delivered)) => delivered,
                    _ => {
                        call.cancel();
                        ToolError::PendingTimeout {
                            tool: name.clone(),
                            call_id: id.to_string(),
                            after: pending_timeout,
                        }
                        .into()
                    }
                }
            } else {
                result
            };
            let result = bound_media(&name, result, max_media_bytes);
            if let Some(observer) = &observer {
                let event = CallFinished {
                    tool: &name,
                    call_id: id,
                    duration: start.elapsed(),
                    result: &result,
                };
                quietly(|| observer.call_finished(&event));
            }
            // Kept for waiters to come, if none waits yet.
            opened.finish.send_replace(Some(result));
        };
        tokio::spawn(task.instrument(span));
        pending
    }
}
