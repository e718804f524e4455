//! The pipeline every call of a found tool goes through, in order: read the
//! raw arguments, validate them against the schema, deserialize them, check
//! policy, execute under a timeout with panics caught (`execute.rs`), and
//! shape the output.

use std::future::poll_fn;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};
use std::task::Poll;

use tokio::time::Instant;

use futures_util::FutureExt;
use serde_json::Value;
use tracing::Instrument;

use crate::dispatch::call_data::CallData;
use crate::dispatch::entry::Entry;
use crate::dispatch::execute::{Run, execute, panicked, poll_once, with_waker};
use crate::dispatch::output::finished;
use crate::dispatch::pending::PendingCalls;
use crate::dispatch::pending::parked::Parking;
use crate::dispatch::read::raw::normalize;
use crate::dispatch::settings::{Settings, Validation};
use crate::error::echo::Echo;
use crate::error::tool_error::ToolError;
use crate::observe::observer::CallObserver;
use crate::output::result::ToolResult;
use crate::tool::approval::Approval;
use crate::tool::approval::DynApprovalHook;
use crate::tool::approval::{ApprovalRequest, NO_HOOK};
use crate::tool::call_id::random_id;
use crate::tool::context::ToolContext;
use crate::tool::metadata::ToolTier;
use crate::tool::progress::ProgressSink;
use crate::tool::shared_call::SharedCall;

/// How far [`Pipeline::begin`] took a call, in the tool's turn (`'t`) if
/// it started in it.
pub(super) enum BeginOutcome<'t> {
    /// To its result.
    Done(ToolResult),
    /// To a started tool that has yet to be approved, run or both.
    Waits(Run<'t>),
}

/// Everything a call goes through after its tool is found, and what it
/// needs: the limits, the approval hook, the observer and the pending calls.
pub(crate) struct Pipeline<Ctx> {
    pub(crate) settings: Settings,
    pub(crate) approval: Option<Arc<dyn DynApprovalHook<Ctx>>>,
    pub(crate) observer: Option<Arc<dyn CallObserver>>,
    /// The same observer, as the calls a tool sees report progress to it.
    pub(crate) progress: Option<Arc<dyn ProgressSink>>,
    pub(crate) pending: Arc<PendingCalls>,
}

// Not derived: that would ask `Ctx: Clone`. A clone shares the pending
// calls, so a registry's next version delivers what this one began.
impl<Ctx> Clone for Pipeline<Ctx> {
    fn clone(&self) -> Self {
        Self {
            settings: self.settings,
            approval: self.approval.clone(),
            observer: self.observer.clone(),
            progress: self.progress.clone(),
            pending: Arc::clone(&self.pending),
        }
    }
}

impl<Ctx> Pipeline<Ctx> {
    pub(crate) fn new(settings: Settings) -> Self {
        Self {
            settings,
            approval: None,
            observer: None,
            progress: None,
            pending: Arc::default(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> Pipeline<Ctx> {
    /// Runs a call of `name`, the tool found under it or the error that
    /// there is none, on the model's arguments: the steps of
    /// [`ToolRegistry::call`](crate::ToolRegistry::call), in order.
    pub(crate) async fn call(
        &self,
        ctx: &ToolContext<Ctx>,
        name: &str,
        found: Result<(&Entry<Ctx>, &Value), Box<ToolError>>,
        mut args: Value,
    ) -> ToolResult {
        // The name bounded: it may be no tool's. The id, a hash, is made
        // only for someone who reads it.
        let span =
            tracing::info_span!("tool_call", tool = %Echo(name), call_id = tracing::field::Empty);
        let watched = self.observer.is_some() || !span.is_disabled();
        let start = self.observer.is_some().then(Instant::now);
        let (entry, input_schema) = match self.found(ctx, name, found, (&span, start)) {
            Ok(found) => found,
            Err(refused) => return refused,
        };
        // Steps 2 to 7 the short way: OpenAI's arguments are a JSON string,
        // and a tool that needs nothing of them but its input reads it
        // straight out of the text. Not where every call is to be checked
        // against the schema first: the text is never a value to check.
        if let Value::String(text) = &mut args
            && !watched
            && entry.reads_text
            && self.settings.validation != Validation::Always
        {
            let mut lent = None;
            let begun = with_waker(|waker| self.begin_text(entry, ctx, text, &mut lent, waker));
            match begun.await {
                None => {}
                Some(Ok((BeginOutcome::Done(result), _))) => return result,
                Some(Err(panic)) => return panicked(name, panic.as_ref()),
                // Boxed, as every wait: a call that finishes at once, as
                // most do, then moves and drops a small future.
                Some(Ok((BeginOutcome::Waits(run), lent))) => {
                    return match self.poll_now(entry, run).await {
                        Ok(result) => result,
                        Err(run) => {
                            let shared = lent.and_then(ToolContext::shared_call).cloned();
                            Box::pin(self.end_text(entry, ctx, args, run, shared)).await
                        }
                    };
                }
            }
            // A read that failed took the text into the call's context.
            if let Some(lent) = lent {
                *text = lent.into_call_text();
            }
        }
        // Step 2: the raw arguments, held as the call's.
        let mut call = match normalize(name, args, self.settings.max_argument_bytes) {
            Ok(arguments) => self.hold(entry, ctx, arguments),
            Err(error) => return self.refuse(&span, start, name, error),
        };
        if watched {
            span.record("call_id", call.id());
            self.started(name, call.id());
        }
        // Steps 3 to 7. A panic outside the tool's own run (in a
        // `Deserialize` impl, a check, the hook) ends the call as one in it.
        let begun = {
            let _entered = span.enter();
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                self.begin(entry, input_schema, ctx, &mut call)
            }))
        };
        let result = match begun {
            Ok(BeginOutcome::Done(result)) => result,
            Ok(BeginOutcome::Waits(run)) => self.go_on_held(entry, ctx, &call, run, &span).await,
            Err(panic) => panicked(name, panic.as_ref()),
        };
        if let Some(start) = start {
            self.finished(name, call.id(), start, &result);
        }
        result
    }

    /// Step 1: the tool, or the refusal of a call of no tool's name (the
    /// observer gets the name bounded) or one its caller gave up on before
    /// it came here (in a batch, it may have waited for the calls before
    /// it).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn found<'f>(
        &self,
        ctx: &ToolContext<Ctx>,
        name: &str,
        found: Result<(&'f Entry<Ctx>, &'f Value), Box<ToolError>>,
        (span, start): (&tracing::Span, Option<Instant>),
    ) -> Result<(&'f Entry<Ctx>, &'f Value), ToolResult> {
        let (entry, input_schema) = match found {
            Ok(found) => found,
            Err(unknown) => {
                let shown = Echo(name).to_string();
                return Err(self.refuse(span, start, &shown, *unknown));
            }
        };
        if ctx.caller_cancelled() {
            return Err(self.refuse(span, start, name, cancelled(entry)));
        }
        Ok((entry, input_schema))
    }

    /// A call that ends before its tool is read: its result, reported to
    /// whoever watches under the name `shown`, with an id of its own
    /// (nothing of it waits, to be found under its id).
    #[cold]
    fn refuse(
        &self,
        span: &tracing::Span,
        start: Option<Instant>,
        shown: &str,
        error: ToolError,
    ) -> ToolResult {
        let result = ToolResult::from(error);
        if self.observer.is_some() || !span.is_disabled() {
            self.report(span, shown, &random_id(), start, &result);
        }
        result
    }

    /// Step 2, once the arguments are one object (`read/raw.rs`): its
    /// `null`s that mean "left out" dropped, held on the stack, or shared with a
    /// tool that can see the call in its context or runs on in the
    /// background.
    #[inline(always)]
    fn hold<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        ctx: &'e ToolContext<Ctx>,
        mut arguments: Value,
    ) -> CallData<'e> {
        if let Some(absent) = &entry.schemas.absent_nulls {
            absent.strip(&mut arguments);
        }
        if entry.uses_context || entry.metadata.long_running {
            let call = SharedCall::new(entry.name.clone(), arguments, self.progress.clone())
                .of(ctx.scope().clone(), ctx.given_call_id_shared());
            CallData::Shared(Arc::new(if entry.metadata.asks {
                call.asking_through(Arc::clone(self.pending.desk()) as _)
            } else {
                call
            }))
        } else {
            CallData::Local {
                tool: &entry.name,
                arguments,
                scope: ctx.scope(),
                given: ctx.given_call_id(),
                id: OnceLock::new(),
            }
        }
    }

    /// The rest of a held call whose run waits, in its span: polled once
    /// if it started at once, then, boxed as every wait, the approval and
    /// the run under its time limit.
    async fn go_on_held(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        call: &CallData<'_>,
        run: Run<'_>,
        span: &tracing::Span,
    ) -> ToolResult {
        match self.poll_now(entry, run).instrument(span.clone()).await {
            Ok(result) => result,
            Err(run) => {
                Box::pin(self.go_on_caught(entry, ctx, &entry.name, call, run))
                    .instrument(span.clone())
                    .await
            }
        }
    }

    /// The rest of a call begun from its text, whose run waits.
    pub(super) async fn end_text(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        args: Value,
        run: Run<'_>,
        shared: Option<Arc<SharedCall>>,
    ) -> ToolResult {
        let call = match shared {
            Some(call) => CallData::Shared(call),
            None => CallData::Local {
                tool: &entry.name,
                arguments: args,
                scope: ctx.scope(),
                given: ctx.given_call_id(),
                id: OnceLock::new(),
            },
        };
        self.go_on_caught(entry, ctx, &entry.name, &call, run).await
    }

    /// [`go_on`](Self::go_on), a panic in it the call's result.
    async fn go_on_caught(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        name: &str,
        call: &CallData<'_>,
        run: Run<'_>,
    ) -> ToolResult {
        AssertUnwindSafe(self.go_on(entry, ctx, call, run))
            .catch_unwind()
            .await
            .unwrap_or_else(|panic| panicked(name, panic.as_ref()))
    }

    /// A run started at once, polled once in the call's own poll: most end
    /// there, with no timer and no future around them. `Err`: the run,
    /// which waits, for [`go_on`](Self::go_on).
    pub(super) async fn poll_now<'t>(
        &self,
        entry: &Entry<Ctx>,
        run: Run<'t>,
    ) -> Result<ToolResult, Run<'t>> {
        let Run::Now(mut run, turn) = run else {
            return Err(run);
        };
        match poll_fn(|cx| Poll::Ready(poll_once(&entry.name, &mut run, cx))).await {
            Poll::Ready(result) => Ok(finished(entry, result, &self.settings)),
            Poll::Pending => Err(Run::Polled(run, turn)),
        }
    }

    /// The rest of steps 5 to 7 for a tool that [`begin`](Self::begin)
    /// started: the approval, then the run under its time limit.
    async fn go_on(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        call: &CallData<'_>,
        run: Run<'_>,
    ) -> ToolResult {
        let timeout = entry
            .metadata
            .timeout
            .unwrap_or(self.settings.default_timeout);
        // Every wait before the tool starts ends when the caller cancels.
        let caller = ctx.caller_token();
        if entry.metadata.tier == ToolTier::Confirm {
            // Boxed: its future is kept out of every call's.
            let decision = Box::pin(async {
                tokio::select! {
                    biased;
                    () = caller.token().cancelled() => Err(cancelled(entry).into()),
                    decision = self.approve(entry, ctx, call) => decision,
                }
            });
            if let Err(result) = decision.await {
                return result;
            }
        }
        let run = match run {
            Run::Detached(work) => {
                return self
                    .run_in_background(entry, call, work, timeout, caller.token().clone())
                    .await;
            }
            run => run,
        };
        let result = execute(
            &entry.name,
            run,
            call.call(),
            timeout,
            entry.exclusive.as_deref(),
            caller,
        )
        .await;
        finished(entry, result, &self.settings)
    }

    /// Step 5 for a `Confirm` tool: the approval hook's decision, or a
    /// denial without one; the result to give instead of running: a
    /// denial, or the call parked for a decision.
    async fn approve(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        call: &CallData<'_>,
    ) -> Result<(), ToolResult> {
        let tool = &*entry.name;
        let Some(hook) = ctx.approval().or(self.approval.as_deref()) else {
            return Err(ToolError::Denied {
                tool: tool.to_owned(),
                reason: NO_HOOK.to_owned(),
            }
            .into());
        };
        let request = ApprovalRequest {
            tool,
            call_id: call.id(),
            arguments: call.arguments(),
            metadata: &entry.metadata,
            context: ctx,
        };
        match hook.approve(&request).await {
            Approval::Approve => Ok(()),
            Approval::Deny { reason } => Err(ToolError::Denied {
                tool: tool.to_owned(),
                reason,
            }
            .into()),
            Approval::Park => Err(self.park(tool, call).await),
        }
    }

    /// Parks a call for a person's decision: its result is pending until
    /// [`Approvals::decide`](crate::registry::Approvals::decide).
    async fn park(&self, tool: &str, call: &CallData<'_>) -> ToolResult {
        let id = call.id();
        let parked = self
            .pending
            .park(
                id,
                tool,
                call.arguments(),
                call.scope(),
                self.settings.pending_timeout,
            )
            .await;
        match parked {
            // Parked now, or already: one parking, one decision.
            Ok(Parking::Parked) => ToolResult::parked(tool, id),
            // Decided already: its result follows, as a pending call's.
            Ok(Parking::Decided) => ToolResult::pending(tool, id),
            Err(error) => ToolError::Unavailable {
                tool: tool.to_owned(),
                reason: format!("its call could not be parked for approval: {error}"),
            }
            .into(),
        }
    }
}

/// The error of a call cancelled before its tool started.
fn cancelled<Ctx>(entry: &Entry<Ctx>) -> ToolError {
    ToolError::Cancelled {
        tool: entry.name.to_string(),
    }
}
