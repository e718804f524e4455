//! Redis down while calls wait: for a moment (stopped as an operator
//! stops it, keeping its data, and started again on the same port), the
//! waiting calls keep waiting, in this process and in another, and end
//! with their own results; a replica whose lease lapsed meanwhile, and
//! whose connection comes back after the others', is not taken for
//! stopped; past the store's grace, they end saying the result was lost.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, Decision};
use tool_core::registry::DeliveryError;
use tool_core::store::LEASE;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_redis::RedisStore;

#[path = "support/proxy.rs"]
mod proxy;
#[allow(dead_code)]
#[path = "support/server.rs"]
mod server;

/// Set in the process that waits on the calls: the Redis it shares.
const WAITER: &str = "TOOL_TEST_OUTAGE_WAITER";

/// What comes before each line the waiting process says (after whatever
/// libtest wrote on the same line).
const SAYS: &str = "waiter: ";

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
fn pick_file(
    /// What the file is for.
    purpose: String,
) -> ToolResult {
    let _ = purpose;
    ToolResult::deferred()
}

/// Send money to an account.
#[tool(tier = Confirm)]
fn transfer(
    /// Who gets it.
    to: String,
    /// How much, in cents.
    cents: u64,
) -> String {
    format!("sent {cents} cents to {to}")
}

/// Archive a mailbox; takes `secs` seconds.
#[tool(long_running)]
async fn archive(
    ctx: &ToolContext<Arc<AtomicUsize>>,
    /// Whose mailbox.
    owner: String,
    /// How long it takes.
    secs: u64,
) -> String {
    ctx.state().fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(secs)).await;
    format!("archived {owner}'s mailbox")
}

/// Leaves every decision to a person, later.
struct AskLater;

impl ApprovalHook<Arc<AtomicUsize>> for AskLater {
    async fn approve(&self, _: &ApprovalRequest<'_, Arc<AtomicUsize>>) -> Approval {
        Approval::Park
    }
}

type Registry = ToolRegistry<Arc<AtomicUsize>>;

fn registry(store: RedisStore) -> Registry {
    ToolRegistry::builder()
        .with(PickFile)
        .with(Transfer)
        .with(Archive)
        .approval(AskLater)
        .store(store)
        .build()
}

fn ctx() -> ToolContext<Arc<AtomicUsize>> {
    ToolContext::new(Arc::new(AtomicUsize::new(0)))
}

/// A deferred call and a parked one, made on `registry`: their ids.
async fn two_waiting_calls(registry: &Registry) -> (String, String) {
    let ctx = ctx();
    let deferred = registry
        .call(&ctx, "pick_file", json!({"purpose": "the invoice"}))
        .await;
    let parked = registry
        .call(&ctx, "transfer", json!({"to": "ada", "cents": 100}))
        .await;
    assert!(parked.awaits_decision(), "{}", parked.model_text());
    (
        deferred.pending_call_id().expect("pending").to_owned(),
        parked.pending_call_id().expect("pending").to_owned(),
    )
}

/// The process that waits: makes the two calls, says their ids, and says
/// each result as its wait ends.
async fn waiter(url: &str) {
    let registry = Arc::new(registry(
        RedisStore::connect(url).await.expect("Redis is up"),
    ));
    let (deferred, parked) = two_waiting_calls(&registry).await;
    println!("{SAYS}ids {deferred} {parked}");
    let waits: Vec<_> = [deferred, parked]
        .into_iter()
        .map(|id| {
            let registry = Arc::clone(&registry);
            tokio::spawn(async move {
                let result = registry.pending().wait(&id).await.expect("a result");
                let text = serde_json::to_string(&result.model_text()).expect("JSON");
                println!("{SAYS}result {id} {text}");
            })
        })
        .collect();
    for wait in waits {
        wait.await.expect("joined");
    }
}

/// Until the store answers again: a request made while Redis is down, or
/// before this process's connection is back, is refused at once.
async fn once_back<T, E: std::fmt::Debug>(mut attempt: impl AsyncFnMut() -> Result<T, E>) -> T {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        match attempt().await {
            Ok(done) => return done,
            Err(error) if Instant::now() < until => {
                eprintln!("not yet: {error:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("Redis is back, but still: {error:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_waiting_in_another_process_through_a_short_outage_end_with_their_results() {
    if let Ok(url) = std::env::var(WAITER) {
        waiter(&url).await;
        return;
    }
    let mut server = server::Server::start();
    let child = Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "calls_waiting_in_another_process_through_a_short_outage_end_with_their_results",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(WAITER, server.url())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the waiting process starts");
    let mut child = KillOnDrop(child);
    let stdout = child.0.stdout.take().expect("its output");
    let (said, heard) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some((_, line)) = line.split_once(SAYS) {
                let _ = said.send(line.to_owned());
            }
        }
    });
    let ids = heard
        .recv_timeout(Duration::from_secs(60))
        .expect("the waiting process makes its calls");
    let mut ids = ids.strip_prefix("ids ").expect("ids").split(' ');
    let (deferred, parked) = (ids.next().expect("one"), ids.next().expect("two"));
    let here = registry(
        RedisStore::connect(&server.url())
            .await
            .expect("Redis is up"),
    );

    // Both wait; Redis goes for two seconds, and comes back with its data.
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.stop();
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        heard.try_recv().ok(),
        None,
        "a call ended while Redis was down"
    );
    server.start_again();

    once_back(async || {
        here.pending()
            .deliver(deferred, ToolResult::text("invoice.pdf"))
            .await
    })
    .await;
    let approved = once_back(async || {
        here.approvals()
            .decide(&ctx(), parked, Decision::Approve)
            .await
            .map(|result| result.model_text().into_owned())
    })
    .await;
    assert_eq!(approved, "sent 100 cents to ada");

    let mut results: Vec<String> = (0..2)
        .map(|_| {
            heard
                .recv_timeout(Duration::from_secs(10))
                .expect("each wait ends")
        })
        .collect();
    results.sort_by_key(|result| !result.contains(deferred));
    assert_eq!(
        results,
        [
            format!("result {deferred} \"invoice.pdf\""),
            format!("result {parked} \"sent 100 cents to ada\""),
        ]
    );
    let status = child.0.wait().expect("reaped");
    assert!(status.success(), "the waiting process failed: {status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_whose_lease_lapsed_in_an_outage_is_not_taken_for_stopped() {
    let mut server = server::Server::start();
    // The replica that runs the calls reaches Redis through a relay, so
    // that its connection can come back later than the other's.
    let relay = proxy::Proxy::to(&server.url());
    let runs = Arc::new(AtomicUsize::new(0));
    let ctx = ToolContext::new(Arc::clone(&runs));
    let runner = registry(RedisStore::connect(&relay.url()).await.expect("up"));
    let waiter = Arc::new(registry(
        RedisStore::connect(&server.url()).await.expect("up"),
    ));
    // One run ends while Redis is down, the other after it is back.
    let mut waits = Vec::new();
    for (owner, secs) in [("ada", 4), ("bob", 12)] {
        let pending = runner
            .call(&ctx, "archive", json!({"owner": owner, "secs": secs}))
            .await;
        let id = pending.pending_call_id().expect("pending").to_owned();
        let waiter = Arc::clone(&waiter);
        waits.push(tokio::spawn(async move {
            tokio::time::timeout(Duration::from_secs(30), waiter.pending().wait(&id))
                .await
                .expect("the wait ends")
                .expect("a result")
                .model_text()
                .into_owned()
        }));
    }

    // Longer than a lease: every process's word lapses.
    tokio::time::sleep(Duration::from_millis(500)).await;
    relay.cut();
    server.stop();
    tokio::time::sleep(LEASE + Duration::from_secs(2)).await;
    server.start_again();
    // The waiter is back, and finds the runner's word missing; the
    // runner is back three seconds later, and says it again.
    tokio::time::sleep(Duration::from_secs(3)).await;
    relay.mend();

    let mut results = Vec::new();
    for wait in waits {
        results.push(wait.await.expect("joined"));
    }
    assert_eq!(
        results,
        ["archived ada's mailbox", "archived bob's mailbox"]
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2, "each ran once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_waiting_past_the_grace_end_saying_their_results_were_lost() {
    let mut server = server::Server::start();
    let grace = Duration::from_secs(2);
    let store = RedisStore::options(&server.url())
        .timeout(Duration::from_secs(1))
        .grace(grace)
        .connect()
        .await
        .expect("connect");
    let registry = Arc::new(registry(store));
    let (deferred, parked) = two_waiting_calls(&registry).await;
    let waits: Vec<_> = [deferred.clone(), parked.clone()]
        .into_iter()
        .map(|id| {
            let registry = Arc::clone(&registry);
            tokio::spawn(async move {
                let result = registry.pending().wait(&id).await.expect("a result");
                (Instant::now(), result)
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let down = Instant::now();
    server.kill();

    let unreachable = format!("the redis store is unreachable: {}: ", server.url());
    for (wait, (tool, id)) in waits
        .into_iter()
        .zip([("pick_file", &deferred), ("transfer", &parked)])
    {
        let (ended, result) = tokio::time::timeout(Duration::from_secs(15), wait)
            .await
            .expect("the wait ends")
            .expect("joined");
        let after = ended - down;
        assert!(after >= grace, "{tool} ended {after:?} after Redis went");
        assert!(after < grace + Duration::from_secs(5), "{after:?}");
        assert!(result.is_error());
        let text = result.model_text();
        let lost = format!("the result of tool `{tool}` (call `{id}`) was lost: {unreachable}");
        assert!(text.starts_with(&lost), "{text}");
        assert!(
            text.ends_with("; call the tool again if it is still needed"),
            "{text}"
        );
    }

    // A delivery made while Redis is down is refused at once, saying why.
    let refused = registry
        .pending()
        .deliver(&deferred, ToolResult::text("late.pdf"))
        .await;
    let Err(DeliveryError::Store { error, .. }) = refused else {
        panic!("{refused:?}");
    };
    assert!(error.to_string().starts_with(&unreachable), "{error}");
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
