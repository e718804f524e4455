//! Who puts a tool's questions to the person ([`Asker`]), what is asked
//! ([`Question`](question::Question)) and answered, and why no answer comes
//! ([`ElicitError`](error::ElicitError)): what a [`ToolContext`] carries
//! to ask, whichever part does the asking.
//!
//! [`ToolContext`]: crate::ToolContext

pub(crate) mod error;
pub(crate) mod question;

use std::sync::{Mutex, PoisonError};

use crate::BoxFuture;
use crate::tool::ask::error::ElicitError;
use crate::tool::ask::question::{Answer, Question};

/// Whoever puts a tool's questions to the person: an MCP client
/// (`tool-mcp` names it for each request), the registry's parked
/// questions ([`Questions::answer`](crate::registry::Questions::answer)), or
/// answers given beforehand ([`ContextBuilder::answers`](crate::context::ContextBuilder::answers)).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_core::elicit::{Answer, Asker, Elicit, ElicitError, Elicitation, Question};
/// use tool_core::{BoxFuture, ToolContext};
///
/// /// Says yes to every question, with a fixed answer.
/// struct AlwaysTwo;
///
/// impl Asker for AlwaysTwo {
///     fn ask<'a>(&'a self, _question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
///         Box::pin(async { Ok(Answer::Accept(serde_json::json!({"guests": 2}))) })
///     }
/// }
///
/// #[derive(Deserialize, JsonSchema, Elicit)]
/// struct Party {
///     /// How many.
///     guests: u8,
/// }
///
/// let ctx = ToolContext::builder(()).asker(AlwaysTwo).build();
/// let answer = ctx.elicit::<Party>("How many guests?").await?;
/// assert_eq!(answer.accepted().map(|party| party.guests), Some(2));
/// # Ok::<(), ElicitError>(())
/// # }).unwrap();
/// ```
pub trait Asker: Send + Sync + 'static {
    /// Puts `question` to the person: what they did with it, or why no
    /// answer can come. The time limit and the call's cancellation are
    /// the caller's to keep: the future is dropped when either comes.
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>>;
}

/// No one to ask, for this reason.
pub(crate) struct NoOne(pub(crate) String);

impl Asker for NoOne {
    fn ask<'a>(&'a self, _question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        let reason = self.0.clone();
        Box::pin(std::future::ready(Err(ElicitError::Unsupported { reason })))
    }
}

/// Answers given beforehand, one a question, in order.
pub(crate) struct Given(pub(crate) Mutex<std::vec::IntoIter<Answer>>);

impl Asker for Given {
    fn ask<'a>(&'a self, _question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        let next = self.0.lock().unwrap_or_else(PoisonError::into_inner).next();
        Box::pin(std::future::ready(next.ok_or_else(|| {
            ElicitError::Unsupported {
                reason: "every answer given beforehand (ContextBuilder::answers) was used"
                    .to_owned(),
            }
        })))
    }
}
