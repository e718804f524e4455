//! MCP through a Redis outage, across real processes: two replicas of one
//! MCP server (`tests/support/replica.rs`) on one real `redis-server`,
//! which is stopped for two seconds, keeping its data, and started again
//! on the same port. A 2025-11-25 client waiting on `tasks/result` on one
//! replica for a task run on the other, and a client waiting on a
//! `long_running` call, keep waiting through it and get their results;
//! nothing is lost, and no replica stops or panics.
//!
//! It needs `TOOL_REDIS_SERVER` (a redis-server 7 binary; `scripts/test`
//! installs one).

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

// Each test binary uses its own part of the server's controls.
#[allow(dead_code)]
#[path = "../tool-redis/tests/support/server.rs"]
mod redis_server;
#[path = "support/replica.rs"]
mod replica;
// The checks of the fault tests, of which this one uses the patience.
#[allow(dead_code)]
#[path = "support/replica_checks.rs"]
mod replica_checks;
#[allow(dead_code)]
#[path = "support/replica_clients.rs"]
mod replica_clients;
#[allow(dead_code)]
#[path = "support/replicas.rs"]
mod replicas;

use replica::{ALICE, REPLICA};
use replica_checks::WITHIN;
use replica_clients::{Clients, Form, text};
use replicas::Cluster;

/// The replica's side of the re-executed test binary: nothing unless
/// [`REPLICA`] is set, then a replica until killed.
#[test]
fn replica_process() {
    if let Ok(config) = std::env::var(REPLICA) {
        replica::serve(&config);
    }
}

#[test]
fn a_task_and_a_call_waited_on_through_a_short_outage_end_with_their_results() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let mut cluster = Cluster::start(2, None);
        let alice = Arc::new(Clients::connect(&cluster.urls(), ALICE).await);
        // Each runs two seconds: it ends while Redis is down.
        let arguments = json!({"n": 7, "ms": 2_000});
        let task = alice
            .start(Form::Spec2025, 0, "echo_later", arguments, 60_000)
            .await;
        let waiting = tokio::spawn({
            let alice = Arc::clone(&alice);
            let id = json!({"taskId": task});
            async move { alice.request_2025(1, "tasks/result", id).await }
        });
        let waited = tokio::spawn({
            let alice = Arc::clone(&alice);
            async move {
                let arguments = json!({"n": 8, "ms": 2_000});
                alice.call(1, "echo_later", arguments).await
            }
        });
        for ran in [
            "ran echo_later 7 on replica-0",
            "ran echo_later 8 on replica-1",
        ] {
            let heard = cluster.log.heard(ran, WITHIN).await;
            assert!(heard.is_some(), "{ran:?} not in {:#?}", cluster.log.lines());
        }

        cluster.redis.stop();
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(
            !waiting.is_finished(),
            "tasks/result ended while Redis was down"
        );
        assert!(
            !waited.is_finished(),
            "a waited call ended while Redis was down"
        );
        cluster.redis.start_again();

        let result = tokio::time::timeout(WITHIN, waiting).await;
        let result = result.expect("tasks/result ends").expect("joined");
        let result = result.expect("the task's result");
        assert_eq!(result["content"][0]["text"], "echo 7", "{result}");
        assert_eq!(result["isError"], json!(false), "{result}");
        let result = tokio::time::timeout(WITHIN, waited).await;
        let result = result.expect("the waited call ends").expect("joined");
        assert_eq!(text(&result), "echo 8", "{result:?}");
        assert_eq!(result.is_error, Some(false), "{result:?}");
        cluster.assert_all_run_and_none_panicked();
    });
}
