//! Calls parked for approval in Redis, decided through another
//! connection, as by another replica: see
//! tool-core's `tests/support/parked_calls.rs`.

use tool_redis::RedisStore;

#[path = "../../tool-core/tests/support/parked_calls.rs"]
mod parked;
#[allow(dead_code)]
#[path = "support/server.rs"]
mod server;

async fn connect(server: &server::Server) -> RedisStore {
    RedisStore::connect(&server.url()).await.expect("connect")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_given_on_another_replica_is_the_calls_result() {
    let server = server::Server::start();
    parked::decisions_made_elsewhere_are_the_calls_results(
        parked::registry(connect(&server).await),
        parked::registry(connect(&server).await),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_no_one_decides_on_is_denied_on_every_replica() {
    let server = server::Server::start();
    parked::a_call_no_one_decides_on_is_denied(
        parked::registry(connect(&server).await),
        parked::registry(connect(&server).await),
    )
    .await;
}
