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
//! let definition = &registry.tool_definitions()[0];
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
//! At the root are the names nearly every program types: [`tool`] (and
//! its counterparts for what a server offers besides tools,
//! [`resource`](macro@resource) and [`prompt`](macro@prompt)),
//! [`ToolRegistry`] and the [`ToolContext`] its calls run in, the
//! [`ToolResult`] a call gives and the [`ToolError`] a failed one keeps,
//! the two tool traits ([`TypedTool`] with a typed input, [`Tool`] with
//! JSON in, whose [`call`](Tool::call) returns a [`BoxFuture`]), a tool's
//! [`ToolMetadata`], and the [`Violation`] a tool's own checks refuse an
//! input with. The rest is in modules named for their part:
//!
//! - [`registry`]: what a [`ToolRegistry`] takes, knows and is set up
//!   with: the [`IntoTool`](registry::IntoTool) kinds, each tool's
//!   [`ToolInfo`](registry::ToolInfo), batches, duplicate names, its
//!   settings ([`RegistryBuilder`](registry::RegistryBuilder): the checks
//!   every tool must pass, the limits and their defaults, the store), its
//!   errors, and the handles to what waits: results
//!   ([`Pending`](registry::Pending)), parked approvals
//!   ([`Approvals`](registry::Approvals)) and questions
//!   ([`Questions`](registry::Questions));
//! - [`toolset`]: a registry as the hub of many sets of tools: the rules
//!   another set goes through to join it ([`Compose`](toolset::Compose):
//!   filter, rename, prefix, bind arguments, describe anew), and the
//!   [`RegistryHandle`](toolset::RegistryHandle) that changes it while
//!   calls run;
//! - [`output`]: what a tool may return and what a result holds: text,
//!   JSON, media and links as [`Part`](output::Part)s, and the traits
//!   that turn a tool's return value into a [`ToolResult`];
//! - [`policy`]: who may run what: tiers, and the approval hook that
//!   decides on calls of `Confirm` tools;
//! - [`resource`](mod@resource) and [`prompt`](mod@prompt): what a server
//!   offers besides tools (MCP's resources, read by URI, and prompts, got
//!   by name), written on functions as tools are
//!   ([`#[resource]`](macro@resource), [`#[prompt]`](macro@prompt)) and
//!   run in the same [`ToolContext`];
//! - [`observe`]: the start, progress and finish of every call, for logs
//!   and metrics;
//! - [`context`]: what a call carries beside its arguments, set up by
//!   whoever makes calls ([`ContextBuilder`](context::ContextBuilder)):
//!   its id, whose it is, its scopes, its cancellation, who answers for
//!   it;
//! - [`error`]: the parts of a [`ToolError`]: a tool's own error with its
//!   source, and the bounded echo of model output in error texts;
//! - [`schema`]: deriving an input schema from a Rust type;
//! - [`client`]: what a tool may ask of the client that called it: a
//!   completion of its model (MCP sampling) and its roots;
//! - [`elicit`]: what a tool may ask the person while it runs (MCP
//!   elicitation): questions, choices and their answers (feature
//!   `schemars`);
//! - [`provider`]: OpenAI (Chat Completions, Responses), Anthropic,
//!   Gemini, MCP, and the servers that speak Chat Completions with
//!   differences of their own (Groq, Ollama, vLLM):
//!   [`definitions`](provider::Provider::definitions) gives a registry's
//!   tool list in the provider's request shape and schema dialect,
//!   [`parse_calls`](provider::Provider::parse_calls) reads the calls of a
//!   response, [`format_results`](provider::Provider::format_results)
//!   writes the results back, and [`respond`](provider::Provider::respond)
//!   does the three for one turn of a loop, leaving the calls of tools the
//!   client runs to [`Turn::resume`](provider::Turn::resume); each family
//!   of providers is a [`Family`](provider::Family), which a provider this
//!   crate does not ship implements too.
//!
//! Every call goes through [`ToolRegistry::call`]: arguments checked,
//! validated and deserialized, policy, timeout, panics caught;
//! [`call_all`](ToolRegistry::call_all) runs a batch, and
//! [`pending`](ToolRegistry::pending) waits on and delivers the results
//! of `long_running` tools.
//!
//! Features: `schemars` (on by default) derives input schemas from Rust types;
//! without it every tool writes its schema with `#[tool(schema = ...)]`.

// The crate's own tests write `#[tool]`s, whose expansion names it.
#[cfg(test)]
extern crate self as tool_core;

mod dispatch;
mod tool;

pub mod client;
pub mod context;
pub mod elicit;
pub mod error;
pub mod observe;
pub mod output;
pub mod policy;
pub mod prompt;
pub mod provider;
pub mod registry;
pub mod resource;
pub mod schema;
#[cfg(feature = "search")]
pub mod search;
pub mod store;
pub mod toolset;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
pub(crate) mod value;

pub use error::tool_error::{ToolError, Violation};
pub use output::result::ToolResult;
pub use registry::tool_registry::ToolRegistry;
pub use tool::context::ToolContext;
pub use tool::metadata::ToolMetadata;
pub use tool::{Tool, TypedTool};

/// A boxed future that is `Send`, as returned by [`Tool::call`].
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

#[doc(inline)]
#[doc = include_str!("tool_attribute.md")]
pub use tool_macros::tool;

#[doc(inline)]
#[doc = include_str!("resource_attribute.md")]
pub use tool_macros::resource;

#[doc(inline)]
#[doc = include_str!("prompt_attribute.md")]
pub use tool_macros::prompt;
