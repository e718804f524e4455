//! A call belongs to whoever made it, as two registries sharing one
//! `MemoryStore` (two processes sharing a store) see it: see
//! `support/ownership.rs`.

use tool_core::store::MemoryStore;

#[path = "support/ownership.rs"]
mod ownership;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_payment_in_two_conversations_of_one_caller_is_two_calls() {
    let store = MemoryStore::new();
    ownership::the_same_payment_in_two_conversations_is_two_calls(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
        (
            ownership::ctx("ada", "chat:1"),
            ownership::ctx("ada", "chat:2"),
        ),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_payment_of_two_callers_is_two_calls() {
    let store = MemoryStore::new();
    ownership::the_same_payment_in_two_conversations_is_two_calls(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
        (ownership::ctx("ada", "chat"), ownership::ctx("bob", "chat")),
    )
    .await;
}

/// Contexts that name neither a caller nor a conversation, as most
/// applications first write them: every call is still its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_payment_with_unnamed_contexts_is_two_calls() {
    let store = MemoryStore::new();
    ownership::the_same_payment_in_two_conversations_is_two_calls(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
        (
            tool_core::ToolContext::new(()),
            tool_core::ToolContext::new(()),
        ),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_never_sees_or_decides_another_callers_call() {
    let store = MemoryStore::new();
    ownership::a_caller_never_sees_or_decides_another_callers_call(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
    )
    .await;
}

/// In one registry without a store too: its calls parked in its memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_never_sees_another_callers_call_in_one_registry() {
    let registry = || {
        tool_core::ToolRegistry::builder()
            .with(ownership::SendMoney)
            .with(ownership::PickFile)
            .with(ownership::Ship)
            .approval(ownership::AskLater)
            .build()
    };
    let one = registry();
    ownership::a_caller_never_sees_or_decides_another_callers_call(&one, &one).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_client_call_in_two_conversations_gets_its_own_result() {
    let store = MemoryStore::new();
    ownership::the_same_client_call_in_two_conversations_gets_its_own_result(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_call_asked_again_in_its_conversation_runs_once() {
    let store = MemoryStore::new();
    ownership::the_same_call_asked_again_in_its_conversation_runs_once(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loaded_turn_knows_its_call_was_decided() {
    let store = MemoryStore::new();
    ownership::a_loaded_turn_knows_its_call_was_decided(
        &ownership::registry(store.clone()),
        &ownership::registry(store.clone()),
        &store,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_client_run_call_takes_its_delivery_under_its_parked_id() {
    let store = MemoryStore::new();
    ownership::an_approved_client_run_call_takes_its_delivery_under_its_parked_id(
        &ownership::registry(store.clone()),
        &ownership::registry(store),
    )
    .await;
}

/// In one registry without a store: the parked call in its memory, the
/// approved run among its own pending calls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_client_run_call_takes_its_delivery_in_one_registry() {
    let one = tool_core::ToolRegistry::builder()
        .with(ownership::Ship)
        .approval(ownership::AskLater)
        .build();
    ownership::an_approved_client_run_call_takes_its_delivery_under_its_parked_id(&one, &one).await;
}
