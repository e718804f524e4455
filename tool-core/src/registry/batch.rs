//! How the calls of one batch ([`ToolRegistry::call_all`]) share time:
//! together, one after another, or together only where no call can see
//! another's effects.
//!
//! [`ToolRegistry::call_all`]: crate::ToolRegistry::call_all

use std::future::Future;

use futures_util::future::join_all;
use serde_json::Value;

use std::borrow::Cow;

use crate::output::result::ToolResult;
use crate::tool::context::ToolContext;

/// One call of a batch: a tool's name and the model's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// The arguments: an object, or a JSON string holding one.
    pub arguments: Value,
    /// The provider's id for the call, if it gave one: the call is made
    /// with it as the context's call id
    /// ([`ContextBuilder::call_id`](crate::context::ContextBuilder::call_id)).
    pub id: Option<String>,
}

impl ToolCall {
    /// A call of `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Value) -> Self {
        Self {
            name: name.into(),
            arguments,
            id: None,
        }
    }

    /// The same call with the provider's id for it.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// The context the call is made in: the caller's, with the provider's
    /// id for the call, from which the call's own is made.
    pub(crate) fn context_in<'c, Ctx>(
        &self,
        ctx: &'c ToolContext<Ctx>,
    ) -> Cow<'c, ToolContext<Ctx>> {
        match &self.id {
            Some(id) => Cow::Owned(ctx.clone().with_call_id(id.as_str())),
            None => Cow::Borrowed(ctx),
        }
    }
}

/// How [`ToolRegistry::call_all`](crate::ToolRegistry::call_all) (and so
/// [`Provider::respond`](crate::provider::Provider::respond)) runs the calls
/// of a batch, set with
/// [`RegistryBuilder::batch`](crate::registry::RegistryBuilder::batch). Whatever
/// the choice, the results come back in the order of the calls, and a tool
/// that is not `concurrency_safe` never runs two calls at once.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::registry::{Batch, ToolCall};
/// use tool_core::{ToolContext, ToolRegistry, tool};
///
/// /// Read a note.
/// #[tool(read_only)]
/// fn read_note(id: u32) -> String { format!("note {id}") }
///
/// /// Delete a note.
/// #[tool]
/// fn delete_note(id: u32) -> String { format!("deleted {id}") }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(ReadNote).with(DeleteNote);
/// assert_eq!(Batch::default(), Batch::Auto);
/// // Both reads run together; the delete runs after them, alone.
/// let results = registry
///     .call_all(&ToolContext::new(()), [
///         ToolCall::new("read_note", json!({"id": 1})),
///         ToolCall::new("read_note", json!({"id": 2})),
///         ToolCall::new("delete_note", json!({"id": 1})),
///     ])
///     .await;
/// let texts: Vec<_> = results.iter().map(|result| result.model_text()).collect();
/// assert_eq!(texts, ["note 1", "note 2", "deleted 1"]);
///
/// // A registry whose tools all act on one shared session, say.
/// let one_by_one: ToolRegistry = ToolRegistry::builder().batch(Batch::Sequential).build();
/// # let _ = one_by_one;
/// # });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Batch {
    /// Together where the calls cannot see each other's effects, in turn
    /// where they could. The default.
    ///
    /// The calls are taken in the model's order. Consecutive calls of tools
    /// marked `read_only` or `concurrency_safe`
    /// ([`ToolMetadata`](crate::ToolMetadata)) form a group that runs
    /// concurrently. Any other call runs alone: after everything before it
    /// has finished and before anything after it starts, so a read that
    /// follows a write sees the write. A call of a name that is no tool's
    /// counts as safe: it fails at once and runs nothing. A `long_running`
    /// call has finished, for this purpose, when it returns its pending
    /// result.
    #[default]
    Auto,
    /// Every call at once, whatever its tool.
    Parallel,
    /// One call after another, in the model's order.
    Sequential,
}

/// Runs `calls` as `batch` says, each with `run`; `may_overlap` tells
/// which calls [`Batch::Auto`] may run beside others. The results are in
/// the order of `calls`.
pub(crate) async fn run_batch<C, F>(
    batch: Batch,
    calls: impl IntoIterator<Item = C>,
    may_overlap: impl Fn(&C) -> bool,
    run: impl Fn(C) -> F,
) -> Vec<ToolResult>
where
    F: Future<Output = ToolResult>,
{
    match batch {
        Batch::Parallel => join_all(calls.into_iter().map(run)).await,
        Batch::Sequential => {
            let calls = calls.into_iter();
            let mut results = Vec::with_capacity(calls.size_hint().0);
            for call in calls {
                results.push(run(call).await);
            }
            results
        }
        Batch::Auto => {
            let mut calls = calls.into_iter().peekable();
            let mut results = Vec::with_capacity(calls.size_hint().0);
            while let Some(call) = calls.next() {
                if !may_overlap(&call) {
                    results.push(run(call).await);
                    continue;
                }
                // A future does nothing until polled: the group starts
                // together in `join_all`.
                let mut group = vec![run(call)];
                while let Some(next) = calls.next_if(|call| may_overlap(call)) {
                    group.push(run(next));
                }
                results.extend(join_all(group).await);
            }
            results
        }
    }
}
