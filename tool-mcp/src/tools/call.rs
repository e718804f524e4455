//! `tools/call`: one request through the registry, with the request's
//! cancellation and progress, or as a task.

use std::sync::Arc;

#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CreateTaskResult, InputRequiredResult,
    ProgressNotificationParam, ProgressToken, Task,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tokio::sync::mpsc;
use tool_core::context::ContextBuilder;
use tool_core::observe::{CallLog, CallProgress};
use tool_core::policy::ToolTier;
use tool_core::{ToolError, ToolResult};

use crate::asking::approval::with_approver;
use crate::asking::input_required::{asked, poll_once, run_or_ask};
use crate::asking::{Asking, no_sampling, stateless, with_asker};
use crate::server::McpServer;
use crate::server::logging::notification;
use crate::tasks::{Ended, Form, Input, TaskCall, TaskOwner, record_end, run};
use crate::tools::answer::answer;
use crate::tools::report::Report;

/// Runs the call through the registry in a context of its own: the
/// request's token (cancelled by the client's `notifications/cancelled`,
/// and by the server's context), and, when the client sent a
/// `progressToken`, a listener that sends each report as
/// `notifications/progress`, and one that sends the log lines of the
/// levels the client wants as `notifications/message`. A `long_running` tool's result is waited
/// for, unless the client takes tasks (the extension): then the answer is
/// a task that follows the call, with a token of its own that
/// `tasks/cancel` cancels.
pub(crate) async fn call_tool<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let current = server.current.get();
    let registry = &current.registry;
    // One look-up for what the call needs to know of its tool.
    let tool = registry.info(&request.name).map(|tool| {
        let metadata = &tool.metadata;
        (
            metadata.long_running,
            metadata.tier,
            (metadata.asks, metadata.samples),
        )
    });
    let as_task = tool.is_some_and(|(long_running, ..)| long_running)
        && context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
    if as_task {
        return match start_task(server, request, &context, Form::Extension, None).await? {
            TaskStart::Task(task) => Ok(CallToolResponse::Task(CreateTaskResult::new(task))),
            TaskStart::Answered(result) => Ok(result.into()),
            TaskStart::InputRequired(asked) => Ok(asked.into()),
        };
    }
    let base = server.context_for(&context);
    let token = context.ct.clone();
    let ctx = ContextBuilder::from(base.clone())
        .cancellation(token.clone())
        .build();
    let tier = tool.map(|(_, tier, _)| tier);
    // A `Confirm` call asks the person too, in 2026-07-28 in its round.
    let (asks, samples) = tool.map_or((false, false), |(.., asks)| asks);
    let asks = (asks || tier == Some(ToolTier::Confirm), samples);
    let (ctx, round) = match with_asker(server, asks, (&request).into(), &context, ctx)? {
        Asking::Ready(ctx, round) => (ctx, round),
        Asking::NoSampling if stateless(&context) => return Err(no_sampling(&request.name)),
        Asking::NoSampling => {
            let refused = ToolResult::from(ToolError::Unavailable {
                tool: request.name.to_string(),
                reason: "it asks the client's model (sampling), and this MCP client does not \
                         take sampling"
                    .to_owned(),
            });
            return answer(&refused).map(Into::into);
        }
    };
    let mut ctx = with_approver(server, registry, tier, (&context, round.as_ref()), ctx);
    let progress_token = context.meta.get_progress_token();
    let wanted = server.log_levels.wanted(&context);
    // Most calls have no one to report to: no channel for them.
    let mut reports = None;
    if progress_token.is_some() || wanted.is_some() {
        let (sender, receiver) = mpsc::unbounded_channel();
        let mut builder = ContextBuilder::from(ctx);
        if progress_token.is_some() {
            let sender = sender.clone();
            builder = builder.progress_listener(move |event: &CallProgress<'_>| {
                // The request has been answered: MCP wants no progress after.
                let _ = sender.send(Sent::Progress(Report::from(event)));
            });
        }
        if let Some(wanted) = wanted {
            builder = builder.log_listener(move |log: &CallLog<'_>| {
                if log.level >= wanted {
                    let _ = sender.send(Sent::Log(notification(log)));
                }
            });
        }
        ctx = builder.build();
        reports = Some(receiver);
    }
    let arguments = Value::Object(request.arguments.unwrap_or_default());
    let run = async {
        let result = registry.call(&ctx, &request.name, arguments).await;
        let Some(id) = result.pending_call_id().map(str::to_owned) else {
            return result;
        };
        tokio::select! {
            waited = registry.pending().wait(&id) => waited.unwrap_or(result),
            () = token.cancelled() => result,
        }
    };
    tokio::pin!(run);
    let server_cancelled = base.cancellation().cancelled();
    tokio::pin!(server_cancelled);
    let mut relayed = false;
    let result = loop {
        // The call first: most end on their first poll, before anything
        // polls the server's token, which every call shares.
        tokio::select! {
            biased;
            result = &mut run => break result,
            () = asked(round.as_deref()) => {
                // What the run asks at once goes in the same round.
                if let Some(result) = poll_once(run.as_mut()).await {
                    break result;
                }
                if let Some(round) = &round {
                    return round.input_required(&server.config.request_state).map(Into::into);
                }
            }
            Some(report) = next(&mut reports) => {
                notify(&context.peer, progress_token.as_ref(), report).await;
            }
            () = &mut server_cancelled, if !relayed => {
                relayed = true;
                token.cancel();
            }
        }
    };
    // What the call reported before it ended goes before the response.
    if let Some(reports) = &mut reports {
        reports.close();
        while let Ok(report) = reports.try_recv() {
            notify(&context.peer, progress_token.as_ref(), report).await;
        }
    }
    // Tools a search found join the caller's list: it is told so.
    if let Some(found) = &server.found
        && found.take(
            || TaskOwner::of(&context, server.config.verifier.is_some()),
            &result,
        )
    {
        let _ = context.peer.notify_tool_list_changed().await;
    }
    answer(&result).map(Into::into)
}

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
    let base = server.context_for(context);
    let registry = Arc::clone(&server.current.get().registry);
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
            let refused = ToolResult::from(ToolError::Unavailable {
                tool: request.name.to_string(),
                reason: format!("its task could not be recorded, so it did not run: {error}"),
            });
            return match form {
                Form::Extension => answer(&refused).map(TaskStart::Answered),
                Form::Spec2025 => Err(ErrorData::internal_error(
                    refused.model_text().into_owned(),
                    None,
                )),
            };
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

/// What a running call sends the client before its answer, in the order
/// it was written.
// rmcp marks logging deprecated (SEP-2577); 2025-11-25 and 2026-07-28
// both have it.
#[allow(deprecated)]
enum Sent {
    /// A report of progress: `notifications/progress`.
    Progress(Report),
    /// A log line of a level the client wants: `notifications/message`.
    Log(LoggingMessageNotificationParam),
}

/// The next report, or never for a call without a channel.
async fn next(reports: &mut Option<mpsc::UnboundedReceiver<Sent>>) -> Option<Sent> {
    match reports {
        Some(reports) => reports.recv().await,
        None => std::future::pending().await,
    }
}

async fn notify(peer: &Peer<RoleServer>, token: Option<&ProgressToken>, sent: Sent) {
    let outcome = match sent {
        Sent::Progress(report) => {
            let Some(token) = token else { return };
            let mut params = ProgressNotificationParam::new(token.clone(), report.done);
            params.total = report.total;
            params.message = report.message;
            peer.notify_progress(params).await
        }
        #[allow(deprecated)]
        Sent::Log(line) => peer.notify_logging_message(line).await,
    };
    // A client that has gone away hears nothing; the call's result is
    // still made.
    if let Err(error) = outcome {
        tracing::debug!(%error, "notification not sent");
    }
}
