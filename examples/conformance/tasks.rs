//! The tools of the tasks extension's scenarios (SEP-2663): a tool that
//! answers at once, and `long_running` ones a client that takes tasks
//! gets as tasks.

use std::time::Duration;

use tool_core::{ToolContext, ToolRegistry, tool};

/// The tools of this file, added to `registry`.
pub(crate) fn with_tasks(registry: ToolRegistry) -> ToolRegistry {
    registry
        .with(Greet)
        .with(SlowCompute)
        .with(FailingJob)
        .with(ProtocolErrorJob)
}

/// Greets someone, at once: never a task.
#[tool(read_only)]
fn greet(
    /// Whom.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Works for `seconds`, then says it is done: a task for a client that
/// takes them.
#[tool(long_running, read_only)]
async fn slow_compute(
    ctx: &ToolContext,
    /// How long to work, in seconds.
    seconds: f64,
    /// What to call the work.
    label: Option<String>,
) -> String {
    let label = label.unwrap_or_else(|| "work".to_owned());
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(seconds.clamp(0.0, 300.0))) => {
            format!("{label} done after {seconds} s")
        }
        () = ctx.cancellation().cancelled() => format!("{label} cancelled"),
    }
}

/// Fails, as a tool fails: its task completes with an error result.
#[tool(long_running, read_only)]
async fn failing_job() -> Result<String, String> {
    tokio::time::sleep(Duration::from_millis(100)).await;
    Err("the job failed, as it always does".to_owned())
}

/// Breaks: its task fails.
#[tool(long_running, read_only)]
async fn protocol_error_job() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("the job broke")
}
