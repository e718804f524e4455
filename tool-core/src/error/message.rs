//! A tool's own failure: the text the model reads, and the error it came
//! from for the application.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

/// A tool's own failure, as [`ToolError::Execution`](crate::ToolError::Execution)
/// keeps it: the text the model reads (the error's `Display`) and, when the
/// tool failed with a [`std::error::Error`], that error, which is then the
/// [`source`](StdError::source) of the [`ToolError`](crate::ToolError): the
/// application can log it whole or downcast it.
///
/// A `#[tool]` returning `Result<T, E>` keeps the error of every `E:
/// Error + Send + Sync + 'static` this way, and the text alone of any other
/// `E: Display`. A hand-written [`TypedTool`](crate::TypedTool) names
/// its error type in its `Output`, which the registry reads in generic code
/// that cannot tell an `Error` from a `Display`: it returns
/// `Result<T, ErrorMessage>` with [`ErrorMessage::from_error`] to keep the
/// error (any other `E` gives its text).
///
/// Two messages are equal when their texts are: errors in general cannot
/// be compared.
///
/// ```
/// use std::error::Error;
/// use std::num::ParseIntError;
/// use tool_core::error::ErrorMessage;
/// use tool_core::ToolError;
///
/// let parsed = "x".parse::<i64>().unwrap_err();
/// let error = ToolError::Execution {
///     tool: "parse".into(),
///     message: ErrorMessage::from_error(parsed),
/// };
/// assert_eq!(error.to_string(), "invalid digit found in string");
/// assert!(error.source().unwrap().is::<ParseIntError>());
///
/// let plain = ToolError::Execution { tool: "parse".into(), message: "no digits".into() };
/// assert!(plain.source().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct ErrorMessage {
    text: String,
    source: Option<Arc<dyn StdError + Send + Sync>>,
}

impl ErrorMessage {
    /// A message with no error behind it.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            source: None,
        }
    }

    /// The message of `error`, its `Display`, keeping `error` as the source.
    pub fn from_error<E: StdError + Send + Sync + 'static>(error: E) -> Self {
        Self {
            text: error.to_string(),
            source: Some(Arc::new(error)),
        }
    }

    /// The text the model reads.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The error the tool failed with, if it was a [`std::error::Error`].
    pub fn source(&self) -> Option<&(dyn StdError + Send + Sync + 'static)> {
        self.source.as_deref()
    }
}

impl fmt::Display for ErrorMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl AsRef<str> for ErrorMessage {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl From<String> for ErrorMessage {
    fn from(text: String) -> Self {
        Self::new(text)
    }
}

impl From<&str> for ErrorMessage {
    fn from(text: &str) -> Self {
        Self::new(text)
    }
}

impl PartialEq for ErrorMessage {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for ErrorMessage {}

impl PartialEq<str> for ErrorMessage {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for ErrorMessage {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

impl PartialEq<String> for ErrorMessage {
    fn eq(&self, other: &String) -> bool {
        self.text == *other
    }
}
