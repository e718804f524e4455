//! Why a question to a person gave no answer, accepted, declined or
//! cancelled.

use std::time::Duration;

use crate::error::tool_error::Violation;
use crate::error::tool_error::{Secs, Violations};

/// Every end of a question other than the person's accept, decline or
/// cancel ([`Elicitation`](crate::elicit::Elicitation)).
///
/// A tool that returns `Result<_, ElicitError>` passes the error's text to
/// the model, so each text says, for the model, what happened.
///
/// ```
/// use std::time::Duration;
/// use tool_core::elicit::ElicitError;
///
/// let error = ElicitError::TimedOut { after: Duration::from_secs(300) };
/// assert_eq!(error.to_string(), "the person did not answer within 300s");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ElicitError {
    /// No one can be asked where the call runs: an MCP client without
    /// elicitation, a context outside a registry call.
    #[error("the person could not be asked: {reason}")]
    Unsupported {
        /// Why, for the model.
        reason: String,
    },
    /// The question's time ran out before an answer came.
    #[error("the person did not answer within {}", Secs(*after))]
    TimedOut {
        /// The time the question waited.
        after: Duration,
    },
    /// The call was cancelled while the question waited; the question is
    /// withdrawn.
    #[error("the call was cancelled while it waited for the person's answer")]
    Cancelled,
    /// Every answer the person gave failed the question's schema or type,
    /// as many times as a question is asked.
    #[error(
        "the person's answer did not fit, after {asked} asks: {}",
        Violations(violations)
    )]
    InvalidAnswer {
        /// How many times the question was asked.
        asked: u32,
        /// What was wrong with the last answer.
        violations: Vec<Violation>,
    },
    /// The question's record is gone (a store emptied or restarted).
    #[error("the question to the person was lost: {reason}")]
    Lost {
        /// Why, for the model.
        reason: String,
    },
    /// The tool asked without saying that it asks (`#[tool(asks)]`,
    /// [`ToolMetadata::asks`](crate::ToolMetadata::asks)): its call cannot
    /// wait for an answer.
    #[error(
        "tool `{tool}` asked the person a question, but is not marked `asks` (`#[tool(asks)]`), so its call cannot wait for an answer"
    )]
    Undeclared {
        /// The tool's name.
        tool: String,
    },
    /// The type's schema is not a flat object MCP elicitation can show; for
    /// a type that derives `Elicit`, only a hand-written `JsonSchema` of a
    /// field's type gets here.
    #[error("`{type_name}` cannot be asked of a person: {reason}")]
    NotFlat {
        /// The question's type.
        type_name: &'static str,
        /// What in its schema cannot be shown, naming the property.
        reason: String,
    },
}

/// Why an answer to a parked question was refused
/// ([`Questions::answer`](crate::registry::Questions::answer)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// No question is kept under this id (never asked, or answered and
    /// taken, or expired).
    #[error("no question waits for an answer under the id `{question_id}`")]
    UnknownQuestion {
        /// The id given.
        question_id: String,
    },
    /// The question is kept, but waits no more.
    #[error("the question `{question_id}` no longer waits for an answer: {why}")]
    NotOpen {
        /// The question's id.
        question_id: String,
        /// Why: answered, withdrawn (and why), or out of time.
        why: String,
    },
    /// The answer does not fit what was asked; the question still waits.
    #[error(
        "the answer to question `{question_id}` does not fit: {}",
        Violations(violations)
    )]
    Invalid {
        /// The question's id.
        question_id: String,
        /// What does not fit, where.
        violations: Vec<Violation>,
    },
    /// The store could not be read or written.
    #[error("the answer to question `{question_id}` could not be recorded: {error}")]
    Store {
        /// The question's id.
        question_id: String,
        /// The store's error.
        error: crate::store::StoreError,
    },
}
