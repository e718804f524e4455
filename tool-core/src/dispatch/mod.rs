//! Dispatch: the registry, and the pipeline every call goes through (raw
//! arguments, validation, the one deserializer, policy, timeouts, panics,
//! pending calls, events). Knows the vocabulary and the schema checks, no
//! provider.

mod access;
mod adapter;
mod answer;
mod background;
mod batch;
mod begin;
mod bound;
mod change;
mod compose;
mod decide;
mod entry;
mod execute;
mod handle;
mod held;
pub(crate) mod into_tool;
mod observe;
mod options;
mod output;
mod pending;
mod pipeline;
pub(crate) mod policy;
pub(crate) mod read;
pub(crate) mod registry;
pub(crate) mod runner;
pub(crate) mod schemas;
mod settings;
mod turn;
mod view;
mod waiting;
mod watch;

pub use batch::{Batch, ToolCall};
pub use compose::Compose;
pub use handle::{Changes, RegistryHandle};
pub use into_tool::IntoTool;
pub use observe::{CallFinished, CallObserver, CallStarted};
pub use pending::DeliveryError;
pub(crate) use pending::awaits_decision;
pub use policy::{
    Approval, ApprovalHook, ApprovalRequest, ApproveAll, Decision, DecisionError, ParkedCall,
};
pub use read::raw::DEFAULT_MAX_ARGUMENT_BYTES;
pub use registry::{Inserted, OnDuplicate, ToolCheck, ToolRegistry};
pub use settings::{DEFAULT_PENDING_TIMEOUT, DEFAULT_TIMEOUT, Validation};
pub use view::{Select, ToolList, View};
