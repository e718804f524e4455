//! A call's data as the pipeline holds it: its arguments and whose it is,
//! and the id and shared `SharedCall` made only for a tool that needs them.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::tool::call_id::Scope;
use crate::tool::context::ToolContext;
use crate::tool::name::Name;
use crate::tool::progress::ProgressSink;
use crate::tool::shared_call::SharedCall;
use crate::value::Node;

/// A call's data: on the stack for a tool that never sees it, shared with
/// the tool's context otherwise.
pub(crate) enum CallData<'a> {
    /// The arguments, whose the call is, the id its caller gave it, and
    /// its own id, made when asked for.
    Local {
        tool: &'a Name,
        arguments: Value,
        scope: &'a Scope,
        given: Option<&'a str>,
        id: OnceLock<String>,
    },
    Shared(Arc<SharedCall>),
}

impl CallData<'_> {
    pub(crate) fn arguments(&self) -> &Value {
        match self {
            CallData::Local { arguments, .. } => arguments,
            CallData::Shared(call) => call.arguments(),
        }
    }

    pub(crate) fn id(&self) -> &str {
        match self {
            CallData::Local {
                tool,
                arguments,
                scope,
                given,
                id,
            } => id.get_or_init(|| scope.call_id(*given, tool, || arguments)),
            CallData::Shared(call) => call.id(),
        }
    }

    /// Whose the call is.
    pub(crate) fn scope(&self) -> &Scope {
        match self {
            CallData::Local { scope, .. } => scope,
            CallData::Shared(call) => call.scope(),
        }
    }

    /// The arguments to start the tool with, which a call no one else can
    /// see gives away, and the shared call, whose context
    /// ([`context_of`]) a tool that sees it is given.
    #[inline]
    pub(crate) fn for_start(&mut self) -> (Node<'_>, Option<&Arc<SharedCall>>) {
        match self {
            CallData::Local { arguments, .. } => (Node::Take(arguments), None),
            CallData::Shared(call) => (Node::Read(call.arguments()), Some(call)),
        }
    }

    /// The call a tool's context can see, whose token a timeout cancels.
    pub(crate) fn call(&self) -> Option<&SharedCall> {
        match self {
            CallData::Local { .. } => None,
            CallData::Shared(call) => Some(call),
        }
    }

    /// The context the tool runs in ([`context_of`]).
    pub(crate) fn context_for<'c, Ctx>(
        &self,
        ctx: &'c ToolContext<Ctx>,
    ) -> Cow<'c, ToolContext<Ctx>> {
        context_of(ctx, self.shared_call())
    }

    /// A context the tool's run owns: a `long_running` tool's, whose run
    /// goes on in a task of its own.
    pub(crate) fn owned_context<Ctx>(&self, ctx: &ToolContext<Ctx>) -> ToolContext<Ctx> {
        match self {
            CallData::Local { .. } => ctx.clone(),
            CallData::Shared(call) => ctx.for_call(Arc::clone(call)),
        }
    }

    /// The call, if it is shared.
    fn shared_call(&self) -> Option<&Arc<SharedCall>> {
        match self {
            CallData::Local { .. } => None,
            CallData::Shared(call) => Some(call),
        }
    }

    /// The call, shared: made so for `long_running` tools from the start.
    pub(crate) fn shared(&self, progress: Option<&Arc<dyn ProgressSink>>) -> Arc<SharedCall> {
        match self {
            CallData::Shared(call) => Arc::clone(call),
            CallData::Local {
                tool,
                arguments,
                scope,
                given,
                id,
            } => {
                let call = SharedCall::new((*tool).clone(), arguments.clone(), progress.cloned())
                    .of(Scope::clone(scope), given.map(Arc::from));
                Arc::new(match id.get() {
                    Some(id) => call.with_id(id.clone()),
                    None => call,
                })
            }
        }
    }
}

/// The context a tool runs in: the caller's for a call no one else sees.
#[inline]
pub(crate) fn context_of<'c, Ctx>(
    ctx: &'c ToolContext<Ctx>,
    shared: Option<&Arc<SharedCall>>,
) -> Cow<'c, ToolContext<Ctx>> {
    match shared {
        None => Cow::Borrowed(ctx),
        Some(call) => Cow::Owned(ctx.for_call(Arc::clone(call))),
    }
}
