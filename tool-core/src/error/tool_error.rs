//! The errors of calls and of the registry.

use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

use crate::error::echo::{Echo, MAX_LISTED_PROBLEMS};
use crate::error::message::ErrorMessage;
use crate::error::pointer::{push_key, unescape_key};

/// Why a call did not produce a successful result.
///
/// Every variant is something the model caused or can react to. The
/// registry turns it into an error [`ToolResult`](crate::ToolResult) whose
/// text, this error's `Display`, is written for the model: short, saying
/// what went wrong and what to do. The value itself stays with the result
/// for the application ([`ToolResult::tool_error`](crate::ToolResult::tool_error)),
/// and so does the error a tool failed with, as its
/// [`source`](StdError::source) ([`ErrorMessage`]).
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::error::Error;
/// use std::num::ParseIntError;
/// use serde_json::json;
/// use tool_core::{tool, ToolContext, ToolRegistry};
///
/// /// Parse a whole number.
/// #[tool]
/// fn parse(text: String) -> Result<i64, ParseIntError> {
///     text.parse()
/// }
///
/// let registry = ToolRegistry::new().with(Parse);
/// let result = registry.call(&ToolContext::new(()), "parse", json!({"text": "x"})).await;
/// assert_eq!(result.model_text(), "invalid digit found in string");
/// let error = result.tool_error().unwrap();
/// assert!(error.source().unwrap().downcast_ref::<ParseIntError>().is_some());
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolError {
    /// The model asked for a tool the registry does not have.
    UnknownTool {
        /// The name the model sent.
        name: String,
        /// The closest registered name, if one is close.
        suggestion: Option<String>,
        /// The names the registry has, in registration order.
        available: Vec<String>,
    },
    /// The arguments are larger than the registry accepts.
    ArgumentsTooLarge {
        /// The tool's name.
        tool: String,
        /// The arguments' size as compact JSON, or as much of it as was
        /// counted before it passed the limit.
        size: usize,
        /// The registry's limit.
        limit: usize,
    },
    /// The arguments are not JSON, or not a JSON object.
    MalformedArguments {
        /// The tool's name.
        tool: String,
        /// What is wrong with them.
        problem: String,
    },
    /// The arguments do not fit the tool's input schema or input type.
    InvalidArguments {
        /// The tool's name.
        tool: String,
        /// Every problem found, in the order of the arguments.
        violations: Vec<Violation>,
    },
    /// The tool cannot run here and now.
    Unavailable {
        /// The tool's name.
        tool: String,
        /// Why, in the tool's words.
        reason: String,
    },
    /// The caller lacks a scope the tool requires.
    MissingScope {
        /// The tool's name.
        tool: String,
        /// The first required scope that was not granted.
        scope: String,
    },
    /// The application did not approve the call.
    Denied {
        /// The tool's name.
        tool: String,
        /// Why, as the approval hook put it.
        reason: String,
    },
    /// The tool ran and reported a failure.
    Execution {
        /// The tool's name.
        tool: String,
        /// The tool's own error: the text the model reads, and the error
        /// itself when it was a [`std::error::Error`].
        message: ErrorMessage,
    },
    /// The tool did not finish in time; it was cancelled.
    Timeout {
        /// The tool's name.
        tool: String,
        /// The time limit that ran out.
        after: Duration,
    },
    /// The caller cancelled the call before the tool started (while it
    /// waited for approval, for its turn, or for the calls before it in a
    /// batch): the tool did not run.
    Cancelled {
        /// The tool's name.
        tool: String,
    },
    /// The tool panicked. The model is told only that the tool failed; the
    /// panic's message is for the application.
    Panicked {
        /// The tool's name.
        tool: String,
        /// The panic's message, when it was a string.
        message: String,
    },
    /// A pending call's result was not delivered in time.
    PendingTimeout {
        /// The tool's name.
        tool: String,
        /// The pending call's id.
        call_id: String,
        /// The time limit that ran out.
        after: Duration,
    },
    /// A pending call's record was lost by the store that kept it
    /// ([`RegistryBuilder::store`](crate::registry::RegistryBuilder::store)): the
    /// store was emptied (a restart) or could not be reached for longer
    /// than its [grace](crate::store::Store::outage_grace), so the call's
    /// result cannot be given.
    Lost {
        /// The tool's name (empty when the record, which held it, is the
        /// thing lost).
        tool: String,
        /// The pending call's id.
        call_id: String,
        /// What the store said.
        reason: String,
    },
    /// A media part of the result is larger than the registry passes on
    /// ([`RegistryBuilder::max_media_bytes`](crate::registry::RegistryBuilder::max_media_bytes)).
    MediaTooLarge {
        /// The tool's name.
        tool: String,
        /// The media type of the first part over the limit.
        media_type: String,
        /// Its size in bytes.
        size: usize,
        /// The registry's limit.
        limit: usize,
    },
    /// The tool's structured output does not match its declared output schema.
    InvalidOutput {
        /// The tool's name.
        tool: String,
        /// Every mismatch found.
        violations: Vec<Violation>,
    },
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownTool {
                name,
                suggestion,
                available,
            } => write!(
                f,
                "unknown tool `{}`.{} Available tools: {}.",
                Echo(name),
                DidYouMean(suggestion.as_deref()),
                Backticked(available)
            ),
            Self::ArgumentsTooLarge { tool, size, limit } => write!(
                f,
                "the arguments for tool `{tool}` are over the limit of {limit} bytes (at least {size}); call it again with smaller arguments"
            ),
            Self::MalformedArguments { tool, problem } => write!(
                f,
                "the arguments for tool `{tool}` {problem}; send them as a JSON object"
            ),
            Self::InvalidArguments { tool, violations } => write!(
                f,
                "invalid arguments for tool `{tool}`: {}. Correct the arguments and call the tool again.",
                Violations(violations)
            ),
            Self::Unavailable { tool, reason } => {
                write!(f, "tool `{tool}` is not available: {reason}")
            }
            Self::MissingScope { tool, scope } => write!(
                f,
                "tool `{tool}` requires the scope `{scope}`, which this caller does not have; do not call it again"
            ),
            Self::Denied { tool, reason } => {
                write!(f, "the call to tool `{tool}` was denied: {reason}")
            }
            Self::Execution { message, .. } => fmt::Display::fmt(message, f),
            Self::Timeout { tool, after } => write!(
                f,
                "tool `{tool}` did not finish within {} and was stopped",
                Secs(*after)
            ),
            Self::Cancelled { tool } => write!(
                f,
                "the call to tool `{tool}` was cancelled before it started; the tool did not run"
            ),
            Self::Panicked { tool, .. } => write!(
                f,
                "tool `{tool}` failed unexpectedly; the failure is not in the arguments"
            ),
            Self::PendingTimeout {
                tool,
                call_id,
                after,
            } => write!(
                f,
                "tool `{tool}` (call `{call_id}`) produced no result within {}",
                Secs(*after)
            ),
            Self::Lost {
                tool,
                call_id,
                reason,
            } => write!(
                f,
                "the result of tool `{tool}` (call `{call_id}`) was lost: {reason}; call the tool again if it is still needed"
            ),
            Self::MediaTooLarge {
                tool,
                media_type,
                size,
                limit,
            } => write!(
                f,
                "tool `{tool}` returned {media_type} of {size} bytes, over the limit of {limit} bytes for one media part, so its result was withheld"
            ),
            Self::InvalidOutput { tool, violations } => write!(
                f,
                "tool `{tool}` produced output that does not match its output schema: {}",
                Violations(violations)
            ),
        }
    }
}

/// The source of a tool's own failure is the error it returned, when that
/// was a [`std::error::Error`]; no other variant has one.
impl StdError for ToolError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Self::Execution { message, .. } => message.source().map(|source| source as _),
            _ => None,
        }
    }
}

/// One problem with one value of a call's arguments (or output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The JSON Pointer (RFC 6901) of the value; empty for the arguments as a
    /// whole.
    pub pointer: String,
    /// What is wrong with it, for the model.
    pub message: String,
}

impl Violation {
    /// A problem at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// A problem with the top-level argument `name`: `/name`.
    ///
    /// ```
    /// use tool_core::Violation;
    ///
    /// let problem = Violation::for_argument("end", "must not be before `start`");
    /// assert_eq!(problem.pointer, "/end");
    /// assert_eq!(problem.to_string(), "argument `end` at `/end`: must not be before `start`");
    /// ```
    pub fn for_argument(name: &str, message: impl Into<String>) -> Self {
        let mut pointer = String::new();
        push_key(&mut pointer, name);
        Self::new(pointer, message)
    }

    /// The top-level argument the pointer falls in: `units` for `/units`,
    /// `location` for `/location/city`.
    pub fn argument(&self) -> Option<String> {
        let first = self.pointer.strip_prefix('/')?.split('/').next()?;
        Some(unescape_key(first).into_owned())
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.argument() {
            Some(argument) => write!(
                f,
                "argument `{}` at `{}`: {}",
                Echo(&argument),
                Echo(&self.pointer),
                self.message
            ),
            None => f.write_str(&self.message),
        }
    }
}

pub(crate) struct Violations<'a>(pub(crate) &'a [Violation]);

impl fmt::Display for Violations<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.0.iter().take(MAX_LISTED_PROBLEMS).enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{violation}")?;
        }
        match self.0.len().saturating_sub(MAX_LISTED_PROBLEMS) {
            0 => Ok(()),
            1 => f.write_str("; and 1 more problem"),
            more => write!(f, "; and {more} more problems"),
        }
    }
}

/// `a`, `b`, `c` — or `none` for an empty list.
pub(crate) struct Backticked<'a, T>(pub(crate) &'a [T]);

impl<T: fmt::Display> fmt::Display for Backticked<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}`")?;
        }
        Ok(())
    }
}

struct DidYouMean<'a>(Option<&'a str>);

impl fmt::Display for DidYouMean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(name) => write!(f, " Did you mean `{name}`?"),
            None => Ok(()),
        }
    }
}

/// `30s`, `1.5s`, `250ms`.
pub(crate) struct Secs(pub(crate) Duration);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms < 1000 {
            write!(f, "{ms}ms")
        } else if ms.is_multiple_of(1000) {
            write!(f, "{}s", ms / 1000)
        } else {
            write!(f, "{}s", self.0.as_secs_f64())
        }
    }
}

/// Why a tool could not be added to a [`ToolRegistry`](crate::ToolRegistry).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// A tool of that name is registered already and the caller asked for
    /// [`OnDuplicate::Error`](crate::registry::OnDuplicate::Error).
    #[error("a tool named `{name}` is already registered")]
    DuplicateName {
        /// The name both tools share.
        name: String,
    },
    /// The name is one that providers reject.
    #[error(
        "invalid tool name `{name}`: {reason}; providers accept 1 to 64 ASCII letters, digits, `_` and `-`"
    )]
    InvalidName {
        /// The rejected name.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The tool's input or output schema is not a valid JSON Schema.
    #[error("the {which} schema of tool `{name}` is not a valid JSON Schema: {message}")]
    InvalidSchema {
        /// The tool's name.
        name: String,
        /// `input` or `output`.
        which: &'static str,
        /// What the validator said.
        message: String,
    },
    /// A provider the registry serves rejects the tool's name.
    #[error("tool name `{name}` is rejected by {by}: {reason}")]
    NameRejected {
        /// The rejected name.
        name: String,
        /// The provider that rejects it, as its API is called
        /// ([`Provider::api`](crate::provider::Provider::api)).
        by: &'static str,
        /// Its rule.
        reason: &'static str,
    },
    /// The tool's input schema cannot be written in a provider's dialect.
    #[error("the input schema of tool `{name}` cannot be written for {by}: {reason}")]
    SchemaRejected {
        /// The tool's name.
        name: String,
        /// The provider whose dialect cannot say it, as its API is called.
        by: &'static str,
        /// What stands in the way, and where.
        reason: String,
    },
    /// A rule of a [`Compose`](crate::toolset::Compose) cannot be applied
    /// to the tool: an argument to bind that it does not take, a new name
    /// that is no valid name.
    #[error("tool `{name}` cannot be composed so: {reason}")]
    Compose {
        /// The tool's name, before the rules.
        name: String,
        /// What stands in the way.
        reason: String,
    },
    /// An example input of the tool
    /// ([`ToolMetadata::input_examples`](crate::ToolMetadata::input_examples))
    /// does not pass its input schema: a provider would refuse the tool.
    #[error("example {index} of tool `{name}` does not pass its input schema: {problems}")]
    InvalidExample {
        /// The tool's name.
        name: String,
        /// Which example, from 0.
        index: usize,
        /// What the schema refuses in it.
        problems: String,
    },
    /// The tools cannot be listed for a provider as a
    /// [`Listing`](crate::provider::Listing) asks: a tool search the
    /// provider does not have, a tool with the search's name.
    #[error("the tools cannot be listed so for {by}: {reason}")]
    Listing {
        /// The provider, as its API is called.
        by: &'static str,
        /// What stands in the way.
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_the_model_receives_them() {
        let unknown = ToolError::UnknownTool {
            name: "get_wether".into(),
            suggestion: Some("get_weather".into()),
            available: vec!["get_weather".into(), "search".into()],
        };
        assert_eq!(
            unknown.to_string(),
            "unknown tool `get_wether`. Did you mean `get_weather`? Available tools: `get_weather`, `search`."
        );
        let invalid = ToolError::InvalidArguments {
            tool: "get_weather".into(),
            violations: vec![
                Violation::new(
                    "/units",
                    "expected one of `celsius`, `fahrenheit`, got `kelvin`",
                ),
                Violation::new("", "missing argument `city`"),
                Violation::new("", "expected a JSON object"),
            ],
        };
        assert_eq!(
            invalid.to_string(),
            "invalid arguments for tool `get_weather`: argument `units` at `/units`: expected one of `celsius`, `fahrenheit`, got `kelvin`; missing argument `city`; expected a JSON object. Correct the arguments and call the tool again."
        );
        assert_eq!(Secs(Duration::from_millis(1500)).to_string(), "1.5s");
        assert_eq!(Secs(Duration::from_secs(30)).to_string(), "30s");
        assert_eq!(Secs(Duration::from_millis(20)).to_string(), "20ms");
    }
}
