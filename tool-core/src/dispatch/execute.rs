//! Step 6 of a call: the run, one at a time if the tool asks it, under its
//! time limit, with a panic turned into an error result.

use std::any::Any;
use std::future::{Future, poll_fn};
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use futures_util::FutureExt;

use crate::BoxFuture;
use crate::dispatch::one_at_a_time::{OneAtATime, OneAtATimeGuard};
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::tool::context::CallerToken;
use crate::tool::shared_call::SharedCall;

/// What is left of a started tool's run, which may borrow what the call
/// holds (`'t`): the context lent to the tool, the tool's turn if it
/// started in it.
pub(crate) enum Run<'t> {
    /// A plain function's call: no timer can stop it.
    Call(Box<dyn FnOnce() -> ToolResult + Send + 't>),
    Wait(BoxFuture<'t, ToolResult>),
    /// An `async` run started in its turn (if the tool takes turns), to be
    /// polled once in the call's own poll (`Pipeline::poll_now`).
    Now(BoxFuture<'t, ToolResult>, Option<OneAtATimeGuard<'t>>),
    /// An `async` run polled once already, which said it waits: in the
    /// turn it holds, if the tool takes turns. It is polled again only
    /// when it wakes the call, so that a tool that yields (`yield_now`)
    /// yields.
    Polled(BoxFuture<'t, ToolResult>, Option<OneAtATimeGuard<'t>>),
    /// A `long_running` tool's run, which owns all it needs: it goes on in
    /// a task of its own.
    Detached(Work<'static>),
}

/// The work of a run: a plain function's call, or a future.
pub(crate) enum Work<'t> {
    Call(Box<dyn FnOnce() -> ToolResult + Send + 't>),
    Wait(BoxFuture<'t, ToolResult>),
}

/// A tool's turn when it is free now, or `None` when the call must wait
/// for it (`Some(None)`: the tool takes no turns).
#[inline]
pub(crate) fn free_turn(exclusive: Option<&OneAtATime>) -> Option<Option<OneAtATimeGuard<'_>>> {
    match exclusive {
        None => Some(None),
        Some(turn) => turn.try_take().map(Some),
    }
}

/// Polls a run that has just started, once, in the call's own task: most
/// `async` tools that need no waiting are done then, with no timer, no
/// turn held past it and no future around them. A panic is the result.
pub(crate) fn poll_once(
    tool: &str,
    run: &mut BoxFuture<'_, ToolResult>,
    cx: &mut Context<'_>,
) -> Poll<ToolResult> {
    std::panic::catch_unwind(AssertUnwindSafe(|| run.as_mut().poll(cx)))
        .unwrap_or_else(|panic| Poll::Ready(panicked(tool, panic.as_ref())))
}

/// Step 6: one at a time if the tool asks it, under the time limit, with a
/// panic turned into an error result. A call whose caller cancels it
/// while it waits for its turn never starts.
pub(crate) async fn execute(
    tool: &str,
    run: Run<'_>,
    call: Option<&SharedCall>,
    timeout: Duration,
    exclusive: Option<&OneAtATime>,
    caller: CallerToken<'_>,
) -> ToolResult {
    // A run started at once holds its turn; one polled once has started.
    let polled = matches!(run, Run::Polled(..));
    let (run, _started_turn, held) = match run {
        Run::Polled(run, turn) | Run::Now(run, turn) => (Work::Wait(run), turn, true),
        Run::Wait(run) | Run::Detached(Work::Wait(run)) => (Work::Wait(run), None, false),
        Run::Call(run) | Run::Detached(Work::Call(run)) => (Work::Call(run), None, false),
    };
    let _turn = match exclusive.filter(|_| !held) {
        // A free turn is taken without watching the token: most are.
        Some(turn) => match turn.try_take() {
            Some(taken) => Some(taken),
            // Boxed: the wait's future is kept out of every call's.
            None => {
                Box::pin(async {
                    tokio::select! {
                        biased;
                        () = caller.token().cancelled() => None,
                        taken = turn.take() => Some(taken),
                    }
                })
                .await
            }
        },
        None => None,
    };
    // Also when the turn and the cancel came together, or before the
    // call came here.
    if !polled && caller.cancelled() {
        return ToolError::Cancelled {
            tool: tool.to_owned(),
        }
        .into();
    }
    let run = match run {
        // Nothing to time: work that never waits cannot be stopped.
        Work::Call(run) => {
            return std::panic::catch_unwind(AssertUnwindSafe(run))
                .unwrap_or_else(|panic| panicked(tool, panic.as_ref()));
        }
        Work::Wait(run) => run,
    };
    let guarded = AssertUnwindSafe(run).catch_unwind();
    match (LazyTimeout {
        inner: guarded,
        limit: timeout,
        sleep: None,
        polled,
        asks: call.filter(|call| call.desk().0),
    })
    .await
    {
        Some(Ok(result)) => result,
        Some(Err(panic)) => panicked(tool, panic.as_ref()),
        None => {
            if let Some(call) = call {
                call.cancel();
            }
            ToolError::Timeout {
                tool: tool.to_owned(),
                after: timeout,
            }
            .into()
        }
    }
}

/// A time limit whose timer starts only if the future does not finish on
/// its first poll: most tool calls do, and then cost no timer and no clock
/// read. `None` when the time ran out. `polled`: the future was polled once
/// already where the call started and waits to be woken, so the first poll
/// here only starts the timer.
struct LazyTimeout<'c, F> {
    inner: F,
    limit: Duration,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    polled: bool,
    /// The call of a tool that asks the person: the time its questions
    /// wait is given back to its limit.
    asks: Option<&'c SharedCall>,
}

impl<F: Future + Unpin> Future for LazyTimeout<'_, F> {
    type Output = Option<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if !std::mem::take(&mut this.polled)
            && let Poll::Ready(output) = Pin::new(&mut this.inner).poll(cx)
        {
            return Poll::Ready(Some(output));
        }
        let limit = this.limit;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        loop {
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            let Some(call) = this.asks else {
                return Poll::Ready(None);
            };
            // The time a question waited does not count; while one waits,
            // the limit is looked at again a second later at the soonest.
            let (owed, waiting) = call.take_question_time();
            let owed = if waiting {
                owed.max(QUESTION_RECHECK)
            } else {
                owed
            };
            if owed.is_zero() {
                return Poll::Ready(None);
            }
            let deadline = sleep.deadline() + owed;
            sleep.as_mut().reset(deadline);
        }
    }
}

/// How soon a time limit that ran out while its call's question waits is
/// looked at again.
const QUESTION_RECHECK: Duration = Duration::from_secs(1);

/// The result of a call that panicked.
pub(crate) fn panicked(tool: &str, panic: &(dyn Any + Send)) -> ToolResult {
    ToolError::Panicked {
        tool: tool.to_owned(),
        message: panic_message(panic),
    }
    .into()
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// Runs `start` once, with the waker of the poll it is awaited in: a tool
/// that may run at once is polled first where it starts.
pub(crate) fn with_waker<T>(start: impl FnOnce(&Waker) -> T + Unpin) -> impl Future<Output = T> {
    let mut start = Some(start);
    poll_fn(move |cx: &mut Context<'_>| match start.take() {
        Some(start) => Poll::Ready(start(cx.waker())),
        // Never polled again once ready.
        None => Poll::Pending,
    })
}
