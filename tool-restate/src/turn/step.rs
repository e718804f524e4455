//! One call of a turn as durable steps: the call run through the registry
//! in `ctx.run`, and, when the application's approval hook parked it, a
//! durable promise waited on until a decision comes, then the decided call
//! run in a step of its own.

use std::sync::Arc;

use restate_sdk::context::RunFuture;
use restate_sdk::errors::TerminalError;
use restate_sdk::prelude::{ContextPromises, ContextSideEffects, Json, WorkflowContext};
use serde_json::Value;
use tool_core::context::ContextBuilder;
use tool_core::policy::ApproveAll;
use tool_core::registry::ToolCall;
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult};

use crate::handler::ContextFn;
use crate::invocation::Invocation;

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
}

impl<Ctx: Send + Sync + 'static> Step<'_, Ctx> {
    /// Runs the call at `at`, to its final result. A Restate failure (the
    /// invocation cancelled, say) is the call's error result, for the
    /// model to read, as tool-core's own failures are.
    pub(crate) async fn run(&self, at: usize, call: ToolCall) -> ToolResult {
        let name = call_name(at, &call);
        let tool = call.name.clone();
        let asked = call.arguments.clone();
        let result = self
            .journaled(&name, &name, &call.name, call.arguments, false)
            .await;
        let result = match result {
            Ok(result) if result.awaits_decision() => self.decided(&name, &tool, asked).await,
            other => other,
        };
        result.unwrap_or_else(|error| {
            ToolError::Unavailable {
                tool,
                reason: format!("its durable step failed: {error}"),
            }
            .into()
        })
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
        let registry = Arc::clone(self.registry);
        let name = tool.to_owned();
        let Json(result) = self
            .restate
            .run(move || async move { Ok(Json(registry.call(&ctx, &name, arguments).await)) })
            .name(format!("tool:{tool}:{step}"))
            .await?;
        Ok(result)
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
                self.journaled(&given, &given, tool, arguments, true).await
            }
        }
    }
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
