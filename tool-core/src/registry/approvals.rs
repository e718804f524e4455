//! A person's decision on a call parked for approval: the call runs (as
//! the model asked, or with edited arguments) or is denied, in the process
//! that decides, and its result becomes the parked call's.

use crate::dispatch::pending::stored::StoredClaim;
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::policy::{Decision, DecisionError, ParkedCall};
use crate::registry::handle::registry_handle;
use crate::store::StoreError;
use crate::tool::approval::ApproveAll;
use crate::tool::context::ToolContext;

registry_handle!(
    /// The registry's calls parked for a person's decision
    /// ([`ToolRegistry::approvals`](crate::ToolRegistry::approvals)): listed for their caller and decided,
    /// from any process sharing the registry's store.
    Approvals,
    /// The calls parked for a decision ([`Approval::Park`](crate::policy::Approval::Park)): listed, decided.
    approvals
);

impl<Ctx: Send + Sync + 'static> Approvals<'_, Ctx> {
    /// Decides on a call parked for approval
    /// ([`Approval::Park`](crate::policy::Approval::Park)): runs it with
    /// `ctx` as the model asked ([`Decision::Approve`]) or with edited
    /// arguments ([`Decision::Edit`], checked and read as the model's would
    /// be), or denies it with a reason the model reads
    /// ([`Decision::Deny`]). The result is the call's: whoever
    /// [waits](crate::registry::Pending::wait) on it (a [`Turn`](crate::provider::Turn)
    /// being resumed) gets it, and it is returned here too.
    ///
    /// The decision may come from another process, minutes later, when
    /// the registry keeps its calls in a shared
    /// [store](crate::registry::RegistryBuilder::store); each call is decided once, and
    /// only with a context of the caller that made it
    /// ([`ContextBuilder::caller`](crate::context::ContextBuilder::caller)): another caller's call is
    /// [unknown](DecisionError::UnknownCall) to it.
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
    /// let registry = ToolRegistry::builder().with(Transfer).approval(AskLater).build();
    /// let ctx = ToolContext::new(());
    /// let parked = registry.call(&ctx, "transfer", json!({"to": "ada", "cents": 5000})).await;
    /// assert!(parked.awaits_decision());
    /// let id = parked.pending_call_id().unwrap();
    ///
    /// // The person lowers the amount, and approves.
    /// let edited = Decision::edit(json!({"to": "ada", "cents": 500}));
    /// let result = registry.approvals().decide(&ctx, id, edited).await.unwrap();
    /// assert_eq!(result.model_text(), "sent 500 cents to ada");
    /// assert_eq!(registry.pending().wait(id).await.unwrap().model_text(), "sent 500 cents to ada");
    /// # });
    /// ```
    pub async fn decide(
        self,
        ctx: &ToolContext<Ctx>,
        call_id: &str,
        decision: Decision,
    ) -> Result<ToolResult, DecisionError> {
        let settings = &self.registry.pipeline.settings;
        let runs_for = settings.default_timeout + settings.pending_timeout;
        let (claim, arguments) = self
            .registry
            .pipeline
            .pending
            .decide(call_id, ctx.caller(), runs_for)
            .await?;
        let tool = claim.tool().to_owned();
        let result = match decision {
            Decision::Deny { reason } => ToolError::Denied { tool, reason }.into(),
            Decision::Approve => self.run_approved(ctx, &claim, arguments).await,
            Decision::Edit { arguments } => self.run_approved(ctx, &claim, arguments).await,
        };
        claim.finish(result.clone(), settings.pending_timeout).await;
        Ok(result)
    }

    /// The calls of `ctx`'s caller ([`ContextBuilder::caller`](crate::context::ContextBuilder::caller)) parked
    /// for a decision now, by this process or any other sharing the
    /// registry's [store](crate::registry::RegistryBuilder::store), the longest parked
    /// first: what to show the person, with the id to
    /// [decide](crate::registry::Approvals::decide) each under. Another caller's calls
    /// are never listed.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, Decision};
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Delete a note.
    /// #[tool(tier = Confirm)]
    /// fn delete_note(id: u32) -> String { format!("deleted {id}") }
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
    /// let registry = ToolRegistry::builder().with(DeleteNote).approval(AskLater).build();
    /// let ctx = ToolContext::builder(()).caller("ada").conversation("notes").build();
    /// registry.call(&ctx, "delete_note", json!({"id": 7})).await;
    ///
    /// let parked = registry.approvals().parked(&ctx).await.unwrap();
    /// assert_eq!(parked.len(), 1);
    /// assert_eq!((parked[0].tool(), parked[0].conversation()), ("delete_note", Some("notes")));
    /// assert_eq!(parked[0].arguments(), &json!({"id": 7}));
    /// registry.approvals().decide(&ctx, parked[0].call_id(), Decision::deny("not that one")).await.unwrap();
    /// assert!(registry.approvals().parked(&ctx).await.unwrap().is_empty());
    /// # });
    /// ```
    pub async fn parked(self, ctx: &ToolContext<Ctx>) -> Result<Vec<ParkedCall>, StoreError> {
        self.registry.pipeline.pending.parked(ctx.caller()).await
    }

    /// Runs an approved call through the whole pipeline but the approval,
    /// to its final result. A `long_running` tool's runs as a call of its
    /// own, to which what is delivered to the parked call goes.
    async fn run_approved(
        self,
        ctx: &ToolContext<Ctx>,
        claim: &StoredClaim,
        arguments: serde_json::Value,
    ) -> ToolResult {
        // A run of its own: not the parked call, whose id the caller's
        // given id would make again.
        let approved = ctx.clone().with_approval(ApproveAll).without_call_id();
        let result = self.registry.call(&approved, claim.tool(), arguments).await;
        let Some(id) = result.pending_call_id() else {
            return result;
        };
        if let Err(error) = claim.approved_as(id).await {
            tracing::warn!(tool = claim.tool(), %error, "an approved call's deliveries cannot be passed on");
        }
        self.registry.pending().wait(id).await.unwrap_or(result)
    }

    /// Whether the registry has an approval hook
    /// ([`RegistryBuilder::approval`](crate::registry::RegistryBuilder::approval)),
    /// so that its `Confirm` tools can run.
    pub fn has_hook(self) -> bool {
        self.registry.pipeline.approval.is_some()
    }
}
