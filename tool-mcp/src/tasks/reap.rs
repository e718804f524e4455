//! A task whose runner stopped (killed, crashed, cut off from the store
//! past its lease): the first process to read it takes it over, with one
//! write that only one can make, then ends it as its call ended, or runs
//! it again once when its tool is `idempotent`, or fails it saying why.
//! It never stays working for ever and never runs twice for a tool not
//! marked idempotent.

use std::sync::Arc;

use rmcp::ErrorData;
use tokio::sync::mpsc;
use tool_core::context::ContextBuilder;
use tool_core::observe::CallProgress;
use tool_core::policy::ApproveAll;
use tool_core::store::StoreError;
use tool_core::{ToolError, ToolResult};

use super::record::TaskRecord;
use super::run::{Ended, TaskCall, record_end, run};
use super::{TaskOwner, Tasks};
use crate::server::McpServer;
use crate::tasks::origin::TaskOrigin;
use crate::tools::report::Report;

/// What a task taken over says while it is.
const ADOPTED: &str = "adopted: the process that ran it stopped";

/// What a task run again says.
const RERUN: &str =
    "running again on another process: the process that first ran it stopped before it finished";

/// Takes over `seen`, a working task whose runner stopped: the record as
/// it is after (taken over here, or by another process first), or `None`
/// when it is gone.
pub(super) async fn reap<Ctx: Send + Sync + 'static>(
    tasks: &Arc<Tasks>,
    server: &McpServer<Ctx>,
    task_id: &str,
    seen: TaskRecord,
) -> Result<Option<TaskRecord>, StoreError> {
    let stopped = seen.runner;
    let me = tasks.me().to_owned();
    let mut took = false;
    let record = tasks
        .update(task_id, |record| {
            took = false;
            if record.is_terminal() || record.runner != stopped {
                return false;
            }
            record.runner = Some(me.clone());
            record.message = Some(ADOPTED.to_owned());
            took = true;
            true
        })
        .await?;
    if let Some(record) = &record
        && took
    {
        tracing::warn!(
            task_id,
            tool = record.tool,
            "a task whose process stopped is taken over"
        );
        tokio::spawn(finish(
            Arc::clone(tasks),
            server.clone(),
            task_id.to_owned(),
            record.clone(),
        ));
    }
    Ok(record)
}

/// Ends a task taken over: as its call ended, if it did; by running it
/// again; or failed.
async fn finish<Ctx: Send + Sync + 'static>(
    tasks: Arc<Tasks>,
    server: McpServer<Ctx>,
    task_id: String,
    record: TaskRecord,
) {
    let deadline = record.deadline_ms();
    if record.cancel {
        let ended = Ended::Cancelled("cancelled; the process that ran it had already stopped");
        record_end(&tasks, &task_id, deadline, ended).await;
        return;
    }
    let registry = Arc::clone(&server.current.get().registry);
    // A call kept in a shared store may have ended, or been given its
    // result, before its process stopped: nothing of it is lost then.
    if let Some(call_id) = &record.call_id
        && let Some(result) = registry.pending().wait(call_id).await
        && !matches!(result.tool_error(), Some(ToolError::Lost { .. }))
    {
        record_end(&tasks, &task_id, deadline, Ended::Result(result)).await;
        return;
    }
    let tool = record.tool.clone();
    let idempotent = registry
        .info(&tool)
        .is_some_and(|info| info.metadata.long_running && info.metadata.idempotent);
    let why = match (&record.input, idempotent, record.reruns) {
        (Some(_), true, 0) => None,
        (_, _, 1..) => Some(
            "the process that ran this task stopped before it finished, and so did the one that \
             ran it again; it is not run a third time; call the tool again if it is still needed"
                .to_owned(),
        ),
        _ => Some(format!(
            "the process that ran this task stopped before it finished (its lease in the store \
             lapsed); it was not run again, since tool `{tool}` is not marked idempotent; call the \
             tool again if it is still needed"
        )),
    };
    let input = record.input.clone().filter(|_| why.is_none());
    let origin = TaskOrigin::new(&record);
    let base = input.as_ref().and_then(|_| server.rerun_context(&origin));
    let (Some(input), Some(base)) = (input, base) else {
        let why = why.unwrap_or_else(|| {
            "the process that ran this task stopped before it finished; it was not run again: \
             this server makes each request's context itself (McpServer::with_context_fn) and \
             has no McpServer::with_rerun_context; call the tool again if it is still needed"
                .to_owned()
        });
        let ended = Ended::Failed(ErrorData::internal_error(why, None));
        record_end(&tasks, &task_id, deadline, ended).await;
        return;
    };
    let me = tasks.me().to_owned();
    let claimed = tasks
        .update(&task_id, |record| {
            if record.is_terminal() || record.runner.as_deref() != Some(&me) || record.reruns > 0 {
                return false;
            }
            record.reruns = 1;
            record.message = Some(RERUN.to_owned());
            true
        })
        .await;
    let record = match claimed {
        Ok(Some(record)) if record.reruns == 1 && record.runner.as_deref() == Some(&me) => record,
        _ => return,
    };
    let token = base.cancellation().child_token();
    let (sender, reports) = mpsc::unbounded_channel();
    // The call passed the server's policy when it began: running the same
    // arguments again is the call that was approved.
    // The run is the caller's, as the first was, unless the application's
    // context names one itself.
    let base = match base.caller() {
        None if record.caller != TaskOwner::Anyone.key() => ContextBuilder::from(base)
            .caller(record.caller.clone())
            .build(),
        _ => base,
    };
    let ctx = ContextBuilder::from(base)
        .scopes(input.scopes)
        .cancellation(token.clone())
        .approval(ApproveAll)
        .progress_listener(move |event: &CallProgress<'_>| {
            let _ = sender.send(Report::from(event));
        })
        .build();
    let result: ToolResult = registry.call(&ctx, &tool, input.arguments).await;
    match result.pending_call_id().map(str::to_owned) {
        Some(call_id) => {
            let call = TaskCall {
                registry,
                pending: result,
                call_id,
                token,
                reports,
            };
            run(tasks, task_id, record, call);
        }
        None => {
            record_end(&tasks, &task_id, deadline, Ended::Result(result)).await;
        }
    }
}
