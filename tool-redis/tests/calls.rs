//! A registry's pending calls in Redis, shared by two connections as by
//! two replicas: a call made on one is delivered, waited on and timed out
//! on the other, runs once, and, with no grace for outages, is a lost
//! result when Redis goes while it waits.

use std::time::Duration;

use serde_json::json;
use tool_core::ToolContext;
use tool_redis::RedisStore;

// Each test binary uses its own part of the server's controls.
#[allow(dead_code)]
#[path = "support/server.rs"]
mod server;
#[path = "../../tool-core/tests/support/stored_calls.rs"]
mod stored;

async fn two(server: &server::Server) -> (RedisStore, stored::Registries) {
    let one = RedisStore::connect(&server.url()).await.expect("connect");
    let other = RedisStore::connect(&server.url()).await.expect("connect");
    (
        one.clone(),
        (stored::registry(one), stored::registry(other)),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_made_on_one_replica_is_delivered_on_another() {
    let server = server::Server::start();
    let (_, (here, there)) = two(&server).await;
    stored::a_call_made_here_is_delivered_there(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_runs_once_across_replicas() {
    let server = server::Server::start();
    let (_, (here, there)) = two(&server).await;
    stored::a_call_runs_once_and_its_result_is_read_anywhere(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_never_delivered_times_out_on_every_replica() {
    let server = server::Server::start();
    let (_, (here, there)) = two(&server).await;
    stored::a_result_never_delivered_times_out_everywhere(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_redis_loses_is_a_lost_result() {
    let server = server::Server::start();
    let (store, (here, _)) = two(&server).await;
    stored::a_record_the_store_loses_is_a_lost_result(store, here).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_living_replica_missing_its_lease_for_a_moment_is_not_stopped() {
    let server = server::Server::start();
    let (store, (here, there)) = two(&server).await;
    stored::a_living_process_missing_its_word_for_a_moment_is_not_stopped(store, here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delivered_media_is_bounded_on_every_replica() {
    let server = server::Server::start();
    let (_, (here, there)) = two(&server).await;
    stored::delivered_media_is_bounded_as_a_tools_own(here, there).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_taken_over_on_another_replica_is_not_overwritten() {
    let server = server::Server::start();
    let (store, (here, _)) = two(&server).await;
    stored::a_run_taken_over_elsewhere_does_not_overwrite_it(store, here).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_while_a_call_waits_is_a_lost_result_and_calls_work_once_it_is_back() {
    let mut server = server::Server::start();
    // No grace: the wait ends at the first failure.
    let store = RedisStore::options(&server.url())
        .timeout(Duration::from_secs(1))
        .grace(Duration::ZERO)
        .connect()
        .await
        .expect("connect");
    let registry = std::sync::Arc::new(stored::registry(store));
    let ctx = ToolContext::new(std::sync::Arc::new(stored::Runs::default()));
    let pending = registry
        .call(&ctx, "pick_file", json!({"purpose": "a restart"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let waiting = tokio::spawn({
        let registry = std::sync::Arc::clone(&registry);
        let id = id.clone();
        async move { registry.pending().wait(&id).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.kill();
    let result = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("the wait ends")
        .expect("joined")
        .expect("a result");
    assert!(result.is_error());
    let text = result.model_text();
    assert!(
        text.starts_with(&format!(
            "the result of tool `pick_file` (call `{id}`) was lost: "
        )),
        "{text}"
    );
    assert!(
        text.ends_with("; call the tool again if it is still needed"),
        "{text}"
    );

    // A call made while Redis is down fails at once, and says why.
    let refused = registry
        .call(&ctx, "pick_file", json!({"purpose": "while down"}))
        .await;
    assert!(refused.is_error());
    assert!(
        refused.model_text().starts_with(
            "tool `pick_file` is not available: its call could not be recorded, so it did not run: the redis store is unreachable: "
        ),
        "{}",
        refused.model_text()
    );

    server.start_again();
    let mut again = registry
        .call(&ctx, "pick_file", json!({"purpose": "after"}))
        .await;
    for _ in 0..50 {
        if again.is_pending() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        again = registry
            .call(&ctx, "pick_file", json!({"purpose": "after"}))
            .await;
    }
    let id = again
        .pending_call_id()
        .expect("calls work again")
        .to_owned();
    registry
        .pending()
        .deliver(&id, tool_core::ToolResult::text("after.pdf"))
        .await
        .expect("delivered");
    let result = registry.pending().wait(&id).await.expect("a result");
    assert_eq!(result.model_text(), "after.pdf");
}
