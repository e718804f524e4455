//! The calls that wait: a `long_running` tool's result waited on, a
//! deferred one delivered, the ids of those still pending. Where they are
//! kept is the registry's choice ([`ToolRegistry::with_store`]).

use crate::dispatch::pending::DeliveryError;
use crate::output::result::ToolResult;
use crate::registry::tool_registry::ToolRegistry;

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Waits for the final result of a pending call (one that returned
    /// [`ToolResult::is_pending`]). `None` when no call with that id is
    /// pending, or its result was already taken. Several may wait on the
    /// same call and all get its result; a wait that is cancelled loses
    /// nothing. Once the result is taken, the call is forgotten (with a
    /// store, a few seconds later, for the other waiters).
    ///
    /// A call whose result does not come within its time limit (the tool's
    /// timeout, or [`ToolRegistry::with_pending_timeout`] for a result that
    /// is delivered) ends with an error result. With a
    /// [store](ToolRegistry::with_store), the call may have been made by
    /// another process sharing it; a store that forgets the call, or
    /// cannot be reached for longer than its
    /// [grace](crate::store::Store::outage_grace) (the wait goes on through
    /// a shorter outage), ends the wait with a
    /// [`ToolError::Lost`](crate::ToolError::Lost) result.
    pub async fn wait(&self, call_id: &str) -> Option<ToolResult> {
        self.pipeline.pending.wait(call_id, None).await
    }

    /// [`wait`](ToolRegistry::wait), for a call of `tool`, which names it
    /// in the error of a result the store lost.
    pub(crate) async fn wait_for(&self, call_id: &str, tool: &str) -> Option<ToolResult> {
        self.pipeline.pending.wait(call_id, Some(tool)).await
    }

    /// Delivers the result of a pending call whose tool deferred it (a tool
    /// the client runs, work finished elsewhere): whoever waits on the call
    /// resumes with `result`. A delivery made while the tool is still
    /// running is kept for when it defers; if the tool produces its own
    /// result instead, that result is the call's. With a
    /// [store](ToolRegistry::with_store), the call may have been made by
    /// another process sharing it.
    pub async fn deliver(&self, call_id: &str, result: ToolResult) -> Result<(), DeliveryError> {
        let settings = &self.pipeline.settings;
        self.pipeline
            .pending
            .deliver(
                call_id,
                result,
                settings.pending_timeout,
                settings.max_media_bytes,
            )
            .await
    }

    /// The ids of the calls still pending: those whose results wait to be
    /// taken; with a store, those this process runs.
    pub fn pending_calls(&self) -> Vec<String> {
        self.pipeline.pending.ids()
    }
}
