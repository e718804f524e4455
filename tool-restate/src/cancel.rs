//! A Restate cancellation brought to a running tool.
//!
//! Restate tells a handler that its invocation was cancelled only at a
//! durable await, which then ends in a `TerminalError` of code 409; a
//! `ctx.run` step is no such await while its closure runs: the SDK polls
//! the closure alone, reading nothing from Restate, and its future is not
//! a `DurableFuture`, so `restate_sdk::select!` cannot race it. What can
//! be awaited beside it, in the same task, is any durable future: the SDK
//! reads Restate's messages for whichever is polled, and its await of one
//! that is not the running step's ends at once when the cancellation comes
//! (restate-sdk 0.13's `VmAsyncResultPollFuture`, restate-sdk-shared-core
//! 8.2's `do_await`, which adds the cancellation to every await). So the
//! step is awaited beside a named signal that no one resolves: it creates
//! nothing in the journal, and its await ends only with the cancellation,
//! which then cancels the tool's token.
//!
//! The signal is awaited only once the step's first poll found it running:
//! a step whose result is in the journal (a replay) ends at that poll, and
//! an await of something the journal does not hold while it is replayed
//! is an error to the SDK. And it is awaited only for a window shorter
//! than the handler's inactivity timeout: past that timeout, Restate asks
//! the handler to suspend (it ends the request's stream), and the signal's
//! await would then suspend the whole attempt, the tool cut short, where
//! the step's own await waits for the tool to end. Each handler's
//! inactivity timeout is its tools' time limit plus a margin
//! (`src/timeout.rs`), and the window is the limit plus half the margin:
//! a tool is stopped by its time limit well within it. A call that waited
//! long for its turn before it started (a tool not `concurrency_safe`,
//! busy with other calls) may outlast the window; a cancellation then
//! reaches it only when the step ends, at the handler's next durable
//! await, as it reaches any Restate handler.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use restate_sdk::context::ContextSignals;
use restate_sdk::errors::TerminalError;
use restate_sdk::prelude::Json;
use serde_json::Value;
use tool_core::context::CancellationToken;
use tool_core::{ToolError, ToolResult};

/// The signal awaited beside a running step: no one resolves it, so its
/// await ends only when the invocation is cancelled.
const WATCH: &str = "tool-restate.cancelled";

/// The await of the signal [`watched`] awaits beside a step.
pub(crate) fn watch<'ctx>(
    restate: &impl ContextSignals<'ctx>,
) -> impl Future<Output = Result<Json<Value>, TerminalError>> + Send + 'ctx {
    restate.signal::<Json<Value>>(WATCH)
}

/// Restate's code for a cancelled invocation.
pub(crate) const CANCELLED: u16 = 409;

/// Awaits `step` (a `ctx.run` future, not yet polled), cancelling `token`
/// if Restate cancels the invocation while the step's closure runs; the
/// step's own result, whatever the tool made of the cancellation.
/// `issued` is called once the step's first poll has issued its command;
/// `watch` makes the signal's await ([`watch`]), then, which is polled for
/// `window` at most (see the module's documentation).
pub(crate) async fn watched<T, W>(
    step: impl Future<Output = Result<T, TerminalError>>,
    watch: impl FnOnce() -> W,
    window: Duration,
    token: &CancellationToken,
    issued: impl FnOnce(),
) -> Result<T, TerminalError>
where
    W: Future<Output = Result<Json<Value>, TerminalError>>,
{
    let mut step = pin!(step);
    // The first poll issues the step's command: a step the journal holds
    // ends here, before anything else is awaited.
    let first = poll_fn(|cx| Poll::Ready(step.as_mut().poll(cx))).await;
    issued();
    if let Poll::Ready(result) = first {
        return result;
    }
    let mut watch = pin!(watch());
    let mut closing = pin!(tokio::time::sleep(window));
    let mut watching = true;
    poll_fn(|cx| {
        if let Poll::Ready(result) = step.as_mut().poll(cx) {
            return Poll::Ready(result);
        }
        if watching && closing.as_mut().poll(cx).is_ready() {
            watching = false;
        }
        if watching && let Poll::Ready(seen) = watch.as_mut().poll(cx) {
            watching = false;
            if seen.is_err_and(|error| error.code() == CANCELLED) {
                // Wakes the tool, whose end wakes this task again.
                token.cancel();
            }
        }
        Poll::Pending
    })
    .await
}

/// What a call's result says when the invocation was cancelled while its
/// tool ran: the tool was told to stop (its token cancelled), and what it
/// gave then. A call the registry never started (cancelled while it
/// waited for its turn) keeps tool-core's own error.
pub(crate) fn cancelled_result(tool: &str, result: ToolResult) -> ToolResult {
    if matches!(result.tool_error(), Some(ToolError::Cancelled { .. })) {
        return result;
    }
    ToolResult::error(cancelled_text(tool, &result))
}

/// The text of a call cancelled while its tool ran.
pub(crate) fn cancelled_text(tool: &str, result: &ToolResult) -> String {
    format!(
        "the call to tool `{tool}` was cancelled while it ran: its Restate invocation was \
         cancelled, and the tool was told to stop; it ended with: {}",
        result.model_text()
    )
}
