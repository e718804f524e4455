//! A call belongs to whoever made it, with what waits kept in Redis: two
//! registries on their own connections (two replicas), and two processes,
//! one of which parks the calls and exits before the other decides them.
//! See tool-core's `tests/support/ownership.rs`.

use std::process::Command;
use std::time::Duration;

use serde_json::json;
use tool_core::policy::Decision;
use tool_core::provider::{Provider, Turn};
use tool_redis::RedisStore;

#[path = "../../tool-core/tests/support/ownership.rs"]
mod ownership;
#[allow(dead_code)]
#[path = "support/server.rs"]
mod server;

async fn connect(url: &str) -> RedisStore {
    RedisStore::connect(url).await.expect("connect")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_payment_of_two_callers_is_two_calls_on_every_replica() {
    let server = server::Server::start();
    ownership::the_same_payment_in_two_conversations_is_two_calls(
        &ownership::registry(connect(&server.url()).await),
        &ownership::registry(connect(&server.url()).await),
        (ownership::ctx("ada", "chat"), ownership::ctx("bob", "chat")),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_never_sees_or_decides_another_callers_call_on_any_replica() {
    let server = server::Server::start();
    ownership::a_caller_never_sees_or_decides_another_callers_call(
        &ownership::registry(connect(&server.url()).await),
        &ownership::registry(connect(&server.url()).await),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_client_call_in_two_conversations_gets_its_own_result_on_any_replica() {
    let server = server::Server::start();
    ownership::the_same_client_call_in_two_conversations_gets_its_own_result(
        &ownership::registry(connect(&server.url()).await),
        &ownership::registry(connect(&server.url()).await),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_call_asked_again_in_its_conversation_runs_once_across_replicas() {
    let server = server::Server::start();
    ownership::the_same_call_asked_again_in_its_conversation_runs_once(
        &ownership::registry(connect(&server.url()).await),
        &ownership::registry(connect(&server.url()).await),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loaded_turn_knows_its_call_was_decided_on_another_replica() {
    let server = server::Server::start();
    let store = connect(&server.url()).await;
    ownership::a_loaded_turn_knows_its_call_was_decided(
        &ownership::registry(store.clone()),
        &ownership::registry(connect(&server.url()).await),
        &store,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_client_run_call_takes_its_delivery_under_its_parked_id_on_any_replica() {
    let server = server::Server::start();
    ownership::an_approved_client_run_call_takes_its_delivery_under_its_parked_id(
        &ownership::registry(connect(&server.url()).await),
        &ownership::registry(connect(&server.url()).await),
    )
    .await;
}

/// Set in the process that parks the calls: the Redis to park them in.
const PARKING: &str = "TOOL_TEST_OWNERSHIP_PARK";

const PROVIDER: Provider = Provider::Anthropic { strict: false };

/// One process parks Ada's and Bob's identical payments (the same tool,
/// arguments and provider's id), saves their turns and exits; another
/// lists, decides and finishes each apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_callers_payments_parked_by_one_process_are_decided_apart_by_another() {
    let payment = ownership::response("send_money", json!({"to": "carol", "cents": 5000}));
    if let Ok(url) = std::env::var(PARKING) {
        let store = connect(&url).await;
        let registry = ownership::registry(store.clone());
        for caller in ["ada", "bob"] {
            let ctx = ownership::ctx(caller, "chat");
            let turn = PROVIDER
                .respond(&registry, &ctx, &payment)
                .await
                .expect("the provider's shape");
            assert!(turn.waiting().all(|waiting| waiting.awaits_decision()));
            turn.save(&store, &format!("turn:{caller}"), Duration::from_secs(60))
                .await
                .expect("saved");
        }
        return;
    }
    let server = server::Server::start();
    let parked = Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "two_callers_payments_parked_by_one_process_are_decided_apart_by_another",
            "--exact",
        ])
        .env(PARKING, server.url())
        .output()
        .expect("the parking process runs");
    assert!(
        parked.status.success() && String::from_utf8_lossy(&parked.stdout).contains("1 passed"),
        "{}{}",
        String::from_utf8_lossy(&parked.stdout),
        String::from_utf8_lossy(&parked.stderr)
    );

    // The parking process is gone; each person decides here.
    let store = connect(&server.url()).await;
    let registry = ownership::registry(store.clone());
    let (ada, bob) = (ownership::ctx("ada", "chat"), ownership::ctx("bob", "chat"));
    let load = async |caller: &str| {
        Turn::load(&store, &format!("turn:{caller}"))
            .await
            .expect("read")
            .expect("saved")
    };
    let (mut ada_turn, mut bob_turn) = (load("ada").await, load("bob").await);
    let id = |turn: &Turn| turn.waiting().next().expect("waiting").call_id().to_owned();
    let (ada_id, bob_id) = (id(&ada_turn), id(&bob_turn));
    assert_ne!(ada_id, bob_id);
    assert_eq!(
        ownership::ids(registry.approvals().parked(&ada).await.expect("listed")),
        std::slice::from_ref(&ada_id)
    );
    assert_eq!(
        ownership::ids(registry.approvals().parked(&bob).await.expect("listed")),
        std::slice::from_ref(&bob_id)
    );

    // Ada lowers hers to 100 cents: hers alone.
    registry
        .approvals()
        .decide(
            &ada,
            &ada_id,
            Decision::edit(json!({"to": "carol", "cents": 100})),
        )
        .await
        .expect("hers");
    ada_turn.resume(&registry).await;
    assert_eq!(
        ada_turn.results()[0].model_text(),
        "sent 100 cents to carol"
    );
    let bob_turn_now = load("bob").await;
    assert!(
        bob_turn_now
            .waiting()
            .all(|waiting| waiting.awaits_decision()),
        "Bob's still waits for his own decision"
    );
    registry
        .approvals()
        .decide(&bob, &bob_id, Decision::Approve)
        .await
        .expect("his, still parked");
    bob_turn.resume(&registry).await;
    assert_eq!(
        bob_turn.results()[0].model_text(),
        "sent 5000 cents to carol"
    );
}
