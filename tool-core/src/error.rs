//! The errors of tools and of the registry.

use std::fmt;

/// Why a call did not produce a successful result.
///
/// Every variant is a failure the model caused or can react to: the registry
/// turns it into an error [`ToolResult`](crate::ToolResult) whose text is this
/// error's `Display`, and keeps the value itself for the application
/// ([`ToolResult::error_kind`](crate::ToolResult::error_kind)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The model asked for a tool the registry does not have.
    #[error("unknown tool `{name}`; available tools: {}", Backticked(available))]
    UnknownTool {
        /// The name the model sent.
        name: String,
        /// The names the registry has, in registration order.
        available: Vec<String>,
    },
    /// The arguments do not fit the tool's input.
    #[error(
        "invalid arguments for tool `{tool}`: {}{message}. Correct the arguments and call the tool again.",
        At(pointer)
    )]
    InvalidArguments {
        /// The tool's name.
        tool: String,
        /// A JSON Pointer (RFC 6901) to the offending value; empty when the
        /// problem is the arguments as a whole (a missing field, say).
        pointer: String,
        /// What is wrong, as the deserializer put it.
        message: String,
    },
    /// The tool ran and reported a failure.
    #[error("{message}")]
    Execution {
        /// The tool's name.
        tool: String,
        /// The tool's own error message.
        message: String,
    },
}

/// `a`, `b`, `c` — or `none` for an empty list.
struct Backticked<'a>(&'a [String]);

impl fmt::Display for Backticked<'_> {
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

/// `at `/a/b`: ` before a message, or nothing at the root.
struct At<'a>(&'a str);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, "at `{}`: ", self.0)
        }
    }
}

/// Why a tool could not be added to a [`ToolRegistry`](crate::ToolRegistry).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// A tool of that name is registered already and the caller asked for
    /// [`OnDuplicate::Error`](crate::OnDuplicate::Error).
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
}
