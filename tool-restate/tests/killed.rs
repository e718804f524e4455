//! A worker killed with SIGKILL in the middle of a tool's call, right
//! after the tool's side effect reached the outside world and before the
//! tool heard back, then started again: an idempotent tool is run again
//! with the same key, so the side effect is done once; any other is not
//! run again, and its invocation ends as failed.
//!
//! The worker is a process of its own: this test's binary, started again
//! with `TOOL_RESTATE_TEST_WORKER` set (so it runs without libtest's
//! harness, and `main` decides which it is).

mod support;

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::RestateService;

use support::counter::Counter;
use support::server::{Server, free_port};

/// Set in a worker process: `<port> <counter's URL>`.
const WORKER: &str = "TOOL_RESTATE_TEST_WORKER";

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    if let Ok(worker) = std::env::var(WORKER) {
        runtime.block_on(serve(&worker));
        return;
    }
    // libtest's ways, for what runs tests: `--list`, and names to filter
    // by.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&String> = args.iter().filter(|arg| !arg.starts_with('-')).collect();
    let list = args.iter().any(|arg| arg == "--list");
    for (name, test) in [
        (
            "an_idempotent_tool_killed_after_its_side_effect_does_it_once",
            Box::pin(idempotent_tool_killed()) as std::pin::Pin<Box<dyn Future<Output = ()>>>,
        ),
        (
            "a_tool_not_idempotent_killed_mid_call_is_not_run_again",
            Box::pin(other_tool_killed()),
        ),
    ] {
        if !filters.is_empty() && !filters.iter().any(|filter| name.contains(filter.as_str())) {
            continue;
        }
        if list {
            println!("{name}: test");
            continue;
        }
        let started = Instant::now();
        runtime.block_on(test);
        println!(
            "test {name} ... ok ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

/// What the worker's tools reach.
struct Outside {
    counter: String,
    http: reqwest::Client,
}

impl Outside {
    /// Does the side effect, keyed by the call's id.
    async fn effect(&self, key: &str) -> Result<(), reqwest::Error> {
        self.http
            .post(format!("{}/effect/{key}", self.counter))
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }
}

/// Pay; the payment API is told the call's key.
#[tool(idempotent)]
async fn pay(ctx: &ToolContext<Outside>, cents: u64) -> ToolResult {
    match ctx.state().effect(ctx.call_id().unwrap_or_default()).await {
        Ok(()) => ToolResult::text(format!("paid {cents} cents")),
        Err(error) => ToolResult::error(format!("the payment failed: {error}")),
    }
}

/// Send an email: sent twice, it is read twice.
#[tool]
async fn send_email(ctx: &ToolContext<Outside>, to: String) -> ToolResult {
    match ctx.state().effect(ctx.call_id().unwrap_or_default()).await {
        Ok(()) => ToolResult::text(format!("sent to {to}")),
        Err(error) => ToolResult::error(format!("the email failed: {error}")),
    }
}

/// The worker process: the tools served on the port given, until killed.
async fn serve(worker: &str) {
    let (port, counter) = worker.split_once(' ').expect("<port> <counter>");
    let outside = Arc::new(Outside {
        counter: counter.to_owned(),
        http: reqwest::Client::new(),
    });
    let registry = ToolRegistry::new().with(Pay).with(SendEmail);
    let service = RestateService::new(registry, move |_| {
        ToolContext::from_arc(Arc::clone(&outside))
    });
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port.parse().expect("a port")))
        .await
        .expect("the worker's port");
    service
        .serve(listener, std::future::pending())
        .await
        .expect("served");
}

/// The worker process of the test, which the counter kills at the first
/// side effect.
struct Workers {
    port: u16,
    current: Arc<Mutex<Option<Child>>>,
    killed: Arc<AtomicBool>,
}

impl Workers {
    fn new() -> Self {
        Workers {
            port: free_port(),
            current: Arc::default(),
            killed: Arc::default(),
        }
    }

    /// A counter that kills the worker (SIGKILL) at its first request,
    /// before answering it.
    fn counter(&self) -> Counter {
        let current = Arc::clone(&self.current);
        let killed = Arc::clone(&self.killed);
        Counter::start(move |_| {
            if killed.load(Ordering::SeqCst) {
                return;
            }
            let worker = current
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(mut worker) = worker {
                worker.kill().expect("SIGKILL");
                let _ = worker.wait();
                killed.store(true, Ordering::SeqCst);
            }
        })
    }

    /// Starts a worker on the port, and waits until it listens.
    fn start(&self, counter: &Counter) {
        let child = Command::new(std::env::current_exe().expect("this test's binary"))
            .env(WORKER, format!("{} {}", self.port, counter.url()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("a worker");
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the worker did not listen in 10 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn uri(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Waits until the counter killed the worker.
    async fn wait_killed(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.killed.load(Ordering::SeqCst) {
            assert!(Instant::now() < deadline, "no side effect in 30 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        let worker = self
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(mut worker) = worker {
            let _ = worker.kill();
            let _ = worker.wait();
        }
    }
}

/// Sends `tool` its `args` (not waiting for it): the invocation's id.
async fn send(server: &Server, tool: &str, args: Value) -> String {
    let reply: Value = server
        .http()
        .post(format!("{}/Tools/{tool}/send", server.ingress()))
        .json(&args)
        .send()
        .await
        .expect("the ingress answers")
        .json()
        .await
        .expect("an invocation");
    reply["invocationId"]
        .as_str()
        .unwrap_or_else(|| panic!("sent {tool}: {reply}"))
        .to_owned()
}

/// Waits for the invocation's end: its status and body.
async fn attach(server: &Server, id: &str) -> (reqwest::StatusCode, Vec<u8>) {
    let reply = server
        .http()
        .get(format!("{}/restate/attach/{id}", server.ingress()))
        .send()
        .await
        .expect("the ingress answers");
    let status = reply.status();
    (status, reply.bytes().await.expect("a body").to_vec())
}

async fn idempotent_tool_killed() {
    let server = Server::start("killed-idempotent").await;
    let workers = Workers::new();
    let counter = workers.counter();
    workers.start(&counter);
    server.register(&workers.uri()).await;

    let id = send(&server, "pay", json!({"cents": 500})).await;
    workers.wait_killed().await;
    workers.start(&counter);
    let (status, body) = attach(&server, &id).await;
    assert!(
        status.is_success(),
        "{status} {}",
        String::from_utf8_lossy(&body)
    );
    let result: ToolResult = serde_json::from_slice(&body).expect("a result");
    assert_eq!(result.model_text(), "paid 500 cents");

    // Run twice (the first run's worker killed before it heard back),
    // with one key: the payment API charged once.
    let hits = counter.hits();
    assert_eq!(
        hits.len(),
        1,
        "the tool read another key on retry: {hits:?}"
    );
    assert_eq!(hits.values().copied().collect::<Vec<_>>(), [2], "{hits:?}");
    let row = server.invocation(&id).await;
    assert_eq!(row["status"], "completed", "{row}");
    assert_eq!(row["completion_result"], "success", "{row}");
}

async fn other_tool_killed() {
    let server = Server::start("killed-once").await;
    let workers = Workers::new();
    let counter = workers.counter();
    workers.start(&counter);
    server.register(&workers.uri()).await;

    let id = send(&server, "send_email", json!({"to": "ada@example.com"})).await;
    workers.wait_killed().await;
    // A worker is back: the invocation could run again, and must not.
    workers.start(&counter);
    let (status, body) = attach(&server, &id).await;
    assert!(
        !status.is_success(),
        "{status} {}",
        String::from_utf8_lossy(&body)
    );
    let row = server.invocation(&id).await;
    assert_eq!(row["status"], "completed", "{row}");
    assert_eq!(row["completion_result"], "failure", "{row}");
    // Given the time a retry would take, still one email sent.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let hits = counter.hits();
    assert_eq!(hits.values().copied().collect::<Vec<_>>(), [1], "{hits:?}");
}
