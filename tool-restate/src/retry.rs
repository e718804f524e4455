//! How often Restate runs a tool's invocation, from the tool's metadata.

use restate_sdk::endpoint::HandlerOptions;
use tool_core::ToolMetadata;

/// A tool's retry policy, as its handler declares it to Restate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RetryPolicy {
    /// An [`idempotent`](ToolMetadata::idempotent) tool: run again, under
    /// the server's retry policy, after an attempt that ended before its
    /// result was journaled (the worker killed mid-call, say). Running it
    /// twice does no harm, and what it does outside can be keyed by
    /// [`ToolContext::call_id`](tool_core::ToolContext::call_id).
    Retried,
    /// Any other tool: one attempt. A worker lost mid-call may have done
    /// the tool's side effect or not, and only the tool's owner knows
    /// whether doing it again is safe. The journal's step is at least once
    /// (a closure running when the worker dies is run again on the next
    /// attempt), so the invocation itself gets one attempt and is then
    /// killed: it ends as failed, which its caller sees at once, as
    /// tool-core's own lost calls end. Pausing instead would leave the
    /// caller waiting, with no answer, until someone resumes it by hand.
    Once,
}

impl RetryPolicy {
    /// The policy of a tool with `metadata`.
    pub(crate) fn of(metadata: &ToolMetadata) -> Self {
        if metadata.idempotent {
            Self::Retried
        } else {
            Self::Once
        }
    }

    /// The handler's options with this policy.
    pub(crate) fn apply(self, options: HandlerOptions) -> HandlerOptions {
        match self {
            Self::Retried => options,
            // Measured with restate-server 1.7.12: a worker SIGKILLed
            // inside the step, the invocation with one attempt had run
            // the side effect once and ended failed ("kill") or paused
            // ("pause"); without it, the server's default is 70 attempts,
            // then a pause.
            Self::Once => options
                .retry_policy_max_attempts(1)
                .retry_policy_kill_on_max_attempts(),
        }
    }
}
