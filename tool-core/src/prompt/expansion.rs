//! What a `#[prompt]` expansion calls, through `__private`: each argument
//! read for the function's parameter of that name, and the function's
//! value made messages.

use std::fmt::Display;
use std::str::FromStr;

use crate::prompt::output::IntoPromptMessages;
use crate::prompt::prompts::{PromptArguments, PromptError};
use crate::tool::message::PromptMessage;

/// What a `#[prompt]` function's parameter may be: an argument, read from
/// the text the client sends (an `Option` of one for an argument that may
/// be left out).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a prompt's argument",
    label = "a prompt's arguments arrive as text, read into this type",
    note = "take a `String`, or a type that implements `FromStr` with an error that implements `Display`; `Option<T>` for an argument that may be left out"
)]
pub trait ArgumentValue: Sized {
    /// The value `text` stands for, or why it does not read as one.
    fn from_argument_text(text: &str) -> Result<Self, String>;
}

impl<T> ArgumentValue for T
where
    T: FromStr,
    T::Err: Display,
{
    fn from_argument_text(text: &str) -> Result<Self, String> {
        text.parse().map_err(|error: T::Err| error.to_string())
    }
}

/// The argument `name` of the prompt `prompt`, as a `T`; missing, or not
/// read as one, is an error naming it.
pub fn prompt_argument<T: ArgumentValue>(
    prompt: &str,
    arguments: &PromptArguments,
    name: &str,
) -> Result<T, PromptError> {
    match optional_prompt_argument(prompt, arguments, name)? {
        Some(value) => Ok(value),
        None => Err(PromptError::MissingArgument {
            prompt: prompt.to_owned(),
            argument: name.to_owned(),
        }),
    }
}

/// The argument `name` of the prompt `prompt`, as a `T`, when given; not
/// read as one is an error naming it.
pub fn optional_prompt_argument<T: ArgumentValue>(
    prompt: &str,
    arguments: &PromptArguments,
    name: &str,
) -> Result<Option<T>, PromptError> {
    let Some(text) = arguments.get(name) else {
        return Ok(None);
    };
    T::from_argument_text(text)
        .map(Some)
        .map_err(|reason| PromptError::InvalidArgument {
            prompt: prompt.to_owned(),
            argument: name.to_owned(),
            reason,
        })
}

/// The function's value as the messages of the prompt `prompt`.
pub fn prompt_messages<T: IntoPromptMessages>(
    prompt: &str,
    value: T,
) -> Result<Vec<PromptMessage>, PromptError> {
    value.into_messages(prompt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_argument_is_read_or_refused_by_name() {
        let arguments = PromptArguments::from([
            ("count".to_owned(), "3".to_owned()),
            ("bad".to_owned(), "three".to_owned()),
        ]);
        assert_eq!(prompt_argument::<u8>("p", &arguments, "count"), Ok(3));
        assert_eq!(
            prompt_argument::<u8>("p", &arguments, "bad")
                .unwrap_err()
                .to_string(),
            "prompt `p`: argument `bad`: invalid digit found in string"
        );
        assert_eq!(
            prompt_argument::<String>("p", &arguments, "gone")
                .unwrap_err()
                .to_string(),
            "prompt `p` needs the argument `gone`"
        );
        assert_eq!(
            optional_prompt_argument::<String>("p", &arguments, "gone"),
            Ok(None)
        );
    }
}
