//! A tool that asks the person a question (`ctx.elicit`) inside a turn:
//! the answer a durable promise of the workflow.
//!
//! A tool runs inside `ctx.run`, where nothing durable can be awaited. So
//! a step whose tool asks what it has no answer for ends there: the tool
//! is stopped (its future dropped, as the registry drops one past its
//! time limit), and the step's journaled end is the question. The
//! workflow then records the question where anyone can read it (the
//! workflow's state, which its `questions` handler lists), awaits the
//! durable promise its `answer` handler resolves, from anywhere, after any
//! number of restarts, and runs the tool again, from its start, in a step
//! of its own, with every answer given so far: its first question is
//! answered with the first answer, at once, and so on, until it ends or
//! asks another. (tool-mcp's MCP 2026 `input_required` runs a tool again
//! the same way.)

use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tool_core::BoxFuture;
use tool_core::ToolResult;
use tool_core::elicit::{Answer, Asker, ElicitError, Question};

/// The workflow state under which a call's open question is kept.
pub(crate) fn question_state(call: &str) -> String {
    format!("{QUESTION_PREFIX}{call}")
}

/// What every open question's state key starts with.
pub(crate) const QUESTION_PREFIX: &str = "question:";

/// The promise the answer to the question `id` resolves.
pub(crate) fn answer_promise(id: &str) -> String {
    format!("answer:{id}")
}

/// How a step of a call ended, as its journal holds it: the tool's
/// result, or a question it asked that no answer given answers.
#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum Ran {
    /// The tool asked this, and was stopped to wait for the answer.
    Asked {
        /// The question.
        asked: Asked,
    },
    /// The tool's result (its stored form, as every step's).
    Done(ToolResult),
}

/// A question a tool asked, as the step journals it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Asked {
    /// What the person is asked, in the tool's words.
    pub(crate) message: String,
    /// The schema of the answer (MCP elicitation's `requestedSchema`).
    pub(crate) schema: Value,
    /// The name the tool gave the question, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) key: Option<String>,
}

impl Asked {
    /// The question as the workflow's state shows it: its id (what its
    /// answer resolves), the call and tool that asked, what is asked.
    pub(crate) fn shown(&self, id: &str, call: &str, tool: &str) -> Value {
        json!({
            "id": id,
            "call": call,
            "tool": tool,
            "message": self.message,
            "schema": self.schema,
            "key": self.key,
        })
    }
}

/// One run of an asking tool: the answers given so far, in the order its
/// questions are asked, and the first question they do not answer.
#[derive(Default)]
pub(crate) struct Round {
    answers: Vec<Answer>,
    state: Mutex<RoundState>,
    /// Rings when the tool asks what no answer answers.
    asked: Notify,
}

#[derive(Default)]
struct RoundState {
    /// How many questions the tool has asked in this run.
    made: usize,
    /// The first question no answer answered.
    open: Option<Asked>,
}

impl Round {
    /// A run answering its questions with `answers`, in order.
    pub(crate) fn new(answers: Vec<Answer>) -> Arc<Self> {
        Arc::new(Self {
            answers,
            ..Self::default()
        })
    }

    /// Waits until the tool asks what no answer answers.
    pub(crate) async fn asked(&self) {
        self.asked.notified().await;
    }

    /// The question that no answer answered, if the tool asked one.
    pub(crate) fn open(&self) -> Option<Asked> {
        self.lock().open.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RoundState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Who the tool's questions go to in a run: the answers given, or the
/// round's open question.
pub(crate) struct RoundAsker(pub(crate) Arc<Round>);

impl Asker for RoundAsker {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        let mut state = self.0.lock();
        let at = state.made;
        state.made += 1;
        if let Some(answer) = self.0.answers.get(at) {
            let answer = answer.clone();
            return Box::pin(std::future::ready(Ok(answer)));
        }
        if state.open.is_none() {
            state.open = Some(Asked {
                message: question.message().to_owned(),
                schema: question.schema().clone(),
                key: question.key().map(str::to_owned),
            });
        }
        drop(state);
        self.0.asked.notify_one();
        // The run is stopped before this is answered.
        Box::pin(std::future::pending())
    }
}
