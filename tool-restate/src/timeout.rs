//! How long Restate lets a handler run without word from it, from its
//! tools' time limits.
//!
//! Restate stops an invocation that makes no progress in two stages (the
//! handler's `inactivity_timeout`, then its `abort_timeout`; the server's
//! defaults are 1 and 10 minutes): a `ctx.run` step whose closure runs
//! sends nothing, so a tool that runs longer than those is stopped by
//! Restate, and its step run again, however long the tool may run. Here
//! the tool's own limit ([`ToolRegistry::timeout`]: its `timeout`, else
//! the registry's default) is the one that counts: Restate waits that
//! long plus [`MARGIN`] before it asks the handler to suspend, and
//! [`MARGIN`] more before it aborts the attempt. The time a question of
//! an `asks` tool waits for the person is given back to the tool's limit
//! (tool-core's rule), so a tool service's `asks` tool is given
//! [`ASKS`] questions of [`DEFAULT_QUESTION_TIMEOUT`] more; in a turn, a
//! question ends its step instead (`src/turn/ask.rs`). A tool that runs too long
//! is stopped by the registry first, with tool-core's timeout error, and
//! a hung one (a plain function that never returns, which no timeout can
//! stop) is aborted by Restate once both have passed, not waited for
//! forever.

use std::time::Duration;

use restate_sdk::endpoint::HandlerOptions;
use tool_core::ToolRegistry;
use tool_core::elicit::{ASKS, DEFAULT_QUESTION_TIMEOUT};
use tool_core::registry::DEFAULT_TIMEOUT;

/// What Restate waits beyond a tool's time limit: the tool told to stop
/// ends, and its result is recorded, well within it.
pub(crate) const MARGIN: Duration = Duration::from_secs(60);

/// The handler's options with Restate's timeouts set for calls that may
/// run up to `limit`.
pub(crate) fn apply(limit: Duration, options: HandlerOptions) -> HandlerOptions {
    options
        .inactivity_timeout(limit.saturating_add(MARGIN))
        .abort_timeout(MARGIN)
}

/// How long a call of `tool` may run as one step of the tool service:
/// its time limit, and the time its questions may wait, if it asks.
pub(crate) fn of_call<Ctx: Send + Sync + 'static>(
    registry: &ToolRegistry<Ctx>,
    tool: &str,
) -> Duration {
    let limit = registry.timeout(tool).unwrap_or(DEFAULT_TIMEOUT);
    if registry.info(tool).is_some_and(|info| info.metadata.asks) {
        limit.saturating_add(DEFAULT_QUESTION_TIMEOUT.saturating_mul(ASKS))
    } else {
        limit
    }
}

/// The longest time limit of `registry`'s tools: what one step of a turn
/// may take (a question ends a turn's step, so its wait is not counted).
pub(crate) fn longest<Ctx: Send + Sync + 'static>(registry: &ToolRegistry<Ctx>) -> Duration {
    registry
        .names()
        .filter_map(|name| registry.timeout(name))
        .max()
        .unwrap_or(DEFAULT_TIMEOUT)
}

/// How long a running step is watched for its invocation's cancellation
/// (`src/cancel.rs`): its calls' time `limit` plus half the [`MARGIN`],
/// well within the inactivity timeout [`apply`] sets.
pub(crate) fn watch_window(limit: Duration) -> Duration {
    limit.saturating_add(MARGIN / 2)
}
