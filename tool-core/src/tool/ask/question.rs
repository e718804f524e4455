//! A question as the application sees it, and the answer it gives.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A question a tool asked the person, as the application shows it: the
/// message, and the schema of the answer (MCP elicitation's
/// `requestedSchema`).
///
/// Its serialized form is what a saved result or turn carries:
///
/// ```
/// use serde_json::json;
/// use tool_core::elicit::Question;
///
/// let question: Question = serde_json::from_value(json!({
///     "id": "5f0c2d9a4b7e41c3a8d6e2f1b0c9a7d4",
///     "call_id": "9c1f",
///     "tool": "book_room",
///     "message": "3 rooms are free on 2026-12-01. Which one?",
///     "schema": {"type": "object", "properties": {"breakfast": {"type": "boolean"}}},
///     "deadline_ms": 1796121300123_u64,
///     "asks_left": 3
/// }))
/// .unwrap();
/// assert_eq!(question.tool(), "book_room");
/// assert_eq!(question.schema()["properties"]["breakfast"]["type"], "boolean");
/// assert_eq!(
///     question.deadline().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis(),
///     1796121300123
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub(crate) id: String,
    pub(crate) call_id: String,
    pub(crate) tool: String,
    pub(crate) message: String,
    pub(crate) schema: Value,
    /// Milliseconds since the Unix epoch: the same instant to every
    /// process that reads it.
    pub(crate) deadline_ms: u64,
    pub(crate) asks_left: u32,
    /// Whose call asked: only that caller lists the question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) caller: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) conversation: Option<String>,
    /// The name the tool gave the question ([`Ask::key`](crate::elicit::Ask::key)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) key: Option<String>,
}

impl Question {
    /// The question's id, what its answer is given under. Unguessable:
    /// whoever holds it can answer.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The id of the call whose tool asked.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The name of the tool that asked.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The name the tool gave the question with
    /// [`Ask::key`](crate::elicit::Ask::key), if any: what a client
    /// answering several questions at once knows it by (MCP 2026-07-28's
    /// `inputRequests` key).
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// What the person is asked, in the tool's words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The schema of the answer, as MCP elicitation's `requestedSchema`:
    /// a flat object of strings, numbers, integers, booleans and choices.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// When the question stops waiting for an answer.
    pub fn deadline(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.deadline_ms)
    }

    /// The conversation of the call whose tool asked, if its context
    /// named one ([`ContextBuilder::conversation`](crate::context::ContextBuilder::conversation)).
    pub fn conversation(&self) -> Option<&str> {
        self.conversation.as_deref()
    }

    /// How many more answers that do not fit the question takes before it
    /// gives up.
    pub fn asks_left(&self) -> u32 {
        self.asks_left
    }
}

/// The person's answer to a [`Question`]: the three actions of MCP
/// elicitation, written as MCP's `ElicitResult` is.
///
/// ```
/// use serde_json::json;
/// use tool_core::elicit::Answer;
///
/// #[derive(serde::Serialize)]
/// struct Booking { room: &'static str, breakfast: bool }
///
/// let answer = Answer::accept(&Booking { room: "double", breakfast: true }).unwrap();
/// assert_eq!(
///     serde_json::to_value(&answer).unwrap(),
///     json!({"action": "accept", "content": {"room": "double", "breakfast": true}})
/// );
/// assert_eq!(serde_json::to_value(Answer::Decline).unwrap(), json!({"action": "decline"}));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", content = "content", rename_all = "lowercase")]
pub enum Answer {
    /// The person answered: the object the question's schema describes.
    Accept(Value),
    /// The person said no.
    Decline,
    /// The person closed the question without choosing.
    Cancel,
}

impl Answer {
    /// An accept whose content is `answer` as JSON: a value of the
    /// question's type, or any that serializes to what its schema takes.
    pub fn accept(answer: &impl Serialize) -> Result<Self, serde_json::Error> {
        serde_json::to_value(answer).map(Self::Accept)
    }
}
