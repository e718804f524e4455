//! The pipeline every call of a found tool goes through, in order: read the
//! raw arguments, validate them against the schema, deserialize them, check
//! policy, execute under a timeout with panics caught (`execute.rs`), and
//! shape the output.

use std::borrow::Cow;
use std::cell::Cell;
use std::future::poll_fn;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Waker};

use tokio::time::Instant;

use futures_util::FutureExt;
use serde_json::Value;
use tracing::Instrument;

use crate::call_id;
use crate::dispatch::access::check_access;
use crate::dispatch::entry::Entry;
use crate::dispatch::execute::{Run, Work, execute, free_turn, panicked, poll_once};
use crate::dispatch::held::{Held, context_of};
use crate::dispatch::observe::CallObserver;
use crate::dispatch::output::{finish, finished};
use crate::dispatch::pending::PendingCalls;
use crate::dispatch::policy::DynApprovalHook;
use crate::dispatch::policy::{ApprovalRequest, NO_HOOK};
use crate::dispatch::read::Arguments;
use crate::dispatch::read::raw::normalize;
use crate::dispatch::read::value::Node;
use crate::dispatch::runner::{Now, Started};
use crate::dispatch::settings::{Settings, Validation};
use crate::dispatch::turn::TurnGuard;
use crate::tool::Call;
use crate::tool::echo::Echo;
use crate::tool::progress::ProgressSink;
use crate::{Approval, ToolContext, ToolError, ToolResult, ToolTier};

/// How far [`Pipeline::begin`] took a call, in the tool's turn (`'t`) if
/// it started in it.
enum Begun<'t> {
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
        // Step 1: the tool. No tool's name: the observer gets it bounded.
        let (entry, input_schema) = match found {
            Ok(found) => found,
            Err(unknown) => {
                let shown = Echo(name).to_string();
                return self.refuse(&span, start, (&shown, name, &args), *unknown);
            }
        };
        // A call its caller gave up on before it came here never starts:
        // in a batch, it may have waited for the calls before it.
        if ctx.caller_cancelled() {
            return self.refuse(&span, start, (name, name, &args), cancelled(entry));
        }
        // Steps 2 to 7 the short way: OpenAI's arguments are a JSON string,
        // and a tool that needs nothing of them but its input reads it
        // straight out of the text.
        if let Value::String(text) = &mut args
            && !watched
            && entry.reads_text
        {
            let mut lent = None;
            let begun = with_waker(|waker| self.begin_text(entry, ctx, text, &mut lent, waker));
            match begun.await {
                None => {}
                Some(Ok((Begun::Done(result), _))) => return result,
                Some(Err(panic)) => return panicked(name, panic.as_ref()),
                // Boxed, as every wait: a call that finishes at once,
                // as most do, then moves and drops a small future.
                Some(Ok((Begun::Waits(run), lent))) => {
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
            Ok(arguments) => self.hold(entry, arguments),
            Err(error) => return self.refuse(&span, start, (name, name, &Value::Null), error),
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
                self.begin(entry, input_schema, ctx, &mut call, None)
            }))
        };
        let result = match begun {
            Ok(Begun::Done(result)) => result,
            Ok(Begun::Waits(run)) => self.go_on_held(entry, ctx, &call, run, &span).await,
            Err(panic) => panicked(name, panic.as_ref()),
        };
        if let Some(start) = start {
            self.finished(name, call.id(), start, &result);
        }
        result
    }

    /// A call that ends before its tool is read: its result, reported to
    /// whoever watches under the name `shown`, with the id of `name` and
    /// `args`.
    #[cold]
    fn refuse(
        &self,
        span: &tracing::Span,
        start: Option<Instant>,
        (shown, name, args): (&str, &str, &Value),
        error: ToolError,
    ) -> ToolResult {
        let result = ToolResult::from(error);
        if self.observer.is_some() || !span.is_disabled() {
            self.report(span, shown, &call_id(name, args), start, &result);
        }
        result
    }

    /// Step 2, once the arguments are one object (`read/raw.rs`): its
    /// `null`s that mean "left out" dropped, held on the stack, or shared with a
    /// tool that can see the call in its context or runs on in the
    /// background.
    #[inline(always)]
    fn hold<'e>(&self, entry: &'e Entry<Ctx>, mut arguments: Value) -> Held<'e> {
        if let Some(absent) = &entry.schemas.absent_nulls {
            absent.strip(&mut arguments);
        }
        if entry.uses_context || entry.metadata.long_running {
            Held::Shared(Arc::new(Call::new(
                entry.name.clone(),
                arguments,
                self.progress.clone(),
            )))
        } else {
            Held::Local {
                tool: &entry.name,
                arguments,
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
        call: &Held<'_>,
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
    async fn end_text(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        args: Value,
        run: Run<'_>,
        shared: Option<Arc<Call>>,
    ) -> ToolResult {
        let call = match shared {
            Some(call) => Held::Shared(call),
            None => Held::Local {
                tool: &entry.name,
                arguments: args,
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
        call: &Held<'_>,
        run: Run<'_>,
    ) -> ToolResult {
        AssertUnwindSafe(self.go_on(entry, ctx, call, run))
            .catch_unwind()
            .await
            .unwrap_or_else(|panic| panicked(name, panic.as_ref()))
    }

    /// Steps 3 to 7 for a known tool and well-formed arguments, as far as
    /// they go without waiting: all of them for a tool that may run at once.
    #[inline]
    fn begin<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        input_schema: &Value,
        ctx: &'e ToolContext<Ctx>,
        call: &mut Held<'_>,
        waker: Option<&Waker>,
    ) -> Begun<'e> {
        // Nothing to check, nothing to ask, no turn to take: a start of its
        // own, small enough for the compiler to build the tool's arguments
        // and result in place, which it does not in a branch of the whole
        // (`cargo bench --bench instructions`: 12 instructions a call).
        if self.settings.validation == Validation::Off && entry.runs_free {
            return self.begin_free(entry, ctx, call, waker);
        }
        self.begin_checked(entry, input_schema, ctx, call, waker)
    }

    /// [`begin`](Self::begin) for a tool that runs at once, takes no turn
    /// and has nothing checked: `begun` written out, with no turn to pass.
    #[inline(never)]
    fn begin_free<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        ctx: &'e ToolContext<Ctx>,
        call: &mut Held<'_>,
        waker: Option<&Waker>,
    ) -> Begun<'e> {
        let gate = || check_access(entry, ctx);
        let (node, shared) = call.for_start();
        let now = Now {
            at_once: true,
            waker,
        };
        let args = Arguments::new(node, &entry.name, &gate, now);
        match entry.runner.start(|| context_of(ctx, shared), args) {
            Ok(Started::Done(mut result)) => {
                finish(entry, &mut result, &self.settings);
                Begun::Done(result)
            }
            Ok(Started::Call(run)) => Begun::Waits(Run::Call(run)),
            Ok(Started::Wait(run)) => Begun::Waits(Run::Now(run, None)),
            Ok(Started::Polled(run)) => Begun::Waits(Run::Polled(run, None)),
            Err(error) => Begun::Done(error.into()),
        }
    }

    /// [`begin`](Self::begin) for every other tool and setting.
    #[inline(never)]
    fn begin_checked<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        input_schema: &Value,
        ctx: &'e ToolContext<Ctx>,
        call: &mut Held<'_>,
        waker: Option<&Waker>,
    ) -> Begun<'e> {
        // The caller's context for the policy checks: policy is about who
        // calls.
        let gate = || check_access(entry, ctx);
        // Checked first, unless reading checks all the schema says: then
        // only a read that fails is checked, for the schema's words.
        let (check_first, check_after) = match self.settings.validation {
            Validation::Auto => (!entry.schemas.implied, entry.schemas.implied),
            Validation::Always => (true, false),
            Validation::Off => (false, false),
        };
        if check_first && let Err(refused) = self.check(entry, input_schema, call.arguments()) {
            return Begun::Done(refused.into());
        }
        if entry.metadata.long_running {
            // Its run goes on in a task of its own, with a context it owns.
            let args = Arguments::new(Node::Read(call.arguments()), &entry.name, &gate, Now::LATER);
            let started = entry
                .runner
                .start(|| Cow::Owned(call.owned_context(ctx)), args);
            if let Some(refused) =
                self.refused_after(check_after && started.is_err(), entry, input_schema, call)
            {
                return Begun::Done(refused);
            }
            return self.detached(entry, started);
        }
        let plain = entry.runs_at_once;
        // Nothing to ask and no turn to wait for: the tool may run at
        // once, with no future and no timer.
        let turn = plain
            .then(|| free_turn(entry.exclusive.as_deref()))
            .flatten();
        let now = Now {
            at_once: turn.is_some(),
            waker,
        };
        let started = if plain && !check_after {
            let (node, shared) = call.for_start();
            let args = Arguments::new(node, &entry.name, &gate, now);
            entry.runner.start(|| context_of(ctx, shared), args)
        } else {
            // Read, not taken: the schema may have to see them after.
            let args = Arguments::new(Node::Read(call.arguments()), &entry.name, &gate, now);
            entry.runner.start(|| call.context_for(ctx), args)
        };
        if let Some(refused) =
            self.refused_after(check_after && started.is_err(), entry, input_schema, call)
        {
            return Begun::Done(refused);
        }
        self.begun(entry, started, turn)
    }

    /// A read that failed, checked against the schema when `failed` (and
    /// reading checks all the schema says): the schema's words, if it
    /// refuses the arguments too.
    fn refused_after(
        &self,
        failed: bool,
        entry: &Entry<Ctx>,
        input_schema: &Value,
        call: &Held<'_>,
    ) -> Option<ToolResult> {
        if !failed {
            return None;
        }
        self.check(entry, input_schema, call.arguments())
            .err()
            .map(ToolResult::from)
    }

    /// Where a `long_running` tool's start left the call: its result, or a
    /// run that owns all it needs.
    fn detached(
        &self,
        entry: &Entry<Ctx>,
        started: Result<Started<'static>, ToolError>,
    ) -> Begun<'static> {
        match started {
            Ok(Started::Done(mut result)) => {
                finish(entry, &mut result, &self.settings);
                Begun::Done(result)
            }
            Ok(Started::Call(run)) => Begun::Waits(Run::Detached(Work::Call(run))),
            Ok(Started::Wait(run) | Started::Polled(run)) => {
                Begun::Waits(Run::Detached(Work::Wait(run)))
            }
            Err(error) => Begun::Done(error.into()),
        }
    }

    /// Step 2: the arguments against the tool's input schema.
    #[cold]
    fn check(
        &self,
        entry: &Entry<Ctx>,
        input_schema: &Value,
        arguments: &Value,
    ) -> Result<(), ToolError> {
        let violations = entry.schemas.input_check.check(input_schema, arguments);
        if violations.is_empty() {
            return Ok(());
        }
        Err(ToolError::InvalidArguments {
            tool: entry.name.to_string(),
            violations,
        })
    }

    /// [`begin`](Self::begin) for a tool whose entry
    /// [`reads_text`](Entry::reads_text), on the arguments' text: with no
    /// schema to check (what the tool reads, the schema accepts) and no
    /// value made; with the call a tool that sees its context shares.
    /// `None` when the text has to be read the whole way: then nothing has
    /// run. A panic is the call's result.
    /// A tool that sees its context is lent one made for the call, kept in
    /// `lent` for as long as the call, and returned with the run: the
    /// text moves into it, and back when the text has to be read again
    /// (`ToolContext::into_call_text`).
    #[allow(clippy::type_complexity)]
    fn begin_text<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        ctx: &'e ToolContext<Ctx>,
        text: &mut String,
        lent: &'e mut Option<ToolContext<Ctx>>,
        waker: &Waker,
    ) -> Option<std::thread::Result<(Begun<'e>, Option<&'e ToolContext<Ctx>>)>> {
        if text.len() > self.settings.max_argument_bytes {
            return None;
        }
        let failed = Cell::new(false);
        let turn = entry
            .runs_at_once
            .then(|| free_turn(entry.exclusive.as_deref()))
            .flatten();
        let call_ctx = entry.uses_context.then(|| {
            let text = std::mem::take(text);
            &*lent.insert(ctx.for_lent_call(entry.name.clone(), text, self.progress.clone()))
        });
        let begun = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let gate = || check_access(entry, ctx);
            let now = Now {
                at_once: turn.is_some(),
                waker: Some(waker),
            };
            match call_ctx {
                None => {
                    let args = Arguments::text(text, &failed, &entry.name, &gate, now);
                    entry.runner.start(|| Cow::Borrowed(ctx), args)
                }
                Some(call_ctx) => {
                    let args =
                        Arguments::text(call_ctx.call_text(), &failed, &entry.name, &gate, now);
                    entry.runner.start(|| Cow::Borrowed(call_ctx), args)
                }
            }
        }));
        match begun {
            // Read again, the whole way.
            Ok(_) if failed.get() => None,
            Ok(started) => Some(Ok((self.begun(entry, started, turn), call_ctx))),
            Err(panic) => Some(Err(panic)),
        }
    }

    /// Where a start left the call: an `async` run started at once in its
    /// turn (`turn`) is left for [`poll_now`](Self::poll_now).
    #[inline(always)]
    fn begun<'e>(
        &self,
        entry: &Entry<Ctx>,
        started: Result<Started<'e>, ToolError>,
        turn: Option<Option<TurnGuard<'e>>>,
    ) -> Begun<'e> {
        let run = match started {
            Ok(Started::Done(mut result)) => {
                finish(entry, &mut result, &self.settings);
                return Begun::Done(result);
            }
            Ok(Started::Call(run)) => return Begun::Waits(Run::Call(run)),
            // Polled once where it started: it waits, in its turn.
            Ok(Started::Polled(run)) => return Begun::Waits(Run::Polled(run, turn.flatten())),
            Ok(Started::Wait(run)) => run,
            Err(error) => return Begun::Done(error.into()),
        };
        Begun::Waits(match turn {
            Some(turn) => Run::Now(run, turn),
            None => Run::Wait(run),
        })
    }

    /// A run started at once, polled once in the call's own poll: most end
    /// there, with no timer and no future around them. `Err`: the run,
    /// which waits, for [`go_on`](Self::go_on).
    async fn poll_now<'t>(&self, entry: &Entry<Ctx>, run: Run<'t>) -> Result<ToolResult, Run<'t>> {
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
        call: &Held<'_>,
        run: Run<'_>,
    ) -> ToolResult {
        let timeout = entry
            .metadata
            .timeout
            .unwrap_or(self.settings.default_timeout);
        // Every wait before the tool starts ends when the caller cancels.
        let caller = ctx.caller();
        if entry.metadata.tier == ToolTier::Confirm {
            // Boxed: its future is kept out of every call's.
            let decision = Box::pin(async {
                tokio::select! {
                    biased;
                    () = caller.token().cancelled() => Err(cancelled(entry)),
                    decision = self.approve(entry, ctx, call) => decision,
                }
            });
            if let Err(error) = decision.await {
                return error.into();
            }
        }
        let run = match run {
            Run::Detached(work) => {
                return self.run_in_background(entry, call, work, timeout, caller.token().clone());
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
    /// denial without one.
    async fn approve(
        &self,
        entry: &Entry<Ctx>,
        ctx: &ToolContext<Ctx>,
        call: &Held<'_>,
    ) -> Result<(), ToolError> {
        let tool = &*entry.name;
        let Some(hook) = ctx.approval().or(self.approval.as_deref()) else {
            return Err(ToolError::Denied {
                tool: tool.to_owned(),
                reason: NO_HOOK.to_owned(),
            });
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
            }),
        }
    }
}

/// The error of a call cancelled before its tool started.
fn cancelled<Ctx>(entry: &Entry<Ctx>) -> ToolError {
    ToolError::Cancelled {
        tool: entry.name.to_string(),
    }
}

/// Runs `start` once, with the waker of the poll it is awaited in: a tool
/// that may run at once is polled first where it starts.
fn with_waker<T>(start: impl FnOnce(&Waker) -> T + Unpin) -> impl Future<Output = T> {
    let mut start = Some(start);
    poll_fn(move |cx: &mut Context<'_>| match start.take() {
        Some(start) => Poll::Ready(start(cx.waker())),
        // Never polled again once ready.
        None => Poll::Pending,
    })
}
