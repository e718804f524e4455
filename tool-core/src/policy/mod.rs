//! Who may run what: each tool's [`ToolTier`], and the
//! [`ApprovalHook`] through which the application approves or denies the
//! calls of `Confirm` tools (without one, they are denied).
//!
//! ```
//! use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
//! use tool_core::{tool, ToolRegistry};
//!
//! /// Delete a file.
//! #[tool(tier = Confirm, destructive)]
//! fn delete(path: String) -> String {
//!     format!("deleted {path}")
//! }
//!
//! /// Approves deletions under `/tmp` only.
//! struct TmpOnly;
//!
//! impl ApprovalHook<()> for TmpOnly {
//!     async fn approve(&self, request: &ApprovalRequest<'_, ()>) -> Approval {
//!         match request.arguments["path"].as_str() {
//!             Some(path) if path.starts_with("/tmp/") => Approval::Approve,
//!             _ => Approval::deny("only files under /tmp may be deleted"),
//!         }
//!     }
//! }
//!
//! let registry = ToolRegistry::builder().with(Delete).approval(TmpOnly).build();
//! assert!(registry.approvals().has_hook());
//! ```

pub use crate::tool::approval::{Approval, ApprovalHook, ApprovalRequest, ApproveAll};
pub use crate::tool::metadata::{Callers, ToolTier};

use std::time::SystemTime;

use serde_json::Value;

use crate::store::StoreError;

/// A person's decision on a call parked for approval ([`Approval::Park`]),
/// given with [`Approvals::decide`](crate::registry::Approvals::decide).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Decision {
    /// Run it as the model asked.
    Approve,
    /// Do not run it; the reason is what the model reads.
    Deny {
        /// Why, for the model.
        reason: String,
    },
    /// Run it with these arguments instead, which are checked against the
    /// tool's schema and read as the model's would be: arguments that do
    /// not fit make the call's result the error the model reads.
    Edit {
        /// The arguments to run it with.
        arguments: Value,
    },
}

impl Decision {
    /// A denial with this reason.
    pub fn deny(reason: impl Into<String>) -> Self {
        Self::Deny {
            reason: reason.into(),
        }
    }

    /// An approval with these arguments.
    pub fn edit(arguments: Value) -> Self {
        Self::Edit { arguments }
    }
}

/// Why [`Approvals::decide`](crate::registry::Approvals::decide) took no
/// decision.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecisionError {
    /// No parked call has that id (it never existed, or its record
    /// expired).
    #[error("no call waits for a decision under the id `{call_id}`")]
    UnknownCall {
        /// The id given.
        call_id: String,
    },
    /// The call was decided already, or no decision came in time.
    #[error("the call `{call_id}` no longer waits for a decision: it was decided, or timed out")]
    NotParked {
        /// The id given.
        call_id: String,
    },
    /// The store that keeps the parked call failed: nothing was decided.
    #[error("the decision on call `{call_id}` was not taken: {error}")]
    Store {
        /// The id given.
        call_id: String,
        /// What the store said.
        error: StoreError,
    },
}

/// A call parked for a person's decision ([`Approval::Park`]), as
/// [`Approvals::parked`](crate::registry::Approvals::parked) lists it for its
/// caller: what to show the person, and the id to
/// [decide](crate::registry::Approvals::decide) it under.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ParkedCall {
    pub(crate) call_id: String,
    pub(crate) tool: String,
    pub(crate) arguments: Value,
    pub(crate) conversation: Option<String>,
    pub(crate) deadline: SystemTime,
}

impl ParkedCall {
    /// The call's id, to decide it under.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The tool the model called.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The arguments the model sent, as they passed validation.
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The conversation the call was made in, if its context named one
    /// ([`ContextBuilder::conversation`](crate::context::ContextBuilder::conversation)).
    pub fn conversation(&self) -> Option<&str> {
        self.conversation.as_deref()
    }

    /// When the call is denied if no one decides it first.
    pub fn deadline(&self) -> SystemTime {
        self.deadline
    }
}
