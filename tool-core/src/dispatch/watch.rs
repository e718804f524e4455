//! What a call tells whoever watches: the observer's start and finish
//! events, and the call's tracing span and its last event.

use tokio::time::Instant;

use crate::dispatch::pipeline::Pipeline;
use crate::observe::observer::quietly;
use crate::observe::observer::{CallFinished, CallStarted};
use crate::output::result::ToolResult;

impl<Ctx> Pipeline<Ctx> {
    /// Events and span of a call that ended before it began.
    pub(crate) fn report(
        &self,
        span: &tracing::Span,
        tool: &str,
        call_id: &str,
        start: Option<Instant>,
        result: &ToolResult,
    ) {
        span.record("call_id", call_id);
        let _entered = span.enter();
        self.started(tool, call_id);
        if let Some(start) = start {
            self.finished(tool, call_id, start, result);
        }
    }

    pub(crate) fn started(&self, tool: &str, call_id: &str) {
        if let Some(observer) = &self.observer {
            quietly(|| observer.call_started(&CallStarted { tool, call_id }));
        }
    }

    pub(crate) fn finished(&self, tool: &str, call_id: &str, start: Instant, result: &ToolResult) {
        tracing::debug!(outcome = outcome(result), "tool call finished");
        if let Some(observer) = &self.observer {
            let event = CallFinished {
                tool,
                call_id,
                duration: start.elapsed(),
                result,
            };
            quietly(|| observer.call_finished(&event));
        }
    }
}

fn outcome(result: &ToolResult) -> &'static str {
    if result.is_pending() {
        "pending"
    } else if result.is_error() {
        "error"
    } else {
        "success"
    }
}
