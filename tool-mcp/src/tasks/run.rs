//! The process that runs a task follows its call: the call's reports
//! become the task's status message, its result the task's end; a cancel
//! asked on any process, heard through the record, stops it; its deadline
//! fails it. Every write is made from the record as read, and only while
//! the record still names this process as the runner: a process cut off
//! long enough to be taken for stopped never overwrites what another
//! wrote since.

use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolError, ToolRegistry, ToolResult};

use super::Tasks;
use super::record::{EXPIRED, SETTLE, Status, TaskRecord, key, now_ms};
use crate::tools::answer::answer;
use crate::tools::report::Report;

/// How often, at most, a running task's status message is written: each
/// write is heard by every process sharing the store.
const STATUS_EVERY: Duration = Duration::from_millis(250);

/// How long a runner waits before writing again to a store it could not
/// reach.
const RETRY_EVERY: Duration = Duration::from_millis(500);

/// The call a task follows: the registry's pending call `call_id` (whose
/// result, until it comes, is `pending`), its cancellation `token`, and
/// the reports it sends.
pub(crate) struct TaskCall<Ctx> {
    pub(crate) registry: Arc<ToolRegistry<Ctx>>,
    pub(crate) pending: ToolResult,
    pub(crate) call_id: String,
    pub(crate) token: CancellationToken,
    pub(crate) reports: mpsc::UnboundedReceiver<Report>,
}

/// How a run ended.
enum End {
    Result(ToolResult),
    Cancelled,
    Expired,
    /// The record is gone: the store lost it.
    Lost,
    /// The record no longer names this process, or has ended.
    Taken,
}

/// Starts following `call` for the task `task_id`, recorded as `record`.
pub(crate) fn run<Ctx: Send + Sync + 'static>(
    tasks: Arc<Tasks>,
    task_id: String,
    record: TaskRecord,
    call: TaskCall<Ctx>,
) {
    tokio::spawn(follow(tasks, task_id, record, call));
}

async fn follow<Ctx: Send + Sync + 'static>(
    tasks: Arc<Tasks>,
    task_id: String,
    record: TaskRecord,
    call: TaskCall<Ctx>,
) {
    let TaskCall {
        registry,
        pending,
        call_id,
        token,
        mut reports,
    } = call;
    let me = tasks.me().to_owned();
    let mine = |record: &TaskRecord| !record.is_terminal() && record.runner.as_deref() == Some(&me);
    let key = key(&task_id);
    let mut watch = tasks.store.watch(&key);
    if record.call_id.as_deref() != Some(call_id.as_str()) {
        let written = tasks
            .update(&task_id, |record| {
                mine(record) && {
                    record.call_id = Some(call_id.clone());
                    true
                }
            })
            .await;
        if let Err(error) = written {
            tracing::warn!(%error, task_id, "a task's call could not be recorded");
        }
    }
    let deadline =
        Instant::now() + Duration::from_millis(record.deadline_ms().saturating_sub(now_ms()));
    let mut status: Option<String> = None;
    let mut written_at = Instant::now() - STATUS_EVERY;
    let mut write_at: Option<Instant> = None;
    let end = {
        let wait = registry.pending().wait(&call_id);
        tokio::pin!(wait);
        loop {
            tokio::select! {
                biased;
                waited = &mut wait => break End::Result(waited.unwrap_or(pending)),
                () = watch.changed() => match tasks.store.get(&key).await {
                    Ok(None) => break End::Lost,
                    Ok(Some(bytes)) => match TaskRecord::from_bytes(&bytes) {
                        Some(record) if !mine(&record) => break End::Taken,
                        Some(record) if record.cancel => break End::Cancelled,
                        Some(_) => {}
                        None => break End::Lost,
                    },
                    // The store cannot be reached: read again at the next
                    // wake (a watch wakes when its store comes back).
                    Err(_) => {}
                },
                Some(report) = reports.recv() => {
                    status = Some(report.status());
                    write_at.get_or_insert(written_at + STATUS_EVERY);
                }
                () = sleep_until(write_at) => {
                    write_at = None;
                    written_at = Instant::now();
                    let message = status.take();
                    let written = tasks
                        .update(&task_id, |record| {
                            mine(record) && !record.cancel && {
                                record.message.clone_from(&message);
                                true
                            }
                        })
                        .await;
                    if let Err(error) = written {
                        tracing::debug!(%error, task_id, "a task's status was not written");
                    }
                }
                () = tokio::time::sleep_until(deadline) => break End::Expired,
            }
        }
    };
    let ended = match end {
        End::Result(result) => {
            if matches!(result.tool_error(), Some(ToolError::Lost { .. })) {
                // The store failed or lost the call: its result can reach
                // no one, and the task's client is told to call again. The
                // run, which would go on unseen, is stopped.
                tracing::warn!(
                    task_id,
                    "task {task_id} lost its call's result; its run was stopped"
                );
                token.cancel();
            }
            Ended::Result(result)
        }
        End::Cancelled => Ended::Cancelled("cancelled"),
        End::Expired => Ended::Failed(ErrorData::internal_error(EXPIRED, None)),
        End::Lost | End::Taken => {
            let why = if matches!(end, End::Lost) {
                "the store lost its record"
            } else {
                "another process took it over"
            };
            tracing::warn!(task_id, "task {task_id} was stopped here: {why}");
            Ended::Stopped
        }
    };
    if !matches!(ended, Ended::Result(_)) {
        // The run stops; its result is still taken, so that the registry
        // forgets the call.
        token.cancel();
        tokio::spawn(async move { registry.pending().wait(&call_id).await });
    }
    record_end(&tasks, &task_id, record.deadline_ms(), ended).await;
}

/// How a task ends.
pub(crate) enum Ended {
    /// With its call's result (a tool error is a completed task's
    /// `isError` result; an unknown tool a failed task).
    Result(ToolResult),
    /// Cancelled, saying this.
    Cancelled(&'static str),
    Failed(ErrorData),
    /// Not at all: its record is no longer this process's to write.
    Stopped,
}

/// Writes the task's end, while the record still names this process as
/// its runner; a store that cannot be reached is tried again until the
/// record would have expired.
pub(crate) async fn record_end(
    tasks: &Tasks,
    task_id: &str,
    deadline_ms: u64,
    ended: Ended,
) -> Option<TaskRecord> {
    let (result, error, cancelled) = match ended {
        Ended::Stopped => return None,
        // A tool that panicked did not answer: its request failed.
        Ended::Result(result)
            if matches!(result.tool_error(), Some(ToolError::Panicked { .. })) =>
        {
            (
                None,
                Some(ErrorData::internal_error(
                    result.model_text().into_owned(),
                    None,
                )),
                None,
            )
        }
        Ended::Result(result) => match answer(&result) {
            Ok(answer) => match serde_json::to_value(answer) {
                Ok(serde_json::Value::Object(result)) => (Some(result), None, None),
                _ => (Some(serde_json::Map::new()), None, None),
            },
            Err(error) => (None, Some(error), None),
        },
        Ended::Cancelled(message) => (None, None, Some(message)),
        Ended::Failed(error) => (None, Some(error), None),
    };
    let me = tasks.me();
    let until =
        Instant::now() + Duration::from_millis(deadline_ms.saturating_sub(now_ms())) + SETTLE;
    loop {
        let written = tasks
            .update(task_id, |record| {
                if record.is_terminal() || record.runner.as_deref() != Some(me) {
                    return false;
                }
                match (&result, &error, cancelled) {
                    (_, Some(error), _) => record.fail(error),
                    (_, _, Some(message)) => {
                        record.end(Status::Cancelled, Some(message.to_owned()))
                    }
                    (result, ..) => {
                        record.result.clone_from(result);
                        record.end(Status::Completed, None);
                    }
                }
                true
            })
            .await;
        match written {
            Ok(record) => return record,
            Err(error) if Instant::now() < until => {
                tracing::debug!(%error, task_id, "a task's end is written again");
                tokio::time::sleep(RETRY_EVERY).await;
            }
            Err(error) => {
                tracing::warn!(%error, task_id, "a task's end could not be recorded");
                return None;
            }
        }
    }
}

/// Sleeps until `at`, or forever when there is nothing to wait for.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
