//! Pending calls kept in a store shared by two registries (as two
//! processes share one): see `support/stored_calls.rs`.

use tool_core::store::MemoryStore;

#[path = "support/stored_calls.rs"]
mod stored;

fn two() -> (MemoryStore, stored::Registries) {
    let store = MemoryStore::new();
    let here = stored::registry(store.clone());
    let there = stored::registry(store.clone());
    (store, (here, there))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_made_here_is_delivered_there() {
    let (_, (here, there)) = two();
    stored::a_call_made_here_is_delivered_there(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_runs_once_and_its_result_is_read_anywhere() {
    let (_, (here, there)) = two();
    stored::a_call_runs_once_and_its_result_is_read_anywhere(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_never_delivered_times_out_everywhere() {
    let (_, (here, there)) = two();
    stored::a_result_never_delivered_times_out_everywhere(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_the_store_loses_is_a_lost_result() {
    let (store, (here, _)) = two();
    stored::a_record_the_store_loses_is_a_lost_result(store, here).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_living_process_missing_its_word_for_a_moment_is_not_stopped() {
    let (store, (here, there)) = two();
    stored::a_living_process_missing_its_word_for_a_moment_is_not_stopped(store, here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivered_media_is_bounded_as_a_tools_own() {
    let (_, (here, there)) = two();
    stored::delivered_media_is_bounded_as_a_tools_own(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_taken_over_elsewhere_does_not_overwrite_it() {
    let (store, (here, _)) = two();
    stored::a_run_taken_over_elsewhere_does_not_overwrite_it(store, here).await;
}

/// A turn resumed after its call's record is gone says so in the reply.
#[tokio::test]
async fn a_turn_whose_record_is_gone_says_so_in_its_reply() {
    use tool_core::store::Store;
    let (store, (here, _)) = two();
    let response = serde_json::json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "pick_file", "input": {"purpose": "notes"}}
    ]});
    let mut turn = tool_core::provider::Provider::Anthropic { strict: false }
        .respond(
            &here,
            &tool_core::ToolContext::new(std::sync::Arc::new(stored::Runs::default())),
            &response,
        )
        .await
        .expect("the provider's shape");
    let id = turn.waiting().next().expect("waiting").call_id().to_owned();
    assert!(store.delete(&format!("call:{id}")).await.expect("delete"));
    turn.resume(&here).await;
    assert_eq!(
        turn.reply()[0]["content"][0]["content"],
        format!(
            "the result of call `{id}` is no longer kept (it was taken elsewhere, or its record expired) and cannot be given here; call the tool again if it is still needed"
        )
    );
    assert_eq!(turn.reply()[0]["content"][0]["is_error"], true);
}
