//! What `#[tool]` expansions name. Not public API: everything generated code
//! needs, std items included, is reached through here so that a user's own
//! `Result`, `Option` or `core` cannot change what the expansion means.

pub use ::core::future::Future;
pub use ::core::marker::{Send, Sync};
pub use ::core::option::Option::{self, None, Some};
pub use ::core::result::Result;
pub use ::std::borrow::Cow;
pub use ::std::time::Duration;

pub use ::serde;
pub use ::serde::{Deserialize, Serialize};
pub use ::serde_json;
pub use ::serde_json::Value;

#[cfg(feature = "schemars")]
pub use ::schemars;
#[cfg(feature = "schemars")]
pub use ::schemars::JsonSchema;

pub use crate::schema::derived as derived_schema;
pub use crate::struct_tool::ToolStruct;
pub use crate::{
    StructTool, ToolContext, ToolMetadata, ToolResult, ToolTier, TypedTool,
    __tool_derive_json_schema as derive_json_schema, __tool_require_schemars as require_schemars,
};

use crate::IntoToolOutput;
use crate::result::from_error;

/// Picks the conversion of a tool's return value by its type, without
/// specialization: method lookup tries `Result<T, E>` (by reference) before
/// any `&T` (by double reference), so `(&value).__tool_return_kind()` finds
/// the first that fits. Works because a tool's return type is concrete.
pub struct ResultKind;

impl ResultKind {
    pub fn into_tool_result<T, E>(self, tool: &str, value: Result<T, E>) -> ToolResult
    where
        T: IntoToolOutput,
        E: ::core::fmt::Display,
    {
        match value {
            Ok(output) => output.into_tool_result(tool),
            Err(error) => from_error(tool, error),
        }
    }
}

pub trait ResultProbe {
    fn __tool_return_kind(&self) -> ResultKind {
        ResultKind
    }
}

impl<T, E> ResultProbe for Result<T, E> {}

pub struct PlainKind;

impl PlainKind {
    pub fn into_tool_result<T: IntoToolOutput>(self, tool: &str, value: T) -> ToolResult {
        value.into_tool_result(tool)
    }
}

pub trait PlainProbe {
    fn __tool_return_kind(&self) -> PlainKind {
        PlainKind
    }
}

impl<T: ?Sized> PlainProbe for &T {}

/// The same trick for a struct's `run` method, which may be `async` or not:
/// a future is awaited, anything else is ready at once.
pub struct FutureKind;

impl FutureKind {
    pub fn into_future<F: Future>(self, future: F) -> F {
        future
    }
}

pub trait FutureProbe {
    fn __tool_await_kind(&self) -> FutureKind {
        FutureKind
    }
}

impl<F: Future> FutureProbe for F {}

pub struct ReadyKind;

impl ReadyKind {
    pub fn into_future<T>(self, value: T) -> ::core::future::Ready<T> {
        ::core::future::ready(value)
    }
}

pub trait ReadyProbe {
    fn __tool_await_kind(&self) -> ReadyKind {
        ReadyKind
    }
}

impl<T: ?Sized> ReadyProbe for &T {}

/// What a `#[tool]` struct's `tool()` returns while the struct has errors;
/// never run, since the crate does not compile.
pub struct FallbackTool;

impl<C: 'static> TypedTool<C> for FallbackTool {
    type Input = Value;
    fn name(&self) -> &str {
        unreachable!("a `#[tool]` with errors does not compile")
    }
    fn description(&self) -> &str {
        unreachable!("a `#[tool]` with errors does not compile")
    }
    fn input_schema(&self) -> Value {
        unreachable!("a `#[tool]` with errors does not compile")
    }
    fn execute(&self, _: &ToolContext<C>, _: Value) -> impl Future<Output = ToolResult> + Send {
        async { unreachable!("a `#[tool]` with errors does not compile") }
    }
}
