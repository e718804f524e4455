//! What a `#[prompt]` function may return: any value that becomes the
//! prompt's messages.

use std::any::Any;
use std::borrow::Cow;
use std::fmt::Display;

use crate::prompt::prompts::PromptError;
use crate::tool::message::PromptMessage;

/// A value a [`#[prompt]`](macro@crate::prompt) function may return: its
/// messages.
///
/// - text (`&str`, `String`, `Cow<str>`): one message from the user;
/// - a [`PromptMessage`], or a `Vec` of them: as they are (the user's or
///   the assistant's, each text, an image, an embedded resource or a
///   link);
/// - `Result<T, E>`: an `Err` that is a [`PromptError`] as it is, any
///   other `E: Display` [`PromptError::Failed`] with its text.
///
/// ```
/// use tool_core::prompt::{IntoPromptMessages, PromptMessage};
///
/// let messages = "Review this change.".into_messages("review").unwrap();
/// assert_eq!(messages, [PromptMessage::user("Review this change.")]);
///
/// let failed: Result<String, &str> = Err("no diff");
/// assert_eq!(failed.into_messages("review").unwrap_err().to_string(), "prompt `review` failed: no diff");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a prompt's messages",
    label = "a `#[prompt]` function returns text (one message from the user), a `PromptMessage`, a `Vec<PromptMessage>`, or a `Result` of one",
    note = "return a `String`, or build the messages with `PromptMessage::user` and `PromptMessage::assistant`"
)]
pub trait IntoPromptMessages {
    /// The messages of the prompt named `prompt`, which names it in an
    /// error.
    fn into_messages(self, prompt: &str) -> Result<Vec<PromptMessage>, PromptError>;
}

impl IntoPromptMessages for String {
    fn into_messages(self, _prompt: &str) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![PromptMessage::user(self)])
    }
}

impl IntoPromptMessages for &str {
    fn into_messages(self, _prompt: &str) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![PromptMessage::user(self)])
    }
}

impl IntoPromptMessages for Cow<'_, str> {
    fn into_messages(self, _prompt: &str) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![PromptMessage::user(self.into_owned())])
    }
}

impl IntoPromptMessages for PromptMessage {
    fn into_messages(self, _prompt: &str) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![self])
    }
}

impl IntoPromptMessages for Vec<PromptMessage> {
    fn into_messages(self, _prompt: &str) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(self)
    }
}

impl<T, E> IntoPromptMessages for Result<T, E>
where
    T: IntoPromptMessages,
    E: Display + 'static,
{
    fn into_messages(self, prompt: &str) -> Result<Vec<PromptMessage>, PromptError> {
        match self {
            Ok(value) => value.into_messages(prompt),
            // A `PromptError` is the prompt's own word; any other error is
            // a failure, told by its text. The test is a constant for a
            // given `E`.
            Err(error) => {
                let mut slot = Some(error);
                let own = (&mut slot as &mut dyn Any)
                    .downcast_mut::<Option<PromptError>>()
                    .and_then(Option::take);
                Err(own.unwrap_or_else(|| PromptError::Failed {
                    prompt: prompt.to_owned(),
                    message: slot.map(|error| error.to_string()).unwrap_or_default(),
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_the_prompts_own_or_a_failure() {
        let own: Result<String, PromptError> = Err(PromptError::MissingArgument {
            prompt: "p".to_owned(),
            argument: "a".to_owned(),
        });
        assert_eq!(
            own.into_messages("q").unwrap_err().to_string(),
            "prompt `p` needs the argument `a`"
        );
        let messages = vec![PromptMessage::assistant("a")].into_messages("p");
        assert_eq!(messages, Ok(vec![PromptMessage::assistant("a")]));
    }
}
