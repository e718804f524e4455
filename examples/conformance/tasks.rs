//! The tools of the tasks extension's scenarios (SEP-2663): a tool that
//! answers at once, and `long_running` ones a client that takes tasks
//! gets as tasks.

use std::future::IntoFuture;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::{ToolContext, ToolRegistry, tool};

use crate::server::Fixtures;

/// The tools of this file, added to `registry`.
pub(crate) fn with_tasks(registry: ToolRegistry<Fixtures>) -> ToolRegistry<Fixtures> {
    registry
        .with(Greet)
        .with(SlowCompute)
        .with(FailingJob)
        .with(ProtocolErrorJob)
        .with(ConfirmDelete)
        .with(MultiInput)
        .with(TestToolWithTask)
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
    ctx: &ToolContext<Fixtures>,
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

/// Fails, as a tool fails: its task completes with an error result. It
/// runs only as a task: a client that cannot follow one is refused.
#[tool(long_running, tasks_only, read_only)]
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

/// Whether to go on.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Confirmation {
    /// Yes, go on.
    confirm: bool,
}

/// Asks before deleting a file: its task waits for the answer, which the
/// client gives with `tasks/update`.
#[tool(long_running, asks)]
async fn confirm_delete(
    ctx: &ToolContext<Fixtures>,
    /// The file.
    filename: String,
) -> Result<String, ElicitError> {
    let asked = ctx
        .elicit::<Confirmation>(format!("Delete {filename}?"))
        .key("confirm")
        .await?;
    Ok(match asked {
        Elicitation::Accept(Confirmation { confirm: true }) => format!("deleted {filename}"),
        _ => format!("kept {filename}"),
    })
}

/// One of two answers.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Entry {
    /// A name.
    name: Option<String>,
    /// Whether it is right.
    confirm: Option<bool>,
}

/// Asks two questions at once: its task waits for both.
#[tool(long_running, asks)]
async fn multi_input(ctx: &ToolContext<Fixtures>) -> Result<String, ElicitError> {
    let first = ctx.elicit::<Entry>("The first entry?").key("first");
    let second = ctx.elicit::<Entry>("The second entry?").key("second");
    let (first, second) = tokio::join!(first.into_future(), second.into_future());
    let name = |answer: Elicitation<Entry>| match answer.accepted() {
        Some(Entry {
            name: Some(name),
            confirm: Some(true),
        }) => name,
        Some(Entry {
            name: Some(name), ..
        }) => format!("{name} (not confirmed)"),
        _ => "none".to_owned(),
    };
    Ok(format!("entries: {} and {}", name(first?), name(second?)))
}

/// Someone's name.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Name {
    /// The name.
    name: String,
}

/// Asks the person's name before its task begins (the call is answered
/// `input_required` until it is given), then greets them from the task.
#[tool(long_running, tasks_only, asks_first)]
async fn test_tool_with_task(ctx: &ToolContext<Fixtures>) -> Result<String, ElicitError> {
    let asked = ctx
        .elicit::<Name>("What is your name?")
        .key("user_name")
        .await?;
    let name = match asked {
        Elicitation::Accept(Name { name }) => name,
        _ => "friend".to_owned(),
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(format!("Hello, {name}! (async)"))
}
