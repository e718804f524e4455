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
//! [`MARGIN`] more before it aborts the attempt. A tool that runs too long
//! is stopped by the registry first, with tool-core's timeout error, and
//! a hung one (a plain function that never returns, which no timeout can
//! stop) is aborted by Restate once both have passed, not waited for
//! forever.

use std::time::Duration;

use restate_sdk::endpoint::HandlerOptions;
use tool_core::ToolRegistry;

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

/// The longest time limit of `registry`'s tools: what one step of a turn
/// may take.
pub(crate) fn longest<Ctx: Send + Sync + 'static>(registry: &ToolRegistry<Ctx>) -> Duration {
    registry
        .names()
        .filter_map(|name| registry.timeout(name))
        .max()
        .unwrap_or(tool_core::registry::DEFAULT_TIMEOUT)
}

/// How long a running step is watched for its invocation's cancellation
/// (`src/cancel.rs`): its calls' time `limit` plus half the [`MARGIN`],
/// well within the inactivity timeout [`apply`] sets.
pub(crate) fn watch_window(limit: Duration) -> Duration {
    limit.saturating_add(MARGIN / 2)
}
