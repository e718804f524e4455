//! What a mount costs, beside rmcp's client doing the same directly, on
//! the same server (a tool-mcp server over streamable HTTP on loopback):
//!
//! - a call: `RegistryHandle::call` of a mounted tool (the registry's
//!   pipeline, validation on, then rmcp's client) ÷ `Peer::call_tool` on a
//!   client of its own, in paired rounds (blocks of calls, alternating
//!   which goes first), reported as the median of the rounds' ratios:
//!   calls as an agent makes them, each after a pause (a model's turn is
//!   far longer) and timed alone; and calls back to back;
//! - mounting a server of 500 tools (connect, list, register: each schema
//!   checked against the meta-schema) beside rmcp's client connecting and
//!   listing them, in time and in the bytes each keeps allocated after.
//!
//! Run with `cargo bench -p tool-mcp --bench mount`; see BENCHMARKS.md.
//! `<the bench binary> only direct|mounted|mounted-2025 N` makes N calls of one kind
//! and nothing else, on one thread, to count them under `valgrind
//! --tool=callgrind`.

use std::alloc::System;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use tokio::net::TcpListener;
use tool_core::toolset::RegistryHandle;
use tool_core::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult, tool};
use tool_mcp::mount::{Mount, Mounted, Protocol};
use tool_mcp::{McpServer, http_config};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The bytes allocated and not freed since `region` began.
fn held(region: &Region<'_, System>) -> isize {
    let change = region.change();
    change.bytes_allocated as isize - change.bytes_deallocated as isize + change.bytes_reallocated
}

/// Add a note to the user's notebook.
#[tool(read_only)]
fn add_note(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

/// One of many tools alike but for their names.
struct Numbered(String);

impl Tool for Numbered {
    fn name(&self) -> &str {
        &self.0
    }
    fn description(&self) -> &str {
        "Look up a record by its id, with the fields to return."
    }
    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "The record's id."},
                "fields": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["id"]
        })
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("found") })
    }
}

async fn serve(registry: ToolRegistry) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("its address");
    let server = McpServer::new(registry, ToolContext::new(()))
        .with_config(tool_mcp::McpConfig::new().with_page_size(1000));
    tokio::spawn(async move { server.serve_http_with(listener, http_config()).await });
    address
}

fn median(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (
        values[values.len() / 2],
        values[0],
        values[values.len() - 1],
    )
}

/// One `add_note` server over HTTP, reached by rmcp's client and by a
/// mount, and the arguments of a call: as a value and as rmcp's object.
struct Calls {
    direct: RunningService<RoleClient, ()>,
    handle: RegistryHandle,
    mounted: Mounted,
    arguments: Value,
    object: JsonObject,
}

impl Calls {
    async fn new() -> Self {
        Self::speaking(Protocol::Newest).await
    }

    /// The mount speaking `protocol` (the server speaks both).
    async fn speaking(protocol: Protocol) -> Self {
        let address = serve(ToolRegistry::new().with(AddNote)).await;
        let url = format!("http://{address}/mcp");
        let direct =
            ().serve(StreamableHttpClientTransport::from_uri(url.as_str()))
                .await
                .expect("connected");
        let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
        let mounted = Mount::http("notes", url.as_str())
            .protocol(protocol)
            .mount(&handle)
            .await
            .expect("mounted");
        let arguments = json!({"title": "Groceries", "body": "milk, eggs", "priority": 2});
        let Value::Object(object) = arguments.clone() else {
            unreachable!("an object")
        };
        Self {
            direct,
            handle,
            mounted,
            arguments,
            object,
        }
    }
}

const ROUNDS: usize = 15;
const CALLS: usize = 200;

/// The pause before each call of the rounds made as an agent makes its
/// calls: shorter than any model's turn, long enough for the runtime's
/// idle threads to sleep, as they do between an agent's calls.
const PAUSE: Duration = Duration::from_millis(1);

async fn calls() {
    let Calls {
        direct,
        handle,
        mounted: _mounted,
        arguments,
        object,
    } = Calls::new().await;
    let ctx = ToolContext::new(());
    let expected = "added note `Groceries` (priority 2): milk, eggs";
    // Each call timed alone, after `pause` when there is one.
    let time_direct = async |pause: Option<Duration>| {
        let mut timed = Duration::ZERO;
        for _ in 0..CALLS {
            if let Some(pause) = pause {
                tokio::time::sleep(pause).await;
            }
            let start = Instant::now();
            let params = CallToolRequestParams::new("add_note").with_arguments(object.clone());
            let result = direct.call_tool(params).await.expect("called");
            timed += start.elapsed();
            assert_eq!(
                result.content[0].as_text().map(|t| t.text.as_str()),
                Some(expected)
            );
        }
        timed
    };
    let time_mounted = async |pause: Option<Duration>| {
        let mut timed = Duration::ZERO;
        for _ in 0..CALLS {
            if let Some(pause) = pause {
                tokio::time::sleep(pause).await;
            }
            let start = Instant::now();
            let result = handle.call(&ctx, "add_note", arguments.clone()).await;
            timed += start.elapsed();
            assert_eq!(result.model_text(), expected);
        }
        timed
    };
    // One round to warm both up.
    time_direct(None).await;
    time_mounted(None).await;
    for (what, pause) in [
        ("as an agent calls, each after a pause", Some(PAUSE)),
        ("back to back", None),
    ] {
        let mut ratios = Vec::new();
        let (mut direct_total, mut mounted_total) = (Duration::ZERO, Duration::ZERO);
        for round in 0..ROUNDS {
            let (d, m) = if round % 2 == 0 {
                let d = time_direct(pause).await;
                (d, time_mounted(pause).await)
            } else {
                let m = time_mounted(pause).await;
                (time_direct(pause).await, m)
            };
            direct_total += d;
            mounted_total += m;
            ratios.push(m.as_secs_f64() / d.as_secs_f64());
        }
        let (mid, low, high) = median(ratios);
        let per_call = |total: Duration| total.as_secs_f64() * 1e6 / (ROUNDS * CALLS) as f64;
        println!(
            "call ({what}): mounted ÷ rmcp's client, median of {ROUNDS} rounds of {CALLS} calls: {mid:.3}x ({low:.3}–{high:.3}); {:.1} µs vs {:.1} µs a call",
            per_call(mounted_total),
            per_call(direct_total)
        );
    }
}

async fn mounting() {
    let mut registry = ToolRegistry::new();
    for at in 0..500 {
        registry
            .register(Numbered(format!("lookup_{at:03}")))
            .expect("a valid tool");
    }
    let address = serve(registry).await;
    let url = format!("http://{address}/mcp");
    let mut direct_times = Vec::new();
    let mut mount_times = Vec::new();
    let (mut direct_bytes, mut mount_bytes) = (0, 0);
    for _ in 0..5 {
        let region = Region::new(GLOBAL);
        let start = Instant::now();
        let client =
            ().serve(StreamableHttpClientTransport::from_uri(url.as_str()))
                .await
                .expect("connected");
        let listed = client.list_all_tools().await.expect("listed");
        direct_times.push(start.elapsed().as_secs_f64() * 1e3);
        direct_bytes = held(&region);
        assert_eq!(listed.len(), 500);
        drop(listed);
        drop(client);

        let region = Region::new(GLOBAL);
        let start = Instant::now();
        let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
        let mounted = Mount::http("records", url.as_str())
            .mount(&handle)
            .await
            .expect("mounted");
        mount_times.push(start.elapsed().as_secs_f64() * 1e3);
        mount_bytes = held(&region);
        assert_eq!(mounted.tools().len(), 500);
        mounted.unmount().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (direct, _, _) = median(direct_times);
    let (mount, _, _) = median(mount_times);
    println!(
        "mounting 500 tools: {mount:.1} ms ({:.2}x rmcp's client connecting and listing them, {direct:.1} ms); {} KiB held ({:.2}x its {} KiB)",
        mount / direct,
        mount_bytes / 1024,
        mount_bytes as f64 / direct_bytes as f64,
        direct_bytes / 1024
    );
}

/// `calls` calls of one kind only, for `valgrind --tool=callgrind`:
/// `direct`, `mounted` (the mount speaking the newest protocol the server
/// offers) or `mounted-2025` (speaking 2025-11-25, as rmcp's client does).
async fn only(kind: &str, calls: usize) {
    let protocol = match kind {
        "mounted-2025" => Protocol::V2025_11_25,
        _ => Protocol::Newest,
    };
    let Calls {
        direct,
        handle,
        mounted: _mounted,
        arguments,
        object,
    } = Calls::speaking(protocol).await;
    let ctx = ToolContext::new(());
    for _ in 0..calls {
        if kind == "direct" {
            let params = CallToolRequestParams::new("add_note").with_arguments(object.clone());
            direct.call_tool(params).await.expect("called");
        } else {
            handle.call(&ctx, "add_note", arguments.clone()).await;
        }
    }
}

fn main() {
    // `cargo test --benches` runs this with `--test`: nothing to measure then.
    if std::env::args().any(|arg| arg == "--test") {
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, kind, calls] = args.as_slice()
        && mode == "only"
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(only(kind, calls.parse().expect("a count")));
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        calls().await;
        mounting().await;
    });
}
