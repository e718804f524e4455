//! The application's say on a call of a `Confirm` tool: the hook it
//! installs, what the hook is asked and what it answers.

use std::future::Future;

use serde_json::Value;

use crate::BoxFuture;
use crate::tool::context::ToolContext;
use crate::tool::metadata::ToolMetadata;

/// The application's decision on one call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Approval {
    /// Run it.
    Approve,
    /// Do not run it; the reason is what the model reads.
    Deny {
        /// Why, for the model.
        reason: String,
    },
    /// Decide later: the call is parked, its result pending
    /// ([`ToolResult::awaits_decision`](crate::ToolResult::awaits_decision)),
    /// until someone gives a [`Decision`](crate::policy::Decision) with
    /// [`Approvals::decide`](crate::registry::Approvals::decide), in this
    /// process or, with a shared [store](crate::registry::RegistryBuilder::store),
    /// in any; or until the registry's pending timeout, when it is denied.
    Park,
}

impl Approval {
    /// A denial with this reason.
    pub fn deny(reason: impl Into<String>) -> Self {
        Self::Deny {
            reason: reason.into(),
        }
    }
}

/// A call that needs approval: a tool of tier
/// [`Confirm`](crate::policy::ToolTier::Confirm), arguments checked and
/// deserialized, about to run.
#[non_exhaustive]
pub struct ApprovalRequest<'a, Ctx> {
    /// The tool's name.
    pub tool: &'a str,
    /// The call's id ([`ToolContext::call_id`]): the one it is parked
    /// under if the hook answers [`Approval::Park`].
    pub call_id: &'a str,
    /// The arguments, as they passed validation.
    pub arguments: &'a Value,
    /// The tool's metadata (read-only, destructive, scopes, ...).
    pub metadata: &'a ToolMetadata,
    /// The caller's context (the state, scopes and token the call was made with).
    pub context: &'a ToolContext<Ctx>,
}

/// Decides whether calls of [`Confirm`](crate::policy::ToolTier::Confirm) tools run:
/// a prompt to a person, a policy engine, a rule table.
///
/// Installed for every caller with
/// [`RegistryBuilder::approval`](crate::registry::RegistryBuilder::approval), or
/// for one with [`ContextBuilder::approval`](crate::context::ContextBuilder::approval), which is asked first.
/// Without either, every `Confirm` call is denied: a tool that asks for
/// approval runs only once something gives it (fail closed).
/// [`ApproveAll`] approves everything, for tests and trusted tools.
///
/// ```
/// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
///
/// /// Approves what changes nothing; asks nobody, denies the rest.
/// struct ReadOnlyPolicy;
///
/// impl<Ctx: Send + Sync> ApprovalHook<Ctx> for ReadOnlyPolicy {
///     async fn approve(&self, request: &ApprovalRequest<'_, Ctx>) -> Approval {
///         if request.metadata.read_only {
///             Approval::Approve
///         } else {
///             Approval::deny("only read-only tools may run in this session")
///         }
///     }
/// }
/// ```
pub trait ApprovalHook<Ctx>: Send + Sync + 'static {
    /// The decision on one call.
    fn approve(&self, request: &ApprovalRequest<'_, Ctx>) -> impl Future<Output = Approval> + Send;
}

/// Approves every call.
#[derive(Clone, Copy, Debug, Default)]
pub struct ApproveAll;

impl<Ctx: Send + Sync> ApprovalHook<Ctx> for ApproveAll {
    async fn approve(&self, _: &ApprovalRequest<'_, Ctx>) -> Approval {
        Approval::Approve
    }
}

/// The object-safe form the registry stores.
pub(crate) trait DynApprovalHook<Ctx>: Send + Sync {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest<'a, Ctx>) -> BoxFuture<'a, Approval>;
}

impl<Ctx, H: ApprovalHook<Ctx>> DynApprovalHook<Ctx> for H {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest<'a, Ctx>) -> BoxFuture<'a, Approval> {
        Box::pin(ApprovalHook::approve(self, request))
    }
}

/// The reason given to the model when no hook is installed.
pub(crate) const NO_HOOK: &str =
    "it needs the application's approval, and no approval is possible here; do not call it again";
