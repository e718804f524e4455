//! The parts of a [`ToolError`](crate::ToolError): the [`ErrorMessage`] of
//! a tool's own failure, which keeps the error it came from for the
//! application while the model reads its text, and [`Echo`], the one
//! bound on the model output an error text repeats.
//!
//! A [`Violation`](crate::Violation), one problem with one argument, is at
//! the root: a tool's own checks return it.

pub(crate) mod echo;
pub(crate) mod message;
pub(crate) mod pointer;
pub(crate) mod tool_error;
pub use crate::error::echo::{Echo, MAX_ECHO_CHARS, MAX_LISTED_PROBLEMS};
pub use crate::error::message::ErrorMessage;
