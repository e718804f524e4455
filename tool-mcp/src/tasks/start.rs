//! A `tools/call` run as a task, in either form (the extension's, or
//! 2025-11-25's `params.task`): the task recorded before its tool runs,
//! and the call followed by the task's runner; an `asks_first` tool asks
//! in the call's rounds before its task begins. With a
//! [`TaskEngine`](crate::TaskEngine), the call is sent to the engine
//! instead (`durable.rs`).

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResult, InputRequiredResult, Task};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tokio::sync::mpsc;
use tool_core::context::ContextBuilder;
use tool_core::observe::CallProgress;
use tool_core::{ToolError, ToolResult};

use crate::asking::approval::with_approver;
use crate::asking::input_required::run_or_ask;
use crate::asking::{Asking, no_sampling, stateless, with_asker};
use crate::server::McpServer;
use crate::tasks::{Ended, Form, Input, TaskCall, TaskOwner, durable, record_end, run};
use crate::tools::answer::answer;
use crate::tools::report::Report;

/// What asking for a task gave.
pub(crate) enum TaskStart {
    /// The task that follows the call.
    Task(Task),
    /// The call's answer, when it ended at once (arguments that do not
    /// fit, say) and the form asked in takes a direct answer then.
    Answered(CallToolResult),
    /// What an `asks_first` tool asks before its task begins, of a
    /// 2026-07-28 client: no task yet.
    InputRequired(InputRequiredResult),
}

/// Runs the call as a task of `form`, owned by the request's caller: in a
/// context with a token of its own (a task outlives its request, whose
/// token is cancelled once answered), which `tasks/cancel` cancels, and a
/// listener whose reports become the task's status message. A call that
/// ends at once is `TaskStart::Answered` for the extension, and a task
/// already complete for 2025-11-25, whose clients expect a task whatever
/// happens. An `asks_first` tool called by a 2026-07-28 client first runs
/// in the call's round: what it asks before it first waits on anything
/// else is answered `input_required` (the task, and the run, dropped),
/// until it has all its answers; the task then begins, and what the run
/// asks after is the task's.
pub(crate) async fn start_task<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    form: Form,
    ttl_ms: Option<u64>,
) -> Result<TaskStart, ErrorData> {
    let registry = Arc::clone(&server.current.get().registry);
    // A task of a tool this server knows runs on the engine, when there
    // is one; an unknown tool is answered here, as without one.
    if let Some(engine) = &server.tasks.engine
        && registry.info(&request.name).is_some()
    {
        let tool = request.name.to_string();
        return match durable::start(server, &**engine, request, context, form).await {
            Ok(task) => Ok(TaskStart::Task(task)),
            Err(error) => not_started(
                form,
                tool,
                format!("its task could not be started, so it did not run: {error}"),
            ),
        };
    }
    let base = server.context_for(context);
    let metadata = registry.info(&request.name).map(|tool| {
        let metadata = &tool.metadata;
        (
            metadata.tier,
            metadata.long_running && metadata.idempotent,
            metadata.asks_first.then_some(metadata.samples),
        )
    });
    let token = base.cancellation().child_token();
    let (sender, reports) = mpsc::unbounded_channel();
    let ctx = ContextBuilder::from(base)
        .cancellation(token.clone())
        .build();
    let (ctx, round) = match metadata.and_then(|(.., asks_first)| asks_first) {
        Some(samples) if form == Form::Extension && stateless(context) => {
            match with_asker(server, (true, samples), (&request).into(), context, ctx)? {
                Asking::Ready(ctx, round) => (ctx, round),
                Asking::NoSampling => return Err(no_sampling(&request.name)),
            }
        }
        _ => (ctx, None),
    };
    let ctx = ContextBuilder::from(with_approver(
        server,
        &registry,
        metadata.map(|(tier, ..)| tier),
        (context, round.as_ref()),
        ctx,
    ))
    .progress_listener(move |event: &CallProgress<'_>| {
        let _ = sender.send(Report::from(event));
    })
    .build();
    let arguments = Value::Object(request.arguments.unwrap_or_default());
    let tasks = &server.tasks;
    let caller = TaskOwner::of(context, server.config.verifier.is_some());
    // What another process needs to run the task again, kept only for a
    // tool that may be.
    let input = metadata.is_some_and(|(_, again, _)| again).then(|| Input {
        arguments: arguments.clone(),
        scopes: ctx.scopes().to_vec(),
    });
    let ttl_ms = tasks.ttl_for(ttl_ms);
    let (task_id, record) = match tasks
        .open(form, &caller, &request.name, ttl_ms, input)
        .await
    {
        Ok(opened) => opened,
        Err(error) => {
            return not_started(
                form,
                request.name.to_string(),
                format!("its task could not be recorded, so it did not run: {error}"),
            );
        }
    };
    let call = registry.call(&ctx, &request.name, arguments);
    let result = match run_or_ask(round.as_deref(), &server.config.request_state, call).await? {
        Ok(result) => result,
        Err(asked) => {
            token.cancel();
            tasks.discard(&task_id).await;
            return Ok(TaskStart::InputRequired(asked));
        }
    };
    // The run has been polled once (a `long_running` call is): what it
    // asked there is the round's, and its questions from now the task's.
    if let Some(round) = &round
        && result.is_pending()
        && !round.hand_on(registry.questions().asker())
    {
        token.cancel();
        tasks.discard(&task_id).await;
        return round
            .input_required(&server.config.request_state)
            .map(TaskStart::InputRequired);
    }
    let Some(call_id) = result.pending_call_id().map(str::to_owned) else {
        let unknown = matches!(result.tool_error(), Some(ToolError::UnknownTool { .. }));
        if form == Form::Extension || unknown {
            tasks.discard(&task_id).await;
            return answer(&result).map(TaskStart::Answered);
        }
        // A task whatever happens, as 2025-11-25's clients expect: working
        // when made, and ended by their first look.
        let task = record.to_detailed(&task_id).task;
        record_end(tasks, &task_id, record.deadline_ms(), Ended::Result(result)).await;
        return Ok(TaskStart::Task(task));
    };
    let task = record.to_detailed(&task_id).task;
    let call = TaskCall {
        registry,
        pending: result,
        call_id,
        token,
        reports,
    };
    run(Arc::clone(tasks), task_id, record, call);
    Ok(TaskStart::Task(task))
}

/// The answer to a call whose task could not begin, for `reason`: a
/// result saying so for the extension, an error for 2025-11-25, whose
/// clients expect a task or an error.
fn not_started(form: Form, tool: String, reason: String) -> Result<TaskStart, ErrorData> {
    let refused = ToolResult::from(ToolError::Unavailable { tool, reason });
    match form {
        Form::Extension => answer(&refused).map(TaskStart::Answered),
        Form::Spec2025 => Err(ErrorData::internal_error(
            refused.model_text().into_owned(),
            None,
        )),
    }
}
