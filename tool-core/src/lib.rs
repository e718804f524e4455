//! Typed tools for LLM agents.
//!
//! Put [`#[tool]`](tool) on an ordinary function (or an argument struct) and
//! get a tool: its name and description from the doc comments, a JSON Schema
//! of its parameters, arguments from a model deserialized before the function
//! runs, and every failure the model causes turned into an error result the
//! model can correct itself from.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use serde_json::json;
//! use tool_core::{tool, ToolContext, ToolRegistry};
//!
//! struct App { units: &'static str }
//!
//! /// Get the current weather for a city.
//! #[tool(read_only)]
//! async fn get_weather(
//!     ctx: &ToolContext<App>,
//!     /// City name, e.g. "Paris".
//!     city: String,
//! ) -> String {
//!     format!("21 degrees {} in {city}", ctx.state().units)
//! }
//!
//! let registry = ToolRegistry::new().with(GetWeather);
//! let definition = &registry.definitions()[0];
//! assert_eq!(definition.description, "Get the current weather for a city.");
//! assert_eq!(
//!     definition.input_schema["properties"]["city"]["description"],
//!     "City name, e.g. \"Paris\"."
//! );
//!
//! let ctx = ToolContext::new(App { units: "Celsius" });
//! let result = registry.call(&ctx, "get_weather", json!({"city": "Paris"})).await;
//! assert_eq!(result.model_text(), "21 degrees Celsius in Paris");
//! # });
//! ```
//!
//! The pieces:
//! - [`TypedTool`]: a tool with a typed input, written by hand;
//! - [`Tool`]: the untyped form (JSON in), usable as a trait object;
//! - [`IntoTool`]: what a registry takes: a `#[tool]`'s unit struct, a
//!   `TypedTool` or a `Tool`;
//! - [`TypedToolAdapter`]: a typed tool seen as an untyped one;
//! - [`ToolRegistry`]: the tools by name, their definitions, and
//!   [`call`](ToolRegistry::call), the pipeline every call goes through
//!   (arguments checked, validated and deserialized, policy, timeout, panics
//!   caught), [`call_all`](ToolRegistry::call_all) for batches (run as
//!   [`Batch`] says), and
//!   [`wait`](ToolRegistry::wait) / [`deliver`](ToolRegistry::deliver) for
//!   `long_running` tools;
//! - [`provider::Provider`]: OpenAI (Chat Completions, Responses),
//!   Anthropic, Gemini, MCP, and the servers that speak Chat Completions
//!   with differences of their own (Groq, Ollama, vLLM):
//!   [`definitions`](provider::Provider::definitions)
//!   gives a registry's tool list in the provider's request shape and schema
//!   dialect, [`parse_calls`](provider::Provider::parse_calls) reads the calls
//!   of a response, [`format_results`](provider::Provider::format_results)
//!   writes the results back, and [`respond`](provider::Provider::respond)
//!   does the three for one turn of a loop, leaving the calls of tools the
//!   client runs to [`Turn::resume`](provider::Turn::resume);
//! - [`Part`], [`Image`], [`Media`], [`Link`]: results that are more than
//!   text, which each provider receives in its own blocks;
//! - [`ApprovalHook`]: the application's say on calls of `Confirm` tools;
//!   [`CallObserver`]: start, progress ([`ToolContext::progress`]) and
//!   finish events;
//! - [`ToolContext`], [`ToolResult`], [`ToolError`], [`ToolMetadata`],
//!   [`call_id()`].
//!
//! Features: `schemars` (on by default) derives input schemas from Rust types;
//! without it every tool writes its schema with `#[tool(schema = ...)]`.

// The crate's own tests write `#[tool]`s, whose expansion names it.
#[cfg(test)]
extern crate self as tool_core;

mod dispatch;
pub mod provider;
mod schema;
mod tool;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use dispatch::{
    Approval, ApprovalHook, ApprovalRequest, ApproveAll, Batch, CallFinished, CallObserver,
    CallStarted, DEFAULT_MAX_ARGUMENT_BYTES, DEFAULT_PENDING_TIMEOUT, DEFAULT_TIMEOUT,
    DeliveryError, Inserted, IntoTool, OnDuplicate, ToolCall, ToolCheck, ToolRegistry,
    TypedToolAdapter, Validation, deserialize_arguments,
};
#[cfg(feature = "schemars")]
pub use schema::input_schema_for;
pub use tool::{
    BoxFuture, CallProgress, CancellationToken, DEFAULT_MAX_MEDIA_BYTES, Echo, ExecuteOutput,
    Image, IntoToolOutput, Link, MAX_ECHO_CHARS, MAX_LISTED_PROBLEMS, Media, MediaKind, Part,
    ProgressAmount, ProgressMessage, ProgressTotal, RegistryError, Tool, ToolContext,
    ToolDefinition, ToolError, ToolInfo, ToolMetadata, ToolOutput, ToolResult, ToolTier, TypedTool,
    Violation, call_id,
};

#[doc(inline)]
#[doc = include_str!("tool_attribute.md")]
pub use tool_macros::tool;
