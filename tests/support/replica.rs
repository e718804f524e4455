//! One replica of the MCP server that `tests/mcp_replicas.rs` runs three
//! of: the test binary itself, run again with [`REPLICA`] set to its
//! [`Config`] as JSON. It serves stateless HTTP with bearer tokens, its
//! registry and its tasks in one `RedisStore`, and prints a line of the
//! run log (`run-log: ran <tool> <arg> on <replica>`, `run-log: cancelled
//! ...`) to stdout each time one of its tools starts or sees its cancel,
//! so that the harness keeps what a replica did even once it is killed.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{BearerTokens, McpConfig, McpServer};
use tool_redis::RedisStore;

/// Set in a replica's environment: its [`Config`], as JSON.
pub(crate) const REPLICA: &str = "TOOL_TEST_REPLICA";

/// What comes before each line of the run log on a replica's stdout (after
/// whatever libtest wrote on the same line).
pub(crate) const RUN_LOG: &str = "run-log: ";

/// What comes before the address on a replica's stderr.
pub(crate) const SERVING: &str = "serving MCP at ";

/// The bearer tokens every replica takes.
pub(crate) const ALICE: &str = "alice-secret";
pub(crate) const BOB: &str = "bob-secret";

/// How a replica is made.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Config {
    /// `replica-<k>`: in the run log and in what its tools answer.
    pub(crate) name: String,
    /// The Redis its registry and its tasks share with the others.
    pub(crate) redis: String,
    /// The registry's `RegistryBuilder::pending_timeout`.
    pub(crate) pending_timeout_ms: u64,
    /// The server's `with_task_ttl`, when set.
    pub(crate) task_ttl_ms: Option<u64>,
}

/// What the tools know of the replica they run on.
pub(crate) struct Here {
    name: String,
}

fn log(line: &str) {
    // One write of a whole line: the harness reads lines.
    println!("{RUN_LOG}{line}");
}

/// Runs for `ms`, or until cancelled, saying so in the run log and, as
/// its progress, where it started: what `render` and `thumbnail` do.
async fn run(ctx: &ToolContext<Here>, tool: &str, arg: &str, ms: u64) -> String {
    let here = &ctx.state().name;
    log(&format!("ran {tool} {arg} on {here}"));
    let caller = ctx.caller().unwrap_or("no one");
    log(&format!("caller of {tool} {arg} on {here}: {caller}"));
    ctx.progress(1.0, Some(2.0), format!("started on {here}").as_str());
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => format!("{tool} {arg} on {here}"),
        () = ctx.cancellation().cancelled() => {
            log(&format!("cancelled {tool} {arg} on {here}"));
            format!("{tool} {arg} cancelled on {here}")
        }
    }
}

/// Render a video: not safe to run twice.
#[tool(long_running, concurrency_safe, timeout = "2h")]
async fn render(
    ctx: &ToolContext<Here>,
    /// The video.
    video: String,
    /// How long it takes, in ms.
    ms: u64,
) -> String {
    run(ctx, "render", &video, ms).await
}

/// Make an image's thumbnail: the same whenever it is made.
#[tool(long_running, idempotent, concurrency_safe, timeout = "2h")]
async fn thumbnail(
    ctx: &ToolContext<Here>,
    /// The image.
    image: String,
    /// How long it takes, in ms.
    ms: u64,
) -> String {
    run(ctx, "thumbnail", &image, ms).await
}

/// Say a number back, after `ms` if given (and then said in the run log).
#[tool(long_running, concurrency_safe, timeout = "2h")]
async fn echo_later(
    ctx: &ToolContext<Here>,
    /// The number.
    n: u64,
    /// How long to wait first, in ms.
    ms: Option<u64>,
) -> String {
    if let Some(ms) = ms {
        let here = &ctx.state().name;
        log(&format!("ran echo_later {n} on {here}"));
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(ms)) => {}
            () = ctx.cancellation().cancelled() => log(&format!("cancelled echo_later {n} on {here}")),
        }
    }
    format!("echo {n}")
}

/// Add two numbers: never touches the store.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Serves as the replica `config` says, until the process is killed or its
/// stdin closes (the test that started it has gone).
pub(crate) fn serve(config: &str) {
    let config: Config = serde_json::from_str(config)
        .unwrap_or_else(|error| panic!("{REPLICA} is not a replica's config: {error}: {config}"));
    std::thread::spawn(|| {
        let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
        std::process::exit(0);
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let store = RedisStore::options(&config.redis)
            .timeout(Duration::from_secs(1))
            .connect()
            .await
            .expect("Redis is up when a replica starts");
        let registry = ToolRegistry::builder()
            .with(Render)
            .with(Thumbnail)
            .with(EchoLater)
            .with(Add)
            .store(store.clone())
            .pending_timeout(Duration::from_millis(config.pending_timeout_ms))
            .build();
        let tokens = BearerTokens::new()
            .with_token(ALICE, Vec::<String>::new())
            .with_token(BOB, Vec::<String>::new());
        let here = Here {
            name: config.name.clone(),
        };
        let mut settings = McpConfig::new().with_store(store).with_bearer_auth(tokens);
        if let Some(ttl) = config.task_ttl_ms {
            settings = settings.with_task_ttl(Duration::from_millis(ttl));
        }
        let server = McpServer::new(registry, ToolContext::new(here)).with_config(settings);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let address = listener.local_addr().expect("bound");
        eprintln!("{SERVING}http://{address}/mcp");
        let http = tool_mcp::http_config().with_legacy_session_mode(false);
        server
            .serve_http_with(listener, http)
            .await
            .expect("served");
    });
}
