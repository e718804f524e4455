//! One call of a turn as durable steps: the call run through the registry
//! in `ctx.run`, and, when the application's approval hook parked it, a
//! durable promise waited on until a decision comes, then the decided call
//! run in a step of its own.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;

use restate_sdk::context::RunFuture;
use restate_sdk::errors::TerminalError;
use restate_sdk::prelude::{ContextPromises, ContextSideEffects, Json, WorkflowContext};
use serde_json::Value;
use tokio::sync::{Mutex, MutexGuard};
use tool_core::context::ContextBuilder;
use tool_core::policy::{ApproveAll, ToolTier};
use tool_core::registry::ToolCall;
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult};

use crate::handler::ContextFn;
use crate::invocation::Invocation;

/// Why a call of a tool that is not idempotent has no result.
const LOST: &str = "the worker running it stopped before its result was recorded; \
     the tool is not idempotent, so it was not run again, and what it did is unknown";

/// The name of the promise a parked call waits on, for the call the
/// provider named `call` (or, with no id, the call at that place).
pub(crate) fn promise_name(call: &str) -> String {
    format!("approval:{call}")
}

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
    /// call of more (a `Confirm` tool, or one that must not run twice)
    /// holds it to its end, so that the calls after it wait for it.
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
        let result = self
            .journaled(&name, &name, &call.name, call.arguments, false, issuing)
            .await;
        let result = match result {
            Ok(result) if result.awaits_decision() => self.decided(&name, &tool, asked).await,
            other => other,
        };
        let result = match result {
            Ok(result) if result.is_pending() => self.delivered(&name).await,
            other => other,
        };
        drop(lone);
        result.unwrap_or_else(|error| {
            ToolError::Unavailable {
                tool,
                reason: format!("its durable step failed: {error}"),
            }
            .into()
        })
    }

    /// Whether a call of `tool` must not run twice: it is neither
    /// [`idempotent`](tool_core::ToolMetadata::idempotent) nor
    /// [`read_only`](tool_core::ToolMetadata::read_only).
    fn once(&self, tool: &str) -> bool {
        self.registry
            .info(tool)
            .is_some_and(|info| !(info.metadata.idempotent || info.metadata.read_only))
    }

    /// How many durable steps a call of `tool` may take: more than one
    /// for a tool that must not run twice, may be parked for approval, or
    /// is `long_running` (its result delivered later).
    fn steps(&self, tool: &str) -> usize {
        let confirm = self
            .registry
            .info(tool)
            .is_some_and(|info| info.metadata.tier == ToolTier::Confirm);
        let long = self
            .registry
            .info(tool)
            .is_some_and(|info| info.metadata.long_running);
        if confirm || long || self.once(tool) {
            2
        } else {
            1
        }
    }

    /// The call run through the registry in `ctx.run`, under the name
    /// `given` for its id: in the workflow's conversation, the tool's
    /// [`ToolContext::call_id`] is made from it, and so is the same on
    /// every attempt, and never another turn's.
    async fn journaled(
        &self,
        step: &str,
        given: &str,
        tool: &str,
        arguments: Value,
        approved: bool,
        issuing: Option<MutexGuard<'_, ()>>,
    ) -> Result<ToolResult, TerminalError> {
        let invocation =
            Invocation::new(self.restate.invocation_id(), tool, self.restate.headers());
        let builder = ContextBuilder::from((self.context)(&invocation))
            .conversation(self.restate.key())
            .call_id(given);
        let ctx: ToolContext<Ctx> = if approved {
            builder.approval(ApproveAll).build()
        } else {
            builder.build()
        };
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
        let mut run = pin!(
            self.restate
                .run(move || async move {
                    if !first {
                        return Ok(Json(lost.into()));
                    }
                    Ok(Json(registry.call(&ctx, &name, arguments).await))
                })
                .name(format!("tool:{tool}:{step}"))
        );
        // Its first poll issues the step's command (and starts the tool).
        let issued = poll_fn(|cx| Poll::Ready(run.as_mut().poll(cx))).await;
        drop(issuing);
        let Json(result) = match issued {
            Poll::Ready(result) => result,
            Poll::Pending => run.await,
        }?;
        Ok(result)
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

    /// A parked call: the decision waited on (a durable promise, which the
    /// workflow's `approve` handler resolves, from anywhere, after any
    /// number of restarts), then the call run as decided.
    async fn decided(
        &self,
        name: &str,
        tool: &str,
        asked: Value,
    ) -> Result<ToolResult, TerminalError> {
        let key = promise_name(name);
        let Json(decision) = self.restate.promise::<Json<Value>>(&key).await?;
        let decision = Decision::read(&decision);
        match decision {
            Decision::Deny(reason) => Ok(ToolError::Denied {
                tool: tool.to_owned(),
                reason,
            }
            .into()),
            Decision::Approve(arguments) => {
                let arguments = arguments.unwrap_or(asked);
                // A run of its own, under an id of its own: not the
                // parked call's, which the registry would find parked.
                let given = format!("{name}:approved");
                self.journaled(&given, &given, tool, arguments, true, None)
                    .await
            }
        }
    }
}

impl<Ctx: Send + Sync + 'static> Step<'_, Ctx> {
    /// A call whose result comes later (a `long_running` tool's, which the
    /// client runs): the result waited on, a durable promise that the
    /// workflow's `deliver` handler resolves.
    async fn delivered(&self, name: &str) -> Result<ToolResult, TerminalError> {
        let key = result_promise_name(name);
        let Json(result) = self.restate.promise::<Json<ToolResult>>(&key).await?;
        Ok(result)
    }
}

/// The name of the promise a call whose result comes later waits on.
pub(crate) fn result_promise_name(call: &str) -> String {
    format!("result:{call}")
}

/// A person's decision, as the `approve` handler took it.
enum Decision {
    /// Run it, with these arguments, or as the model asked.
    Approve(Option<Value>),
    /// Do not; the reason is the model's to read.
    Deny(String),
}

impl Decision {
    /// The decision in a promise's value (checked by the `approve`
    /// handler before it resolved the promise).
    fn read(value: &Value) -> Self {
        if value["approve"].as_bool() == Some(true) {
            Decision::Approve(value.get("arguments").filter(|a| !a.is_null()).cloned())
        } else {
            Decision::Deny(
                value["reason"]
                    .as_str()
                    .unwrap_or("a person denied it")
                    .to_owned(),
            )
        }
    }
}
