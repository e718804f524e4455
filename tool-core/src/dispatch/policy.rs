//! Whether a call may run: the tool's tier and the application's approval.

use std::future::Future;
use std::time::SystemTime;

use serde_json::Value;

use crate::store::StoreError;
use crate::tool::BoxFuture;
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
    /// until someone gives a [`Decision`] with
    /// [`ToolRegistry::decide`](crate::ToolRegistry::decide), in this
    /// process or, with a shared [store](crate::ToolRegistry::with_store),
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

/// A person's decision on a call parked for approval ([`Approval::Park`]),
/// given with [`ToolRegistry::decide`](crate::ToolRegistry::decide).
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

/// Why [`ToolRegistry::decide`](crate::ToolRegistry::decide) took no
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
/// [`ToolRegistry::parked`](crate::ToolRegistry::parked) lists it for its
/// caller: what to show the person, and the id to
/// [decide](crate::ToolRegistry::decide) it under.
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
    /// ([`ToolContext::with_conversation`]).
    pub fn conversation(&self) -> Option<&str> {
        self.conversation.as_deref()
    }

    /// When the call is denied if no one decides it first.
    pub fn deadline(&self) -> SystemTime {
        self.deadline
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
/// [`ToolRegistry::with_approval`](crate::ToolRegistry::with_approval), or
/// for one with [`ToolContext::with_approval`], which is asked first.
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
