//! What a call of a turn waits for, each a durable promise of the
//! workflow that one of its handlers resolves, from anywhere, after any
//! number of restarts: a person's decision on a parked call (`approve`),
//! the result of a call run elsewhere (`deliver`), a person's answer to a
//! tool's question (`answer`).
//!
//! Once the invocation is known to be cancelled (the turn's token), no
//! promise is awaited: the cancellation reaches a handler once, and a
//! promise awaited after it would wait for ever.

use restate_sdk::errors::TerminalError;
use restate_sdk::prelude::{ContextPromises, ContextWriteState, Json};
use serde_json::Value;
use tool_core::elicit::Answer;
use tool_core::{ToolError, ToolResult};

use crate::turn::ask::{Asked, answer_promise, question_state};
use crate::turn::step::{Run, Step};

/// The name of the promise a parked call waits on, for the call the
/// provider named `call` (or, with no id, the call at that place).
pub(crate) fn promise_name(call: &str) -> String {
    format!("approval:{call}")
}

/// The name of the promise a call whose result comes later waits on.
pub(crate) fn result_promise_name(call: &str) -> String {
    format!("result:{call}")
}

impl<Ctx: Send + Sync + 'static> Step<'_, Ctx> {
    /// A parked call: the decision waited on (a durable promise, which the
    /// workflow's `approve` handler resolves), then the call run as
    /// decided.
    pub(crate) async fn decided(
        &self,
        name: &str,
        tool: &str,
        asked: Value,
    ) -> Result<ToolResult, TerminalError> {
        if self.cancel.is_cancelled() {
            return Ok(self.cancelled_waiting(tool));
        }
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
                let run = Run {
                    call: name,
                    step: &given,
                    given: &given,
                    tool,
                    arguments,
                    approved: true,
                };
                self.answered(run, None).await
            }
        }
    }

    /// A call whose result comes later (a `long_running` tool's, which the
    /// client runs): the result waited on, a durable promise that the
    /// workflow's `deliver` handler resolves.
    pub(crate) async fn delivered(
        &self,
        name: &str,
        tool: &str,
    ) -> Result<ToolResult, TerminalError> {
        if self.cancel.is_cancelled() {
            return Ok(self.cancelled_waiting(tool));
        }
        let key = result_promise_name(name);
        let Json(result) = self.restate.promise::<Json<ToolResult>>(&key).await?;
        Ok(result)
    }

    /// The answer to the question `asked`, the `at`-th (from 0) that the
    /// call `call` of `tool` asked: the question kept in the workflow's
    /// state (the `questions` handler lists it) while a durable promise,
    /// which the `answer` handler resolves, is waited on.
    pub(crate) async fn answer(
        &self,
        call: &str,
        tool: &str,
        at: usize,
        asked: &Asked,
    ) -> Result<Answer, TerminalError> {
        let id = format!("{call}#{}", at + 1);
        let state = question_state(call);
        self.restate.set(&state, Json(asked.shown(&id, call, tool)));
        let Json(answer) = self
            .restate
            .promise::<Json<Answer>>(&answer_promise(&id))
            .await?;
        self.restate.clear(&state);
        Ok(answer)
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
