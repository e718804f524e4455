//! Dispatch: the registry, and the pipeline every call goes through (raw
//! arguments, validation, the one deserializer, policy, timeouts, panics,
//! pending calls, events). Knows the vocabulary and the schema checks, no
//! provider.

mod access;
mod adapter;
pub(crate) mod arguments;
mod batch;
mod closed;
mod entry;
mod execute;
mod held;
pub(crate) mod input;
pub(crate) mod into_tool;
mod key;
mod observe;
mod options;
mod output;
pub(crate) mod params;
mod pending;
mod pipeline;
pub(crate) mod policy;
pub(crate) mod registry;
pub(crate) mod runner;
pub(crate) mod schemas;
pub(crate) mod text;

pub use adapter::{TypedToolAdapter, deserialize_arguments};
pub use arguments::DEFAULT_MAX_ARGUMENT_BYTES;
pub use batch::{Batch, ToolCall};
pub use into_tool::IntoTool;
pub use observe::{CallFinished, CallObserver, CallStarted};
pub use pending::DeliveryError;
pub use policy::{Approval, ApprovalHook, ApprovalRequest, ApproveAll};
pub use registry::{
    DEFAULT_PENDING_TIMEOUT, DEFAULT_TIMEOUT, Inserted, OnDuplicate, ToolCheck, ToolRegistry,
};
