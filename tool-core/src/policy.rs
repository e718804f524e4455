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
//! let registry = ToolRegistry::new().with(Delete).with_approval(TmpOnly);
//! assert!(registry.has_approval());
//! ```

pub use crate::dispatch::{
    Approval, ApprovalHook, ApprovalRequest, ApproveAll, Decision, DecisionError, ParkedCall,
};
pub use crate::tool::{Callers, ToolTier};
