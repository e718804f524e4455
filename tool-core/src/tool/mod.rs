//! The vocabulary: the two tool traits, the context a tool runs in, its
//! results and errors, its metadata. Knows nothing of dispatch or providers.

pub(crate) mod approval;
pub(crate) mod ask;
pub(crate) mod call_id;
pub(crate) mod client;
pub(crate) mod context;
pub(crate) mod log;
pub(crate) mod message;
pub(crate) mod metadata;
pub(crate) mod name;
pub(crate) mod progress;
pub(crate) mod shared_call;

use serde_json::Value;

use crate::BoxFuture;
use crate::error::tool_error::Violation;
use crate::output::result::{ExecuteOutput, ToolResult};
use crate::tool::context::ToolContext;
use crate::tool::metadata::ToolMetadata;

use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A tool with a typed input: the arguments are deserialized into
/// [`TypedTool::Input`] before [`TypedTool::execute`] runs, and what it
/// returns, [`TypedTool::Output`], is the result: a [`ToolResult`], or a
/// `Result` whose `Err` the model reads, so that `execute` can use `?`.
///
/// Write it by hand for a tool that needs more than `#[tool]` offers (state
/// of its own, a check of availability per caller), and register it as it
/// is: a registry calls [`input_schema`](TypedTool::input_schema) once,
/// when the tool is registered, and never calls `execute` with arguments
/// that failed to deserialize.
///
/// ```
/// use serde::Deserialize;
/// use serde_json::{json, Value};
/// use tool_core::{ToolContext, ToolResult, TypedTool};
///
/// #[derive(Deserialize)]
/// struct Echo { text: String }
///
/// struct EchoTool;
///
/// impl TypedTool for EchoTool {
///     type Input = Echo;
///     type Output = ToolResult;
///     fn name(&self) -> &str { "echo" }
///     fn description(&self) -> &str { "Repeat the text." }
///     fn input_schema(&self) -> Value {
///         json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
///     }
///     async fn execute(&self, _ctx: &ToolContext, input: Echo) -> ToolResult {
///         ToolResult::text(input.text)
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool for a registry of `ToolContext<{Ctx}>`",
    note = "implement `TypedTool<{Ctx}>` by hand, or put `#[tool]` on a function or a struct"
)]
pub trait TypedTool<Ctx = ()>: Send + Sync + 'static {
    /// The arguments, as the model sends them.
    type Input: DeserializeOwned + Send + 'static;

    /// What [`execute`](TypedTool::execute) returns: a [`ToolResult`], or a
    /// `Result<T, E>` of any value a tool may return ([`IntoToolOutput`](crate::output::IntoToolOutput):
    /// text, JSON, media, parts, a `ToolResult`) and any `E: Display`, whose
    /// `Err` becomes an error result with the error's text, so that
    /// `execute` can use `?`.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use serde_json::{json, Value};
    /// use tool_core::{ToolContext, TypedTool};
    ///
    /// #[derive(Deserialize)]
    /// struct Sum { numbers: Vec<String> }
    ///
    /// struct Add;
    ///
    /// impl TypedTool for Add {
    ///     type Input = Sum;
    ///     type Output = Result<i64, std::num::ParseIntError>;
    ///     fn name(&self) -> &str { "add" }
    ///     fn description(&self) -> &str { "Add numbers written as text." }
    ///     fn input_schema(&self) -> Value { json!({"type": "object"}) }
    ///     async fn execute(&self, _ctx: &ToolContext, input: Sum) -> Self::Output {
    ///         let mut total = 0;
    ///         for number in &input.numbers {
    ///             total += number.parse::<i64>()?;
    ///         }
    ///         Ok(total)
    ///     }
    /// }
    /// ```
    type Output: ExecuteOutput;

    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// The JSON Schema of [`TypedTool::Input`]. Called once, when the tool is
    /// registered.
    ///
    /// Owned, here and in [`Tool::input_schema`], because the registry keeps
    /// it: it compiles the validator from it and writes each provider's
    /// dialect from it, so a schema built on demand (`json!`,
    /// [`input_schema_for`](crate::schema::input_schema_for)) moves in
    /// without a copy; a tool that keeps its schema clones it, once.
    fn input_schema(&self) -> Value;

    /// The JSON Schema of the tool's structured output, if it declares one.
    /// Called once, when the tool is registered. Default: none.
    fn output_schema(&self) -> Option<Value> {
        None
    }

    /// The tool's metadata. Default: [`ToolMetadata::DEFAULT`].
    fn metadata(&self) -> ToolMetadata {
        ToolMetadata::DEFAULT
    }

    /// The tool's own checks of its input, for what a schema cannot say
    /// (`end` after `start`, an account that belongs to the caller): run
    /// after the arguments are deserialized and before the policy checks
    /// (tier, scopes, approval). A refusal reaches the model as schema
    /// violations do, each [`Violation`] naming its argument when it has
    /// one ([`Violation::for_argument`]). Default: every input is accepted.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use serde_json::{json, Value};
    /// use tool_core::{ToolContext, ToolResult, TypedTool, Violation};
    ///
    /// #[derive(Deserialize)]
    /// struct Range { start: u32, end: u32 }
    ///
    /// struct Count;
    ///
    /// impl TypedTool for Count {
    ///     type Input = Range;
    ///     type Output = ToolResult;
    ///     fn name(&self) -> &str { "count" }
    ///     fn description(&self) -> &str { "Count from start to end." }
    ///     fn input_schema(&self) -> Value { json!({"type": "object"}) }
    ///     fn validate(&self, _ctx: &ToolContext, input: &Range) -> Result<(), Vec<Violation>> {
    ///         if input.end < input.start {
    ///             return Err(vec![Violation::for_argument("end", "must not be before `start`")]);
    ///         }
    ///         Ok(())
    ///     }
    ///     async fn execute(&self, _ctx: &ToolContext, input: Range) -> ToolResult {
    ///         ToolResult::text((input.end - input.start).to_string())
    ///     }
    /// }
    /// ```
    fn validate(&self, ctx: &ToolContext<Ctx>, input: &Self::Input) -> Result<(), Vec<Violation>> {
        let _ = (ctx, input);
        Ok(())
    }

    /// Whether the tool can run for this caller now; the reason, for the
    /// model, when it cannot. Checked before every call. Default: available.
    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        let _ = ctx;
        Ok(())
    }

    /// Runs the tool on arguments that have been deserialized.
    fn execute(
        &self,
        ctx: &ToolContext<Ctx>,
        input: Self::Input,
    ) -> impl Future<Output = Self::Output> + Send;
}

/// A tool that takes its arguments as raw JSON, usable as a trait object.
///
/// Implement it for tools whose names or schemas are only known at run time
/// (tools forwarded from another server, say); a
/// [`ToolRegistry`](crate::ToolRegistry) holds it beside typed tools and
/// runs it through the same pipeline, up to the arguments, which it gets
/// as JSON.
///
/// ```
/// use serde_json::{json, Value};
/// use tool_core::{BoxFuture, Tool, ToolContext, ToolResult};
///
/// struct Forwarded { name: String, schema: Value }
///
/// impl Tool for Forwarded {
///     fn name(&self) -> &str { &self.name }
///     fn description(&self) -> &str { "A tool served elsewhere." }
///     fn input_schema(&self) -> Value { self.schema.clone() }
///     fn call<'a>(&'a self, _ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolResult> {
///         Box::pin(async move { ToolResult::json(args) })
///     }
/// }
/// ```
pub trait Tool<Ctx = ()>: Send + Sync + 'static {
    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// The JSON Schema of the arguments. Called once, when the tool is
    /// registered; the registry keeps the schema it returns, as
    /// [`TypedTool::input_schema`] is kept.
    fn input_schema(&self) -> Value;

    /// The JSON Schema of the structured output, if any. Called once, when
    /// the tool is registered. Default: none.
    fn output_schema(&self) -> Option<Value> {
        None
    }

    /// The tool's metadata. Default: [`ToolMetadata::DEFAULT`].
    fn metadata(&self) -> ToolMetadata {
        ToolMetadata::DEFAULT
    }

    /// Whether the tool can run for this caller now; the reason, for the
    /// model, when it cannot. Checked before every call. Default: available.
    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        let _ = ctx;
        Ok(())
    }

    /// Runs the tool on the model's arguments. Every failure, bad arguments
    /// included, is an error [`ToolResult`].
    fn call<'a>(&'a self, ctx: &'a ToolContext<Ctx>, args: Value) -> BoxFuture<'a, ToolResult>;
}

/// A tool as every provider sees it: name, description, input schema;
/// each provider's own definition of a tool is made from this, in its
/// shape and dialect. A tool's [`ToolInfo`] holds it beside what the
/// registry knows of the tool besides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// The tool's description.
    pub description: String,
    /// The JSON Schema of the arguments.
    pub input_schema: Value,
}

/// A shared tool is a tool: `Arc<dyn Tool<Ctx>>` registers like the tool
/// it holds.
impl<Ctx, T: Tool<Ctx> + ?Sized> Tool<Ctx> for std::sync::Arc<T> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn description(&self) -> &str {
        (**self).description()
    }

    fn input_schema(&self) -> Value {
        (**self).input_schema()
    }

    fn output_schema(&self) -> Option<Value> {
        (**self).output_schema()
    }

    fn metadata(&self) -> ToolMetadata {
        (**self).metadata()
    }

    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        (**self).check_available(ctx)
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext<Ctx>, args: Value) -> BoxFuture<'a, ToolResult> {
        (**self).call(ctx, args)
    }
}

/// Everything a registry knows of one tool, as
/// [`ToolRegistry::tools`](crate::ToolRegistry::tools) gives it: its
/// [`ToolDefinition`], and its output schema and metadata, which some
/// providers' definitions also carry.
///
/// ```
/// use tool_core::{tool, ToolRegistry};
///
/// /// Add two numbers.
/// #[tool(read_only)]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(Add);
/// let info = registry.info("add").unwrap();
/// assert_eq!(info.definition.description, "Add two numbers.");
/// assert!(info.metadata.read_only);
/// assert_eq!(Some(info.definition), registry.info("add").map(|tool| tool.definition));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolInfo<'a> {
    /// The tool's name, description and input schema.
    pub definition: &'a ToolDefinition,
    /// The JSON Schema of the structured output, if the tool declares one.
    pub output_schema: Option<&'a Value>,
    /// The tool's metadata.
    pub metadata: &'a ToolMetadata,
}
