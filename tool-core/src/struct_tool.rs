//! The tool of a `#[tool]` struct: the struct is the input, its `run` method
//! the body.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{ToolContext, ToolMetadata, ToolResult, TypedTool};

/// What `#[tool]` implements for a struct; not written by hand.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `#[tool]` struct for a registry of `ToolContext<{Ctx}>`",
    note = "a `#[tool(context = C)]` struct is a tool for a `ToolRegistry<C>` only; without `context` it fits any registry"
)]
pub trait ToolStruct<Ctx>: DeserializeOwned + Serialize + Send + Sized + 'static {
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    fn input_schema() -> Value;
    fn output_schema() -> Option<Value>;
    fn metadata() -> ToolMetadata;
    const USES_CONTEXT: bool;
    fn execute(self, ctx: &ToolContext<Ctx>) -> impl Future<Output = ToolResult> + Send;
}

/// The tool of a `#[tool]` struct, as returned by its generated `tool()`
/// function: `WebSearch::tool()`.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use schemars::JsonSchema;
/// use tool_core::{tool, ToolRegistry};
///
/// /// Search the web.
/// #[tool]
/// #[derive(Deserialize, Serialize, JsonSchema)]
/// struct WebSearch {
///     /// The search query.
///     query: String,
/// }
///
/// impl WebSearch {
///     async fn run(self) -> Vec<String> {
///         vec![format!("a page about {}", self.query)]
///     }
/// }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(WebSearch::tool());
/// assert_eq!(registry.definitions()[0].name, "web_search");
/// ```
pub struct StructTool<T>(PhantomData<fn() -> T>);

impl<T> StructTool<T> {
    #[doc(hidden)]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Clone for StructTool<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for StructTool<T> {}

impl<T> fmt::Debug for StructTool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StructTool<{}>", std::any::type_name::<T>())
    }
}

impl<T, Ctx> TypedTool<Ctx> for StructTool<T>
where
    T: ToolStruct<Ctx>,
    Ctx: 'static,
{
    type Input = T;

    fn name(&self) -> &str {
        T::NAME
    }

    fn description(&self) -> &str {
        T::DESCRIPTION
    }

    fn input_schema(&self) -> Value {
        T::input_schema()
    }

    fn output_schema(&self) -> Option<Value> {
        T::output_schema()
    }

    fn metadata(&self) -> ToolMetadata {
        T::metadata()
    }

    fn uses_context(&self) -> bool {
        T::USES_CONTEXT
    }

    fn execute(&self, ctx: &ToolContext<Ctx>, input: T) -> impl Future<Output = ToolResult> + Send {
        input.execute(ctx)
    }
}
