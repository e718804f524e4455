//! Calls parked for a person's approval, as two processes sharing a store
//! see them (two registries on one store): decided in either, once; run
//! as asked, with edited arguments checked as the model's, or denied with
//! the reason the model reads; denied when no one decides in time.

use std::time::Duration;

use serde_json::json;
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, Decision, DecisionError};
use tool_core::registry::DeliveryError;
use tool_core::registry::RegistryBuilder;
use tool_core::store::Store;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// Send money to an account.
#[tool(tier = Confirm)]
pub(crate) fn transfer(
    /// Who gets it.
    to: String,
    /// How much, in cents.
    cents: u64,
) -> String {
    format!("sent {cents} cents to {to}")
}

/// Leaves every decision to a person, later.
pub(crate) struct AskLater;

impl ApprovalHook<()> for AskLater {
    async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
        Approval::Park
    }
}

/// A registry that parks every transfer, keeping its calls in `store`.
pub(crate) fn registry(store: impl Store) -> ToolRegistry {
    ToolRegistry::builder()
        .with(Transfer)
        .approval(AskLater)
        .store(store)
        .build()
}

async fn park(registry: &ToolRegistry, cents: u64) -> String {
    let parked = registry
        .call(
            &ToolContext::new(()),
            "transfer",
            json!({"to": "ada", "cents": cents}),
        )
        .await;
    assert!(parked.awaits_decision(), "{}", parked.model_text());
    let id = parked.pending_call_id().expect("pending").to_owned();
    assert_eq!(
        parked.model_text(),
        format!(
            "the call to tool `transfer` (call `{id}`) waits for a person's approval; its result will follow. Do not call it again while this call is pending."
        )
    );
    id
}

async fn wait(registry: &ToolRegistry, id: &str) -> ToolResult {
    tokio::time::timeout(Duration::from_secs(10), registry.pending().wait(id))
        .await
        .expect("the wait ends")
        .expect("a result")
}

/// Each decision, given in the other process: the result is the call's,
/// there and here, and a call is decided once.
pub(crate) async fn decisions_made_elsewhere_are_the_calls_results(
    here: ToolRegistry,
    there: ToolRegistry,
) {
    let ctx = ToolContext::new(());

    let approved = park(&here, 100).await;
    let result = there
        .approvals()
        .decide(&ctx, &approved, Decision::Approve)
        .await
        .expect("parked");
    assert_eq!(result.model_text(), "sent 100 cents to ada");
    assert_eq!(
        wait(&here, &approved).await.model_text(),
        "sent 100 cents to ada"
    );
    assert_eq!(
        there
            .approvals()
            .decide(&ctx, &approved, Decision::Approve)
            .await,
        Err(DecisionError::NotParked {
            call_id: approved.clone()
        }),
        "one decision"
    );

    let denied = park(&here, 200).await;
    there
        .approvals()
        .decide(&ctx, &denied, Decision::deny("ada's account is frozen"))
        .await
        .expect("parked");
    let result = wait(&here, &denied).await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "the call to tool `transfer` was denied: ada's account is frozen"
    );

    let edited = park(&here, 5000).await;
    there
        .approvals()
        .decide(
            &ctx,
            &edited,
            Decision::edit(json!({"to": "ada", "cents": 500})),
        )
        .await
        .expect("parked");
    assert_eq!(
        wait(&here, &edited).await.model_text(),
        "sent 500 cents to ada"
    );

    let badly_edited = park(&here, 700).await;
    there
        .approvals()
        .decide(
            &ctx,
            &badly_edited,
            Decision::edit(json!({"to": "ada", "cents": "lots"})),
        )
        .await
        .expect("parked");
    let result = wait(&here, &badly_edited).await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "invalid arguments for tool `transfer`: argument `cents` at `/cents`: expected an integer, got a string `lots`. Correct the arguments and call the tool again."
    );

    assert_eq!(
        there
            .approvals()
            .decide(&ctx, "call-never-parked", Decision::Approve)
            .await,
        Err(DecisionError::UnknownCall {
            call_id: "call-never-parked".into()
        })
    );
    let waiting = park(&here, 900).await;
    assert_eq!(
        there
            .pending()
            .deliver(&waiting, ToolResult::text("sent"))
            .await,
        Err(DeliveryError::NotAwaitingDelivery {
            call_id: waiting.clone()
        }),
        "a parked call takes a decision, not a result"
    );
}

/// No decision in time: the call is denied, saying so.
pub(crate) async fn a_call_no_one_decides_on_is_denied(here: ToolRegistry, there: ToolRegistry) {
    let here = RegistryBuilder::from(here)
        .pending_timeout(Duration::from_millis(300))
        .build();
    let id = park(&here, 100).await;
    let result = wait(&there, &id).await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "the call to tool `transfer` was denied: no one decided on it within 300ms"
    );
    assert_eq!(
        there
            .approvals()
            .decide(&ToolContext::new(()), &id, Decision::Approve)
            .await,
        Err(DecisionError::NotParked {
            call_id: id.clone()
        })
    );
}
