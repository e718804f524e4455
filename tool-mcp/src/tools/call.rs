//! `tools/call`: one request through the registry, with the request's
//! cancellation and progress, or as a task.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, CreateTaskResult, ErrorCode,
    ProgressNotificationParam, ProgressToken, TASKS_EXTENSION_ID,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::context::ContextBuilder;
use tool_core::observe::{CallLog, CallProgress};
use tool_core::policy::ToolTier;
use tool_core::{ToolContext, ToolError, ToolResult};

use crate::asking::approval::with_approver;
use crate::asking::input_required::{asked, poll_once};
use crate::asking::{Asking, no_sampling, stateless, with_asker};
use crate::http::hold::HeadHold;
use crate::server::logging::notification;
use crate::server::{ContextSource, McpServer};
use crate::tasks::start::{TaskStart, start_task};
use crate::tasks::{Form, TaskOwner};
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
    let registry = &server.current.registry();
    // One look-up for what the call needs to know of its tool.
    let mut tasks_only = false;
    let tool = registry.info(&request.name).map(|tool| {
        let metadata = &tool.metadata;
        tasks_only = metadata.tasks_only;
        (
            metadata.long_running,
            metadata.tier,
            (metadata.asks, metadata.samples),
        )
    });
    let follows_tasks = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks());
    // A tool that runs only as a task, called by a client that cannot
    // follow one: refused before it runs.
    if tasks_only && !follows_tasks {
        return Err(refused_tasks_only(&request.name, stateless(&context)));
    }
    let as_task = tool.is_some_and(|(long_running, ..)| long_running) && follows_tasks;
    if as_task {
        return match start_task(server, request, &context, Form::Extension, None).await? {
            TaskStart::Task(task) => Ok(CallToolResponse::Task(CreateTaskResult::new(task))),
            TaskStart::Answered(result) => Ok(result.into()),
            TaskStart::InputRequired(asked) => Ok(asked.into()),
        };
    }
    // The request's token: cancelled by the client, and by the server.
    let token = &context.ct;
    let (ctx, server_token) = call_context(server, &context);
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
    // Most calls have no one to report to: no outbox for them.
    let mut reports = None;
    if progress_token.is_some() || wanted.is_some() {
        let outbox = Arc::new(Outbox::default());
        let mut builder = ContextBuilder::from(ctx);
        if progress_token.is_some() {
            let outbox = Arc::clone(&outbox);
            builder = builder.progress_listener(move |event: &CallProgress<'_>| {
                outbox.push(Sent::Progress(Report::from(event)));
            });
        }
        if let Some(wanted) = wanted {
            let outbox = Arc::clone(&outbox);
            builder = builder.log_listener(move |log: &CallLog<'_>| {
                if log.level >= wanted {
                    outbox.push(Sent::Log(notification(log)));
                }
            });
        }
        ctx = builder.build();
        reports = Some(outbox);
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
    let server_cancelled = server_token.cancelled();
    tokio::pin!(server_cancelled);
    let mut relayed = false;
    // Over HTTP, the answer's head waits for the answer while the call
    // runs at once; a call that waits lets it go (`http_hold`).
    let hold = HeadHold::of(&context);
    let first = poll_once(run.as_mut()).await;
    if first.is_none()
        && let Some(hold) = hold
    {
        hold.release();
    }
    let result = if let Some(result) = first {
        result
    } else {
        loop {
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
                report = next(reports.as_deref()) => {
                    notify(&context.peer, progress_token.as_ref(), report).await;
                }
                () = &mut server_cancelled, if !relayed => {
                    relayed = true;
                    token.cancel();
                }
            }
        }
    };
    // What the call reported before it ended goes before the response.
    if let Some(reports) = &reports {
        for report in reports.close() {
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
    if let Some(hold) = hold {
        hold.keep();
    }
    answer(&result).map(Into::into)
}

/// The context a request's call runs in: the server's (or the one made for
/// the request) with the request's token, naming its caller
/// ([`McpServer::request_context`]); and the server's token, which cancels
/// the call too. The token is set first, so that the context's shared
/// parts are copied once, and the server's token is borrowed, neither
/// cloned nor locked: every call of the server shares it.
fn call_context<'a, Ctx: Send + Sync + 'static>(
    server: &'a McpServer<Ctx>,
    context: &RequestContext<RoleServer>,
) -> (ToolContext<Ctx>, Cow<'a, CancellationToken>) {
    let (base, server_token) = match &server.context {
        ContextSource::Fixed(ctx) => (ctx.clone(), Cow::Borrowed(ctx.cancellation())),
        ContextSource::PerRequest(make) => {
            let ctx = make(context);
            let server_token = Cow::Owned(ctx.cancellation().clone());
            (ctx, server_token)
        }
    };
    let ctx = ContextBuilder::from(base)
        .cancellation(context.ct.clone())
        .build();
    (server.request_context(ctx, context), server_token)
}

/// The refusal of a call of a `tasks_only` tool by a client that cannot
/// follow a task: in 2026-07-28, -32021 naming the tasks extension; in a
/// session of 2025-11-25, -32601, as that version's tasks say.
fn refused_tasks_only(tool: &str, stateless: bool) -> ErrorData {
    let message = format!(
        "tool `{tool}` runs only as a task, and this call cannot be one: the client did not declare the tasks extension (`{TASKS_EXTENSION_ID}`), nor call it with `task`"
    );
    if !stateless {
        return ErrorData::new(ErrorCode::METHOD_NOT_FOUND, message, None);
    }
    let mut error = ErrorData::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    );
    error.message = message.into();
    error
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

/// What a running call sent, in the order it was written, queued by its
/// context's listeners for the request to send: one small allocation a
/// call, where a channel took two, one of them 2 kB.
#[derive(Default)]
struct Outbox {
    queue: Mutex<Queue>,
    ready: Notify,
}

/// An outbox's reports. Open as made (its default): a closed queue, by
/// default, lost every report a call made and left the request waiting
/// for one.
#[derive(Default)]
struct Queue {
    sent: VecDeque<Sent>,
    /// Set once the call has ended: what it sends then is dropped, as MCP
    /// wants nothing of a request after its answer.
    closed: bool,
}

impl Outbox {
    fn push(&self, sent: Sent) {
        let mut queue = self.lock();
        if !queue.closed {
            queue.sent.push_back(sent);
            self.ready.notify_one();
        }
    }

    /// The next report, once there is one.
    async fn next(&self) -> Sent {
        loop {
            if let Some(sent) = self.lock().sent.pop_front() {
                return sent;
            }
            // A report pushed since the look above left a permit: no wait.
            self.ready.notified().await;
        }
    }

    /// What is still queued; nothing more is taken after.
    fn close(&self) -> VecDeque<Sent> {
        let mut queue = self.lock();
        queue.closed = true;
        std::mem::take(&mut queue.sent)
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A queue is whole after every statement: a panic elsewhere leaves
        // nothing half-done.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The next report, or never for a call without an outbox.
async fn next(reports: Option<&Outbox>) -> Sent {
    match reports {
        Some(reports) => reports.next().await,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(done: f64) -> Sent {
        Sent::Progress(Report {
            done,
            total: None,
            message: None,
        })
    }

    fn done(sent: &Sent) -> f64 {
        match sent {
            Sent::Progress(report) => report.done,
            Sent::Log(_) => f64::NAN,
        }
    }

    #[tokio::test]
    async fn a_new_outbox_takes_reports_and_gives_them_in_order() {
        let outbox = Outbox::default();
        outbox.push(progress(1.0));
        outbox.push(progress(2.0));
        assert_eq!(done(&outbox.next().await), 1.0);
        outbox.push(progress(3.0));
        let rest: Vec<f64> = outbox.close().iter().map(done).collect();
        assert_eq!(rest, [2.0, 3.0]);
    }

    #[test]
    fn a_closed_outbox_takes_nothing() {
        let outbox = Outbox::default();
        assert!(outbox.close().is_empty());
        outbox.push(progress(1.0));
        assert!(outbox.close().is_empty());
    }
}
