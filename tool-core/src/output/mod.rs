//! What a tool returns, and what a [`ToolResult`](crate::ToolResult)
//! holds: text, JSON, or [`Part`]s (text, JSON, [`Image`]s and other
//! [`Media`], [`Link`]s), which each provider receives in its own blocks.
//!
//! Two traits turn a tool's return value into a result, each where it
//! applies:
//! - [`IntoToolOutput`]: a *value* a tool may return. A `#[tool]` function
//!   returns one, or a `Result` of one, and so is the `T` of any
//!   `Result<T, E>` a tool returns;
//! - [`ExecuteOutput`]: what a hand-written
//!   [`TypedTool::execute`](crate::TypedTool::execute) returns: a
//!   [`ToolResult`](crate::ToolResult), or a `Result<T, E>` with `T:
//!   IntoToolOutput`. A plain value is not one: a `Result` of a value that
//!   is itself a `Result` would be ambiguous, so `execute` says which it
//!   returns.
//!
//! Neither needs to be implemented: every `Serialize` type, the media
//! types and [`ToolResult`](crate::ToolResult) have them.
//!
//! ```
//! use tool_core::output::{Image, Part};
//! use tool_core::ToolResult;
//!
//! # let png = vec![0x89, b'P', b'N', b'G'];
//! let result = ToolResult::parts(vec![Part::text("The chart:"), Image::png(png).into()]);
//! assert_eq!(result.model_text(), "The chart:\n[image (image/png, 4 bytes)]");
//! ```

pub(crate) mod media;
pub(crate) mod result;
pub(crate) mod stored;
pub use crate::output::media::{Image, Link, Media, MediaKind, Part, ToolRef};
pub use crate::output::result::{ExecuteOutput, IntoToolOutput, ToolOutput};
