//! Watching calls: a registry's [`CallObserver`] hears when each call
//! starts, reports progress and finishes, for logs, metrics and progress
//! notifications; a tool reports progress with
//! [`ToolContext::progress`](crate::ToolContext::progress), whose
//! arguments the `Progress*` traits describe, and writes to its log with
//! [`ToolContext::log`](crate::ToolContext::log) at a [`LogLevel`].
//!
//! ```
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use tool_core::observe::{CallFinished, CallObserver};
//! use tool_core::ToolRegistry;
//!
//! #[derive(Default)]
//! struct Failures(AtomicUsize);
//!
//! impl CallObserver for Failures {
//!     fn call_finished(&self, event: &CallFinished<'_>) {
//!         if event.result.is_error() {
//!             self.0.fetch_add(1, Ordering::Relaxed);
//!         }
//!     }
//! }
//!
//! let registry: ToolRegistry = ToolRegistry::builder().observer(Failures::default()).build();
//! # let _ = registry;
//! ```

pub(crate) mod observer;
pub use crate::observe::observer::{CallFinished, CallObserver, CallStarted};
pub use crate::tool::log::{CallLog, LogLevel, UnknownLogLevel};
pub use crate::tool::progress::{CallProgress, ProgressAmount, ProgressMessage, ProgressTotal};
