//! The calls that wait: a `long_running` tool's result waited on, a
//! deferred one delivered, the ids of those still pending. Where they are
//! kept is the registry's choice ([`RegistryBuilder::store`](crate::registry::RegistryBuilder::store)).

use crate::dispatch::pending::DeliveryError;
use crate::output::result::ToolResult;
use crate::registry::handle::registry_handle;

registry_handle!(
    /// The registry's calls that wait for a result
    /// ([`ToolRegistry::pending`](crate::ToolRegistry::pending)): a `long_running` tool's run, a deferred
    /// result the application delivers.
    Pending,
    /// The calls that wait for a result: waited on, delivered, listed.
    pending
);

impl<Ctx: Send + Sync + 'static> Pending<'_, Ctx> {
    /// Waits for the final result of a pending call (one that returned
    /// [`ToolResult::is_pending`]). `None` when no call with that id is
    /// pending, or its result was already taken. Several may wait on the
    /// same call and all get its result; a wait that is cancelled loses
    /// nothing. Once the result is taken, the call is forgotten (with a
    /// store, a few seconds later, for the other waiters).
    ///
    /// A call whose result does not come within its time limit (the tool's
    /// timeout, or [`RegistryBuilder::pending_timeout`](crate::registry::RegistryBuilder::pending_timeout) for a result that
    /// is delivered) ends with an error result. With a
    /// [store](crate::registry::RegistryBuilder::store), the call may have been made by
    /// another process sharing it; a store that forgets the call, or
    /// cannot be reached for longer than its
    /// [grace](crate::store::Store::outage_grace) (the wait goes on through
    /// a shorter outage), ends the wait with a
    /// [`ToolError::Lost`](crate::ToolError::Lost) result.
    pub async fn wait(self, call_id: &str) -> Option<ToolResult> {
        self.registry.pipeline.pending.wait(call_id, None).await
    }

    /// [`wait`](crate::registry::Pending::wait), for a call of `tool`, which names it
    /// in the error of a result the store lost.
    pub(crate) async fn wait_for(self, call_id: &str, tool: &str) -> Option<ToolResult> {
        self.registry
            .pipeline
            .pending
            .wait(call_id, Some(tool))
            .await
    }

    /// Delivers the result of a pending call whose tool deferred it (a tool
    /// the client runs, work finished elsewhere): whoever waits on the call
    /// resumes with `result`. A delivery made while the tool is still
    /// running is kept for when it defers; if the tool produces its own
    /// result instead, that result is the call's. With a
    /// [store](crate::registry::RegistryBuilder::store), the call may have been made by
    /// another process sharing it.
    pub async fn deliver(self, call_id: &str, result: ToolResult) -> Result<(), DeliveryError> {
        let settings = &self.registry.pipeline.settings;
        self.registry
            .pipeline
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
    pub fn ids(self) -> Vec<String> {
        self.registry.pipeline.pending.ids()
    }
}
