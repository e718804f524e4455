//! The approval example (`examples/approval.rs`) as its two commands run
//! it: `ask` in a process of its own, which parks the payment, saves the
//! turn to Redis and exits; then `decide 500` here, which approves the
//! lowered amount and finishes the turn with the reply the model reads.

use std::process::Command;

use serde_json::json;
use tool_core::policy::Decision;

#[path = "../examples/approval.rs"]
#[allow(dead_code)]
mod approval;

#[path = "../tool-redis/tests/support/server.rs"]
#[allow(dead_code)]
mod server;

/// Set in the process that runs `ask`: the Redis to park the call in.
const ASKING: &str = "TOOL_TEST_APPROVAL_ASK";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_parked_by_one_process_is_decided_by_another() {
    if let Ok(redis) = std::env::var(ASKING) {
        let parked = approval::ask(&redis).await.expect("parked");
        assert_eq!(parked.arguments, json!({"to": "ada", "cents": 5000}));
        return;
    }
    let server = server::Server::start();
    let asked = Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "a_payment_parked_by_one_process_is_decided_by_another",
            "--exact",
        ])
        .env(ASKING, server.url())
        .output()
        .expect("the asking process runs");
    assert!(
        asked.status.success() && String::from_utf8_lossy(&asked.stdout).contains("1 passed"),
        "{}{}",
        String::from_utf8_lossy(&asked.stdout),
        String::from_utf8_lossy(&asked.stderr)
    );

    // The asking process is gone; the person decides here.
    let reply = approval::decide(
        &server.url(),
        Decision::edit(json!({"to": "ada", "cents": 500})),
    )
    .await
    .expect("decided");
    assert_eq!(
        reply,
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": "sent 500 cents to ada"}
        ]})]
    );

    // Finished: a second decision finds nothing waiting.
    let again = approval::decide(&server.url(), Decision::Approve).await;
    assert_eq!(
        again.map(|reply| reply.len()),
        Err("no turn waits: run `cargo run --example approval -- ask` first".to_owned())
    );
}

#[tokio::test]
async fn without_redis_the_example_says_how_to_get_one() {
    let mut server = server::Server::start();
    let url = server.url();
    server.kill();
    let error = approval::ask(&url).await.err().expect("no Redis");
    assert!(
        error.starts_with(&format!("the redis store is unreachable: {url}: ")),
        "{error}"
    );
    assert!(
        error.ends_with("; start a Redis (`redis-server`) or set REDIS_URL to one"),
        "{error}"
    );
}
