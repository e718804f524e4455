//! One call of a turn as durable steps: the call run through the registry
//! in `ctx.run`; when the application's approval hook parked it, a durable
//! promise waited on until a decision comes, then the decided call run in
//! a step of its own (`wait.rs`); when its tool asked the person, the
//! answer waited on likewise, then the tool run again (`ask.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use restate_sdk::context::RunFuture;
use restate_sdk::errors::TerminalError;
use restate_sdk::prelude::{ContextSideEffects, Json, WorkflowContext};
use serde_json::Value;
use tokio::sync::{Mutex, MutexGuard};
use tool_core::context::{CancellationToken, ContextBuilder};
use tool_core::policy::{ApproveAll, ToolTier};
use tool_core::registry::ToolCall;
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult};

use crate::cancel::{CANCELLED, cancelled_result, watch, watched};
use crate::handler::ContextFn;
use crate::invocation::Invocation;
use crate::timeout::{self, watch_window};
use crate::turn::ask::{Ran, Round, RoundAsker};

/// Why a call of a tool that is not idempotent has no result.
const LOST: &str = "the worker running it stopped before its result was recorded; \
     the tool is not idempotent, so it was not run again, and what it did is unknown";

/// The call's name in the turn: the provider's id, or its place in the
/// response (`#0`, `#1`, ...) for a provider that gave none (Gemini, often).
pub(crate) fn call_name(at: usize, call: &ToolCall) -> String {
    call.id.clone().unwrap_or_else(|| format!("#{at}"))
}

/// What one call needs of the workflow.
pub(crate) struct Step<'a, Ctx> {
    pub(crate) restate: &'a WorkflowContext<'a>,
    pub(crate) registry: &'a Arc<ToolRegistry<Ctx>>,
    pub(crate) context: &'a Arc<ContextFn<Ctx>>,
    /// Who issues durable commands now: see [`Step::run`].
    pub(crate) order: Mutex<()>,
    /// The turn's token, cancelled when Restate cancels the invocation:
    /// each call's token is a child of it.
    pub(crate) cancel: CancellationToken,
}

/// One run of a call in a step of its own: how it is named and run.
pub(crate) struct Run<'r> {
    /// The call's name in the turn (see [`call_name`]).
    pub(crate) call: &'r str,
    /// The step's name, unique in the turn.
    pub(crate) step: &'r str,
    /// The name the call's id is made from.
    pub(crate) given: &'r str,
    pub(crate) tool: &'r str,
    pub(crate) arguments: Value,
    /// Approved by a person: the approval hook is not asked.
    pub(crate) approved: bool,
}

impl<Ctx: Send + Sync + 'static> Step<'_, Ctx> {
    /// Runs the call at `at`, to its final result. A Restate failure (the
    /// invocation cancelled, say) is the call's error result, for the
    /// model to read, as tool-core's own failures are.
    ///
    /// Restate's journal must hold a turn's commands in the same order on
    /// every replay, where recorded steps end at once, as when they ran,
    /// when they took their time. So each call issues its commands in
    /// turn, through a fair lock taken in the calls' order (the batch
    /// polls them first in that order): a call of one step (a tool that
    /// may run again and needs no approval) holds it until its step is
    /// issued, and so runs beside the others its batch group allows; a
    /// call of more (a `Confirm` tool, one that must not run twice, or
    /// one that asks) holds it to its end, so that the calls after it
    /// wait for it.
    pub(crate) async fn run(&self, at: usize, call: ToolCall) -> ToolResult {
        let name = call_name(at, &call);
        let tool = call.name.clone();
        let asked = call.arguments.clone();
        let guard = self.order.lock().await;
        let (lone, issuing) = if self.steps(&tool) > 1 {
            (Some(guard), None)
        } else {
            (None, Some(guard))
        };
        let first = Run {
            call: &name,
            step: &name,
            given: &name,
            tool: &tool,
            arguments: call.arguments,
            approved: false,
        };
        let result = self.answered(first, issuing).await;
        let result = match result {
            Ok(result) if result.awaits_decision() => self.decided(&name, &tool, asked).await,
            other => other,
        };
        let result = match result {
            Ok(result) if result.is_pending() => self.delivered(&name, &tool).await,
            other => other,
        };
        drop(lone);
        result.unwrap_or_else(|error| {
            if error.code() == CANCELLED {
                // Seen at a durable await: the calls after this one are
                // refused, as the registry refuses a cancelled caller's.
                self.cancel.cancel();
                return self.cancelled_waiting(&tool);
            }
            ToolError::Unavailable {
                tool,
                reason: format!("its durable step failed: {error}"),
            }
            .into()
        })
    }

    /// The result of a call whose invocation was cancelled while it
    /// waited for a durable promise (a decision, an answer, a result).
    pub(crate) fn cancelled_waiting(&self, tool: &str) -> ToolResult {
        ToolResult::error(format!(
            "the call to tool `{tool}` was cancelled before it ended: its Restate invocation \
             was cancelled while the call waited"
        ))
    }

    /// Whether a call of `tool` must not run twice: it is neither
    /// [`idempotent`](tool_core::ToolMetadata::idempotent) nor
    /// [`read_only`](tool_core::ToolMetadata::read_only).
    fn once(&self, tool: &str) -> bool {
        self.registry
            .info(tool)
            .is_some_and(|info| !(info.metadata.idempotent || info.metadata.read_only))
    }

    /// Whether `tool` may ask the person ([`asks`](tool_core::ToolMetadata::asks)).
    fn asks(&self, tool: &str) -> bool {
        self.registry
            .info(tool)
            .is_some_and(|info| info.metadata.asks)
    }

    /// How many durable steps a call of `tool` may take: more than one
    /// for a tool that must not run twice, may be parked for approval,
    /// asks the person, or is `long_running` (its result delivered later).
    fn steps(&self, tool: &str) -> usize {
        let confirm = self
            .registry
            .info(tool)
            .is_some_and(|info| info.metadata.tier == ToolTier::Confirm);
        let long = self
            .registry
            .info(tool)
            .is_some_and(|info| info.metadata.long_running);
        if confirm || long || self.once(tool) || self.asks(tool) {
            2
        } else {
            1
        }
    }

    /// The call run to its result: a tool that asks the person what no
    /// answer given answers is stopped, the answer waited on (a durable
    /// promise, `ask.rs`), and the tool run again, from its start, in a
    /// step of its own, with every answer given so far.
    pub(crate) async fn answered(
        &self,
        first: Run<'_>,
        mut issuing: Option<MutexGuard<'_, ()>>,
    ) -> Result<ToolResult, TerminalError> {
        let asks = self.asks(first.tool);
        let mut answers = Vec::new();
        loop {
            let round = asks.then(|| Round::new(answers.clone()));
            let step = match answers.len() {
                0 => first.step.to_owned(),
                given => format!("{}:answered:{given}", first.step),
            };
            let run = Run {
                step: &step,
                arguments: first.arguments.clone(),
                ..first
            };
            match self.journaled(run, issuing.take(), round).await? {
                Ran::Done(result) => return Ok(result),
                Ran::Asked { asked } => {
                    if self.cancel.is_cancelled() {
                        return Ok(self.cancelled_waiting(first.tool));
                    }
                    let answer = self
                        .answer(first.call, first.tool, answers.len(), &asked)
                        .await?;
                    answers.push(answer);
                }
            }
        }
    }

    /// One run of the call in `ctx.run`, under the name `given` for its
    /// id: in the workflow's conversation, the tool's
    /// [`ToolContext::call_id`] is made from it, and so is the same on
    /// every attempt, and never another turn's. Its token is cancelled if
    /// the invocation is (`cancel.rs`); with a `round`, its questions are
    /// answered from it, or end the run.
    async fn journaled(
        &self,
        run: Run<'_>,
        issuing: Option<MutexGuard<'_, ()>>,
        round: Option<Arc<Round>>,
    ) -> Result<Ran, TerminalError> {
        let Run {
            step,
            given,
            tool,
            arguments,
            approved,
            ..
        } = run;
        let invocation =
            Invocation::new(self.restate.invocation_id(), tool, self.restate.headers());
        let token = self.cancel.child_token();
        let mut builder = ContextBuilder::from((self.context)(&invocation))
            .conversation(self.restate.key())
            .call_id(given)
            .cancellation(token.clone());
        if approved {
            builder = builder.approval(ApproveAll);
        }
        if let Some(round) = &round {
            builder = builder.asker(RoundAsker(Arc::clone(round)));
        }
        let ctx: ToolContext<Ctx> = builder.build();
        // Whether this attempt is the first to reach the call: always, for
        // a tool that may run again.
        let first = !self.once(tool) || self.begin(step, tool).await?;
        let registry = Arc::clone(self.registry);
        let name = tool.to_owned();
        let lost = ToolError::Lost {
            tool: tool.to_owned(),
            call_id: step.to_owned(),
            reason: LOST.to_owned(),
        };
        let cancelled = token.clone();
        let run = self
            .restate
            .run(move || async move {
                if !first {
                    return Ok(Json(Ran::Done(lost.into())));
                }
                let call = registry.call(&ctx, &name, arguments);
                let ran = match round {
                    None => Ran::Done(call.await),
                    Some(round) => tokio::select! {
                        biased;
                        result = call => Ran::Done(result),
                        () = round.asked() => match round.open() {
                            Some(asked) => Ran::Asked { asked },
                            None => Ran::Done(ToolResult::error("the tool's question was lost")),
                        },
                    },
                };
                // Journaled as the step's end, so a replay ends the same.
                Ok(Json(match ran {
                    Ran::Done(result) if cancelled.is_cancelled() => {
                        Ran::Done(cancelled_result(&name, result))
                    }
                    ran => ran,
                }))
            })
            .name(format!("tool:{tool}:{step}"));
        // Its first poll issues the step's command (and starts the tool).
        // A cancellation seen while it runs cancels the turn's token: this
        // call's, and every other's.
        let Json(ran) = watched(
            run,
            || watch(self.restate),
            watch_window(timeout::longest(self.registry)),
            &self.cancel,
            || drop(issuing),
        )
        .await?;
        Ok(ran)
    }

    /// Records that the call of a tool that is not
    /// [`idempotent`](tool_core::ToolMetadata::idempotent) begins, before
    /// it runs: whether this attempt recorded it. A step cut short (the
    /// worker killed mid-call) is run again on the next attempt, which
    /// finds the beginning recorded by an earlier one: the tool may have
    /// done its side effect, and is not run again; its result is then the
    /// error [`LOST`] explains, as tool-core's own lost calls end.
    async fn begin(&self, step: &str, tool: &str) -> Result<bool, TerminalError> {
        let now = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&now);
        self.restate
            .run(move || async move {
                flag.store(true, Ordering::SeqCst);
                Ok(())
            })
            .name(format!("begin:{tool}:{step}"))
            .await?;
        Ok(now.load(Ordering::SeqCst))
    }
}
