//! A registry as the hub of many sets of tools: your own `#[tool]`s,
//! other registries, the tools of MCP servers (mounted with tool-mcp).
//!
//! - [`Compose`]: the rules a set of tools goes through to join a
//!   registry: which to keep (by name, annotation or predicate), what to
//!   call them (a prefix, renames), new descriptions, and arguments the
//!   application sets, which the model never sees;
//! - [`RegistryHandle`]: a registry that changes while calls run on it:
//!   tools added, removed, enabled and disabled, registries merged, each
//!   change a new version ([`Changes`] follows them);
//! - [`View`]: the tools one request or one caller may see, picked by
//!   [`Select`] (names, tags, the caller's scopes), listed, turned into a
//!   provider's definitions ([`ToolList`](crate::provider::ToolList)) and called
//!   like a registry's;
//! - [`AutoDefer`]: which tools wait for a search to find them once a
//!   catalog is large, without marking each.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use serde_json::json;
//! use tool_core::toolset::{Compose, RegistryHandle};
//! use tool_core::{ToolContext, ToolRegistry, tool};
//!
//! /// Add two numbers.
//! #[tool]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! /// Subtract `b` from `a`.
//! #[tool]
//! fn sub(a: i64, b: i64) -> i64 { a - b }
//!
//! let math = Compose::new().prefix("math_").apply(ToolRegistry::new().with(Add).with(Sub))?;
//! let handle: RegistryHandle = RegistryHandle::new(math);
//! let ctx = ToolContext::new(());
//! assert_eq!(handle.call(&ctx, "math_add", json!({"a": 1, "b": 2})).await.model_text(), "3");
//!
//! handle.disable("math_sub");
//! assert_eq!(handle.current().names().collect::<Vec<_>>(), ["math_add"]);
//! # Ok::<(), tool_core::registry::RegistryError>(())
//! # }).unwrap();
//! ```

pub(crate) mod auto_defer;
pub(crate) mod compose;
pub(crate) mod handle;
pub(crate) mod view;
pub use crate::toolset::auto_defer::{AutoDefer, BYTES_PER_TOKEN};
pub use crate::toolset::compose::Compose;
pub use crate::toolset::handle::{Changes, RegistryHandle};
pub use crate::toolset::view::{Select, View};
