//! What a [`ToolRegistry`](crate::ToolRegistry) takes, knows and is set
//! up with, beside the registry itself:
//! - what it takes: anything [`IntoTool`] (a `#[tool]`, a
//!   [`TypedTool`](crate::TypedTool), a [`Tool`](crate::Tool)), added
//!   as [`OnDuplicate`] says when the name is taken;
//! - what it knows of each tool: its [`ToolInfo`], whose
//!   [`ToolDefinition`] every provider's definition is made from;
//! - its settings: how a batch of [`ToolCall`]s runs ([`Batch`]), the
//!   [`ToolCheck`]s every tool must pass, which calls are checked against
//!   their schema ([`Validation`]), and the limits, whose defaults are the
//!   constants here;
//! - its errors: [`RegistryError`] when a tool cannot be added,
//!   [`DeliveryError`] when a pending call's result cannot be delivered.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use serde_json::json;
//! use tool_core::registry::{Batch, ToolCall};
//! use tool_core::{tool, ToolContext, ToolRegistry};
//!
//! /// Add two numbers.
//! #[tool(concurrency_safe)]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! let registry = ToolRegistry::builder().with(Add).batch(Batch::Sequential).build();
//! let calls = [
//!     ToolCall::new("add", json!({"a": 1, "b": 2})),
//!     ToolCall::new("add", json!({"a": 3, "b": 4})),
//! ];
//! let results = registry.call_all(&ToolContext::new(()), calls).await;
//! assert_eq!(results[1].model_text(), "7");
//! # });
//! ```

pub(crate) mod approvals;
pub(crate) mod batch;
pub(crate) mod change;
pub(crate) mod handle;
pub(crate) mod into_tool;
pub(crate) mod options;
pub(crate) mod pending;
pub(crate) mod questions;
pub(crate) mod tool_registry;
pub use crate::dispatch::pending::DeliveryError;
pub use crate::dispatch::read::raw::DEFAULT_MAX_ARGUMENT_BYTES;
pub use crate::dispatch::settings::{DEFAULT_PENDING_TIMEOUT, DEFAULT_TIMEOUT, Validation};
pub use crate::error::tool_error::RegistryError;
pub use crate::output::media::DEFAULT_MAX_MEDIA_BYTES;
pub use crate::registry::approvals::Approvals;
pub use crate::registry::batch::{Batch, ToolCall};
pub use crate::registry::into_tool::IntoTool;
pub use crate::registry::options::RegistryBuilder;
pub use crate::registry::pending::Pending;
pub use crate::registry::questions::Questions;
pub use crate::registry::tool_registry::{Inserted, OnDuplicate, ToolCheck};
pub use crate::tool::{ToolDefinition, ToolInfo};
