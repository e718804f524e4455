//! How a found tool's call starts: steps 3 to 7 as far as they go without
//! waiting (all of them for a tool that may run at once), from the
//! arguments' value or straight from their text (an `async` tool polled
//! first where it starts). What is left, the pipeline (`pipeline.rs`) goes
//! on with.

use std::borrow::Cow;
use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::task::Waker;

use serde_json::Value;

use crate::dispatch::access::check_access;
use crate::dispatch::call_data::{CallData, context_of};
use crate::dispatch::entry::Entry;
use crate::dispatch::execute::{Run, Work, free_turn};
use crate::dispatch::one_at_a_time::OneAtATimeGuard;
use crate::dispatch::output::finish;
use crate::dispatch::pipeline::{BeginOutcome, Pipeline};
use crate::dispatch::read::{Arguments, RunAtOnce};
use crate::dispatch::runner::Started;
use crate::dispatch::settings::Validation;
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::tool::context::ToolContext;
use crate::value::Node;

impl<Ctx: Send + Sync + 'static> Pipeline<Ctx> {
    /// Steps 3 to 7 for a known tool and well-formed arguments, as far as
    /// they go without waiting: all of them for a tool that may run at once.
    #[inline]
    pub(super) fn begin<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        input_schema: &Value,
        ctx: &'e ToolContext<Ctx>,
        call: &mut CallData<'_>,
    ) -> BeginOutcome<'e> {
        // Nothing to check, nothing to ask, no turn to take: a start of its
        // own, small enough for the compiler to build the tool's arguments
        // and result in place, which it does not in a branch of the whole
        // (`cargo bench --bench instructions`: 12 instructions a call).
        if self.settings.validation == Validation::Off && entry.runs_free {
            return self.begin_free(entry, ctx, call);
        }
        self.begin_checked(entry, input_schema, ctx, call)
    }

    /// [`begin`](Self::begin) for a tool that runs at once, takes no turn
    /// and has nothing checked: `begun` written out, with no turn to pass.
    #[inline(never)]
    fn begin_free<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        ctx: &'e ToolContext<Ctx>,
        call: &mut CallData<'_>,
    ) -> BeginOutcome<'e> {
        let gate = || check_access(entry, ctx);
        let (node, shared) = call.for_start();
        // No waker: an `async` run is polled first after its start
        // (`Pipeline::poll_now`), which keeps the plain calls' path short.
        let now = RunAtOnce {
            at_once: true,
            waker: None,
        };
        let args = Arguments::new(node, &entry.name, &gate, now);
        match entry.runner.start(|| context_of(ctx, shared), args) {
            Ok(Started::Done(mut result)) => {
                finish(entry, &mut result, &self.settings);
                BeginOutcome::Done(result)
            }
            Ok(Started::Call(run)) => BeginOutcome::Waits(Run::Call(run)),
            Ok(Started::Wait(run)) => BeginOutcome::Waits(Run::Now(run, None)),
            Ok(Started::Polled(run)) => BeginOutcome::Waits(Run::Polled(run, None)),
            Err(error) => BeginOutcome::Done(error.into()),
        }
    }

    /// [`begin`](Self::begin) for every other tool and setting.
    #[inline(never)]
    fn begin_checked<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        input_schema: &Value,
        ctx: &'e ToolContext<Ctx>,
        call: &mut CallData<'_>,
    ) -> BeginOutcome<'e> {
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
            return BeginOutcome::Done(refused.into());
        }
        if entry.metadata.long_running {
            // Its run goes on in a task of its own, with a context it owns.
            let args = Arguments::new(
                Node::Read(call.arguments()),
                &entry.name,
                &gate,
                RunAtOnce::LATER,
            );
            let started = entry
                .runner
                .start(|| Cow::Owned(call.owned_context(ctx)), args);
            if let Some(refused) =
                self.refused_after(check_after && started.is_err(), entry, input_schema, call)
            {
                return BeginOutcome::Done(refused);
            }
            return self.detached(entry, started);
        }
        let plain = entry.runs_at_once;
        // Nothing to ask and no turn to wait for: the tool may run at
        // once, with no future and no timer.
        let turn = plain
            .then(|| free_turn(entry.exclusive.as_deref()))
            .flatten();
        let now = RunAtOnce {
            at_once: turn.is_some(),
            waker: None,
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
            return BeginOutcome::Done(refused);
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
        call: &CallData<'_>,
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
    ) -> BeginOutcome<'static> {
        match started {
            Ok(Started::Done(mut result)) => {
                finish(entry, &mut result, &self.settings);
                BeginOutcome::Done(result)
            }
            Ok(Started::Call(run)) => BeginOutcome::Waits(Run::Detached(Work::Call(run))),
            Ok(Started::Wait(run) | Started::Polled(run)) => {
                BeginOutcome::Waits(Run::Detached(Work::Wait(run)))
            }
            Err(error) => BeginOutcome::Done(error.into()),
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
    pub(super) fn begin_text<'e>(
        &self,
        entry: &'e Entry<Ctx>,
        ctx: &'e ToolContext<Ctx>,
        text: &mut String,
        lent: &'e mut Option<ToolContext<Ctx>>,
        waker: &Waker,
    ) -> Option<std::thread::Result<(BeginOutcome<'e>, Option<&'e ToolContext<Ctx>>)>> {
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
            let now = RunAtOnce {
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
        turn: Option<Option<OneAtATimeGuard<'e>>>,
    ) -> BeginOutcome<'e> {
        let run = match started {
            Ok(Started::Done(mut result)) => {
                finish(entry, &mut result, &self.settings);
                return BeginOutcome::Done(result);
            }
            Ok(Started::Call(run)) => return BeginOutcome::Waits(Run::Call(run)),
            // Polled once where it started: it waits, in its turn.
            Ok(Started::Polled(run)) => {
                return BeginOutcome::Waits(Run::Polled(run, turn.flatten()));
            }
            Ok(Started::Wait(run)) => run,
            Err(error) => return BeginOutcome::Done(error.into()),
        };
        BeginOutcome::Waits(match turn {
            Some(turn) => Run::Now(run, turn),
            None => Run::Wait(run),
        })
    }
}
