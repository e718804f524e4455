//! A person's decision on a call parked for approval: the call runs (as
//! the model asked, or with edited arguments) or is denied, in the process
//! that decides, and its result becomes the parked call's.

use crate::dispatch::policy::{ApproveAll, Decision, DecisionError};
use crate::{ToolContext, ToolError, ToolRegistry, ToolResult};

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Decides on a call parked for approval
    /// ([`Approval::Park`](crate::policy::Approval::Park)): runs it with
    /// `ctx` as the model asked ([`Decision::Approve`]) or with edited
    /// arguments ([`Decision::Edit`], checked and read as the model's would
    /// be), or denies it with a reason the model reads
    /// ([`Decision::Deny`]). The result is the call's: whoever
    /// [waits](ToolRegistry::wait) on it (a [`Turn`](crate::provider::Turn)
    /// being resumed) gets it, and it is returned here too.
    ///
    /// The decision may come from another process, minutes later, when
    /// the registry keeps its calls in a shared
    /// [store](ToolRegistry::with_store); each call is decided once.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, Decision};
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Send money to an account.
    /// #[tool(tier = Confirm)]
    /// fn transfer(to: String, cents: u64) -> String {
    ///     format!("sent {cents} cents to {to}")
    /// }
    ///
    /// /// Leaves every decision to a person, later.
    /// struct AskLater;
    ///
    /// impl ApprovalHook<()> for AskLater {
    ///     async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
    ///         Approval::Park
    ///     }
    /// }
    ///
    /// let registry = ToolRegistry::new().with(Transfer).with_approval(AskLater);
    /// let ctx = ToolContext::new(());
    /// let parked = registry.call(&ctx, "transfer", json!({"to": "ada", "cents": 5000})).await;
    /// assert!(parked.awaits_decision());
    /// let id = parked.pending_call_id().unwrap();
    ///
    /// // The person lowers the amount, and approves.
    /// let edited = Decision::edit(json!({"to": "ada", "cents": 500}));
    /// let result = registry.decide(&ctx, id, edited).await.unwrap();
    /// assert_eq!(result.model_text(), "sent 500 cents to ada");
    /// assert_eq!(registry.wait(id).await.unwrap().model_text(), "sent 500 cents to ada");
    /// # });
    /// ```
    pub async fn decide(
        &self,
        ctx: &ToolContext<Ctx>,
        call_id: &str,
        decision: Decision,
    ) -> Result<ToolResult, DecisionError> {
        let settings = &self.pipeline.settings;
        let runs_for = settings.default_timeout + settings.pending_timeout;
        let (claim, arguments) = self.pipeline.pending.decide(call_id, runs_for).await?;
        let tool = claim.tool().to_owned();
        let result = match decision {
            Decision::Deny { reason } => ToolError::Denied { tool, reason }.into(),
            Decision::Approve => self.run_approved(ctx, &tool, arguments).await,
            Decision::Edit { arguments } => self.run_approved(ctx, &tool, arguments).await,
        };
        claim.finish(result.clone(), settings.pending_timeout).await;
        Ok(result)
    }

    /// Runs an approved call through the whole pipeline but the approval,
    /// to its final result.
    async fn run_approved(
        &self,
        ctx: &ToolContext<Ctx>,
        tool: &str,
        arguments: serde_json::Value,
    ) -> ToolResult {
        let approved = ctx.clone().with_approval(ApproveAll);
        let result = self.call(&approved, tool, arguments).await;
        match result.pending_call_id() {
            // A `long_running` tool: its result, once it has one.
            Some(id) => self.wait(id).await.unwrap_or(result),
            None => result,
        }
    }
}
