//! A replica killed (SIGKILL) while it runs a call: whoever waits on the
//! call on another replica sees it end, saying the process that ran it
//! stopped, once its lease lapses; it never stays running, and the same
//! call asked for again runs again on a live replica.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_redis::RedisStore;

#[allow(dead_code)]
#[path = "support/server.rs"]
mod server;

/// Set in the replica that is killed: the Redis it shares.
const DOOMED: &str = "TOOL_TEST_DOOMED_REPLICA";

/// Render a video; takes an hour, or a moment when asked to be quick.
#[tool(long_running)]
async fn render(ctx: &ToolContext<Arc<AtomicUsize>>, video: String) -> String {
    ctx.state().fetch_add(1, Ordering::SeqCst);
    let takes = if std::env::var_os(DOOMED).is_some() {
        Duration::from_secs(3600)
    } else {
        Duration::from_millis(100)
    };
    tokio::time::sleep(takes).await;
    format!("rendered {video}")
}

/// The context of the provider's call `call_1` in one conversation, on
/// either replica.
fn conversation(runs: Arc<AtomicUsize>) -> ToolContext<Arc<AtomicUsize>> {
    ToolContext::builder(runs)
        .conversation("conversation:1")
        .call_id("call_1")
        .build()
}

async fn registry(url: &str) -> ToolRegistry<Arc<AtomicUsize>> {
    let store = RedisStore::connect(url).await.expect("Redis is up");
    ToolRegistry::builder().with(Render).store(store).build()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_whose_replica_is_killed_ends_saying_so_and_runs_again_when_asked() {
    if let Ok(url) = std::env::var(DOOMED) {
        // The doomed replica: starts the call, says its id, runs on.
        let registry = registry(&url).await;
        let ctx = conversation(Arc::new(AtomicUsize::new(0)));
        let pending = registry
            .call(&ctx, "render", json!({"video": "intro"}))
            .await;
        println!("pending {}", pending.pending_call_id().expect("pending"));
        tokio::time::sleep(Duration::from_secs(3600)).await;
        return;
    }
    let server = server::Server::start();
    let mut doomed = Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "a_call_whose_replica_is_killed_ends_saying_so_and_runs_again_when_asked",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DOOMED, server.url())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the doomed replica starts");
    let stdout = doomed.stdout.take().expect("its output");
    // Killed with the test, should it fail before its time.
    let mut doomed = KillOnDrop(doomed);
    let id = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        // After libtest's own words on the same line.
        .find_map(|line| Some(line.split_once("pending ")?.1.trim().to_owned()))
        .expect("the doomed replica starts the call");

    let live = registry(&server.url()).await;
    doomed.0.kill().expect("SIGKILL");
    doomed.0.wait().expect("reaped");

    let result = tokio::time::timeout(Duration::from_secs(30), live.pending().wait(&id))
        .await
        .expect("the call does not stay running")
        .expect("the call is known");
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        format!(
            "the result of tool `render` (call `{id}`) was lost: the process that ran it stopped before it finished; call the tool again if it is still needed"
        )
    );

    // Asked again (the same provider's call in its conversation), the same
    // call runs on a live replica, once.
    let runs = Arc::new(AtomicUsize::new(0));
    let ctx = conversation(Arc::clone(&runs));
    let again = live.call(&ctx, "render", json!({"video": "intro"})).await;
    assert_eq!(again.pending_call_id(), Some(id.as_str()), "the same call");
    let result: ToolResult = live.pending().wait(&id).await.expect("a result");
    assert_eq!(result.model_text(), "rendered intro");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
