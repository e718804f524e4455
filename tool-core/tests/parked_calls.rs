//! Calls parked for approval, in this process and in a store shared by
//! two registries: see `support/parked_calls.rs`.

use serde_json::json;
use tool_core::policy::Decision;
use tool_core::store::MemoryStore;
use tool_core::{ToolContext, ToolRegistry};

#[path = "support/parked_calls.rs"]
mod parked;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_made_elsewhere_are_the_calls_results() {
    let store = MemoryStore::new();
    parked::decisions_made_elsewhere_are_the_calls_results(
        parked::registry(store.clone()),
        parked::registry(store),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_no_one_decides_on_is_denied() {
    let store = MemoryStore::new();
    parked::a_call_no_one_decides_on_is_denied(
        parked::registry(store.clone()),
        parked::registry(store),
    )
    .await;
}

/// Without a store, a call is parked in this process, and decided here.
#[tokio::test]
async fn a_registry_without_a_store_parks_in_memory() {
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(parked::Transfer)
        .approval(parked::AskLater)
        .build();
    let ctx = ToolContext::new(());
    let parked = registry
        .call(&ctx, "transfer", json!({"to": "ada", "cents": 5}))
        .await;
    let id = parked.pending_call_id().expect("parked").to_owned();
    let result = registry
        .approvals()
        .decide(&ctx, &id, Decision::Approve)
        .await
        .expect("parked");
    assert_eq!(result.model_text(), "sent 5 cents to ada");
    assert_eq!(
        registry
            .pending()
            .wait(&id)
            .await
            .expect("a result")
            .model_text(),
        "sent 5 cents to ada"
    );
}
