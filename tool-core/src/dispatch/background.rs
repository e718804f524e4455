//! Step 6 for a `long_running` tool: the run goes on in a task of its own,
//! and the call's result, a pending one, comes back at once.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::dispatch::call_data::CallData;
use crate::dispatch::entry::Entry;
use crate::dispatch::execute::{Run, Work, execute};
use crate::dispatch::output::bound_media;
use crate::dispatch::pending::PendingCalls;
use crate::dispatch::pending::memory::MemoryCalls;
use crate::dispatch::pending::stored::StoredCalls;
use crate::dispatch::pipeline::Pipeline;
use crate::error::tool_error::ToolError;
use crate::observe::observer::CallFinished;
use crate::observe::observer::quietly;
use crate::output::result::ToolResult;
use crate::tool::context::CallerToken;
use crate::tool::shared_call::SharedCall;

impl<Ctx: Send + Sync + 'static> Pipeline<Ctx> {
    /// Step 6 for a `long_running` tool: a pending result now, the tool's
    /// (or a delivered) result later through [`Pending::wait`](crate::registry::Pending::wait).
    pub(crate) async fn run_in_background(
        &self,
        entry: &Entry<Ctx>,
        call: &CallData<'_>,
        run: Work<'static>,
        timeout: Duration,
        caller: CancellationToken,
    ) -> ToolResult {
        match &*self.pending {
            PendingCalls::Memory { calls, .. } => {
                self.run_in_memory(calls, entry, call, run, timeout, caller)
                    .await
            }
            // Boxed: only calls kept in a store pay for its future.
            PendingCalls::Stored(calls) => {
                Box::pin(self.run_stored(calls, entry, call, run, timeout, caller)).await
            }
        }
    }

    async fn run_in_memory(
        &self,
        calls: &MemoryCalls,
        entry: &Entry<Ctx>,
        call: &CallData<'_>,
        run: Work<'static>,
        timeout: Duration,
        caller: CancellationToken,
    ) -> ToolResult {
        let name = entry.name.to_string();
        let id = call.id();
        let pending = ToolResult::pending(&name, id);
        let Some(opened) = calls.open(id) else {
            // The same call is running already: one run, one result.
            return pending;
        };
        let pending_timeout = self.settings.pending_timeout;
        let finished = self.finisher(entry, call);
        let exclusive = entry.exclusive.clone();
        let calls_here = Arc::clone(&self.pending);
        let task = async move {
            let call = &finished.call;
            let result = finished.execute(run, timeout, exclusive, caller).await;
            let result = if result.is_deferred() {
                match tokio::time::timeout(pending_timeout, opened.delivered).await {
                    Ok(Ok(delivered)) => delivered,
                    _ => {
                        call.cancel();
                        ToolError::PendingTimeout {
                            tool: finished.name.clone(),
                            call_id: call.id().to_string(),
                            after: pending_timeout,
                        }
                        .into()
                    }
                }
            } else {
                result
            };
            let result = finished.observe(result);
            // Kept for waiters to come, if none waits yet; forgotten once
            // no one took it in the pending timeout, as a store forgets.
            opened.finish.send_replace(Some(result));
            tokio::time::sleep(pending_timeout).await;
            if let PendingCalls::Memory { calls, .. } = &*calls_here {
                calls.forget(finished.call.id(), &opened.finish);
            }
        };
        // Started here, once, as a stored call is: what the tool does
        // before it first waits (the questions an `asks_first` tool asks
        // before its task begins) is done before the call returns.
        let mut task = Box::pin(task.instrument(self.span(entry, id)));
        if poll_once(task.as_mut()).await.is_pending() {
            tokio::spawn(task);
        }
        pending
    }

    /// The same for a registry whose pending calls are kept in a store: the
    /// call is claimed in the store before the pending result is given, so
    /// that any process sharing the store can wait on it or deliver to it
    /// at once.
    async fn run_stored(
        &self,
        calls: &Arc<StoredCalls>,
        entry: &Entry<Ctx>,
        call: &CallData<'_>,
        run: Work<'static>,
        timeout: Duration,
        caller: CancellationToken,
    ) -> ToolResult {
        let name = entry.name.to_string();
        let id = call.id();
        let pending = ToolResult::pending(&name, id);
        let pending_timeout = self.settings.pending_timeout;
        let owner = call.scope().caller();
        let claim = match calls
            .open(id, &name, owner, timeout + pending_timeout)
            .await
        {
            Ok(Some(claim)) => claim,
            // Pending already, here or in another process: one run.
            Ok(None) => return pending,
            Err(error) => {
                return ToolError::Unavailable {
                    tool: name,
                    reason: format!("its call could not be recorded, so it did not run: {error}"),
                }
                .into();
            }
        };
        let finished = Arc::new(self.finisher(entry, call));
        let exclusive = entry.exclusive.clone();
        let mut running = Box::pin({
            let finished = Arc::clone(&finished);
            async move { finished.execute(run, timeout, exclusive, caller).await }
        });
        // Started here, once: a tool that defers at once (one the client
        // runs) is recorded as awaiting its delivery before the call
        // returns, so that the turn can be finished by whoever delivers,
        // even if this process ends now.
        let started = poll_once(running.as_mut()).await;
        let settled = match &started {
            Poll::Ready(result) if result.is_deferred() => claim.defer(pending_timeout).await,
            _ => None,
        };
        let task = async move {
            let result = match started {
                Poll::Ready(result) => result,
                Poll::Pending => running.await,
            };
            let (result, recorded) = match settled {
                Some(settled) => settled,
                None if result.is_deferred() => {
                    let (result, recorded) = claim.delivery(pending_timeout).await;
                    if result.tool_error().is_some_and(|error| {
                        matches!(
                            error,
                            ToolError::PendingTimeout { .. } | ToolError::Lost { .. }
                        )
                    }) {
                        finished.call.cancel();
                    }
                    (result, recorded)
                }
                None => (result, false),
            };
            let result = finished.observe(result);
            if recorded {
                claim.forget();
            } else {
                claim.finish(result, pending_timeout).await;
            }
        };
        tokio::spawn(task.instrument(self.span(entry, id)));
        pending
    }

    fn span(&self, entry: &Entry<Ctx>, id: &str) -> tracing::Span {
        tracing::info_span!("tool_call_background", tool = %entry.name, call_id = id)
    }

    /// What the end of a background run needs: the call, its tool's name,
    /// and what to bound and tell of its result.
    fn finisher(&self, entry: &Entry<Ctx>, call: &CallData<'_>) -> Finisher {
        Finisher {
            name: entry.name.to_string(),
            call: call.shared(self.progress.as_ref()),
            observer: self.observer.clone(),
            max_media_bytes: self.settings.max_media_bytes,
            start: Instant::now(),
        }
    }
}

/// The end of a background run.
struct Finisher {
    name: String,
    call: Arc<SharedCall>,
    observer: Option<Arc<dyn crate::observe::observer::CallObserver>>,
    max_media_bytes: usize,
    start: Instant,
}

impl Finisher {
    /// The tool's run, in the task of its own.
    async fn execute(
        &self,
        run: Work<'static>,
        timeout: Duration,
        exclusive: Option<Arc<crate::dispatch::one_at_a_time::OneAtATime>>,
        caller: CancellationToken,
    ) -> ToolResult {
        let caller = OnceLock::from(caller);
        execute(
            &self.name,
            Run::Detached(run),
            Some(&self.call),
            timeout,
            exclusive.as_deref(),
            CallerToken(&caller),
        )
        .await
    }

    /// The result, its media bounded, told to the observer.
    fn observe(&self, result: ToolResult) -> ToolResult {
        let result = bound_media(&self.name, result, self.max_media_bytes);
        if let Some(observer) = &self.observer {
            let event = CallFinished {
                tool: &self.name,
                call_id: self.call.id(),
                duration: self.start.elapsed(),
                result: &result,
            };
            quietly(|| observer.call_finished(&event));
        }
        result
    }
}

/// `future` polled once, in the task that awaits this.
async fn poll_once<F: Future + ?Sized>(mut future: Pin<&mut F>) -> Poll<F::Output> {
    poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await
}
