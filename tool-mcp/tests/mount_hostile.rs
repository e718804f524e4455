//! A hostile server's output, read by its mount in bounded memory and
//! time: stderr that is not UTF-8 or has no line's end, an answer too
//! large to read, and schemas too large or nested too deep (over stdio,
//! and over HTTP answered with plain JSON).

use std::time::Duration;

use serde_json::json;
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_mcp::McpServer;
use tool_mcp::mount::Mount;

/// The hostile test server, with its tools that try the mount's reading.
fn hostile_server() -> tokio::process::Command {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/hostile_server.py");
    let mut command = tokio::process::Command::new("python3");
    command.arg(script).arg("--io");
    command
}

async fn call(handle: &RegistryHandle, name: &str, args: serde_json::Value) -> ToolResult {
    handle.call(&ToolContext::new(()), name, args).await
}

#[tokio::test]
async fn a_hostile_servers_output_is_read_bounded_and_never_stops_it() {
    let handle = RegistryHandle::new(
        ToolRegistry::builder()
            .default_timeout(Duration::from_secs(20))
            .build(),
    );
    let mounted = Mount::stdio("hostile", hostile_server())
        .no_restart()
        .mount(&handle)
        .await
        .expect("mounted");
    // Schemas too large or too deep are left out, the other tools
    // mounted; even one too deep to read (serde_json's limit is 128).
    assert_eq!(
        mounted.tools(),
        ["good", "stderr_garbage", "stderr_flood", "huge_answer"]
    );
    let refused: Vec<(String, String)> = mounted
        .refused()
        .into_iter()
        .map(|refused| (refused.tool, refused.reason))
        .collect();
    assert_eq!(
        refused,
        [
            (
                "deeper_schema".to_owned(),
                "it is nested 1001 deep in the server's list, over the mount's limit of 64"
                    .to_owned()
            ),
            (
                "huge_schema".to_owned(),
                "its input schema is 1000034 bytes, over the mount's limit of 65536".to_owned()
            ),
            (
                "deep_schema".to_owned(),
                "its input schema is nested 80 deep, over the mount's limit of 64".to_owned()
            ),
        ]
    );
    // A line of stderr that is not UTF-8, then one of twenty megabytes
    // without an end: both read past, and the server, whose stderr is
    // still read, keeps answering.
    let garbage = call(&handle, "stderr_garbage", json!({})).await;
    assert_eq!(garbage.model_text(), "wrote");
    let flood = call(&handle, "stderr_flood", json!({})).await;
    assert_eq!(flood.model_text(), "flooded");
    assert_eq!(
        call(&handle, "good", json!({"text": "still here"}))
            .await
            .model_text(),
        "still here"
    );
    // An answer too large to read ends the call at once, saying so.
    let started = std::time::Instant::now();
    let huge = call(&handle, "huge_answer", json!({})).await;
    assert!(huge.is_error());
    assert_eq!(
        huge.model_text(),
        "the MCP server `hostile` answered `huge_answer` with a message over \
         16777216 bytes, too large to read"
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        call(&handle, "good", json!({"text": "and after"}))
            .await
            .model_text(),
        "and after"
    );
}

#[tokio::test]
async fn the_schema_bounds_are_the_mounts_settings() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("hostile", hostile_server())
        .no_restart()
        .max_schema_bytes(2_000_000)
        .max_schema_depth(2_000)
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        mounted.tools(),
        [
            "good",
            "stderr_garbage",
            "stderr_flood",
            "huge_answer",
            "huge_schema",
            "deep_schema"
        ]
    );
    // Past what a listing is read with, a schema is left out whatever the
    // bound.
    let refused: Vec<String> = mounted
        .refused()
        .into_iter()
        .map(|refused| format!("{}: {}", refused.tool, refused.reason))
        .collect();
    assert_eq!(
        refused,
        [
            "deeper_schema: it is nested 1001 deep in the server's list, deeper than a listing is read (117)"
        ]
    );
    drop(mounted);
    let mounted = Mount::stdio("hostile", hostile_server())
        .no_restart()
        .max_schema_bytes(1_000)
        .max_schema_depth(2)
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        mounted.tools(),
        ["stderr_garbage", "stderr_flood", "huge_answer"]
    );
    let refused: Vec<String> = mounted
        .refused()
        .into_iter()
        .map(|refused| format!("{}: {}", refused.tool, refused.reason))
        .collect();
    assert_eq!(
        refused,
        [
            "deeper_schema: it is nested 1001 deep in the server's list, over the mount's limit of 2",
            "good: its input schema is nested 3 deep, over the mount's limit of 2",
            "huge_schema: its input schema is 1000034 bytes, over the mount's limit of 1000",
            "deep_schema: its input schema is nested 80 deep, over the mount's limit of 2",
        ]
    );
}

/// Twenty megabytes of text.
#[tool(read_only)]
fn huge() -> String {
    "z".repeat(20 * 1000 * 1000)
}

/// A server of [`huge`] over HTTP, answering with plain JSON where it can
/// when `json` is set, mounted as `far`; the call of `huge` ends at once
/// in an error result that says why.
async fn too_large_over_http(json: bool) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("bound");
    let mut config = tool_mcp::http_config();
    if json {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    let server = McpServer::new(ToolRegistry::new().with(Huge), ToolContext::new(()));
    let serving = tokio::spawn(server.serve_http_with(listener, config));
    let handle = RegistryHandle::new(
        ToolRegistry::builder()
            .default_timeout(Duration::from_secs(20))
            .build(),
    );
    let mounted = Mount::http("far", format!("http://{address}/mcp"))
        .mount(&handle)
        .await
        .expect("mounted");
    let started = std::time::Instant::now();
    let answer = call(&handle, "huge", json!({})).await;
    assert!(answer.is_error());
    assert_eq!(
        answer.model_text(),
        "the MCP server `far` answered `huge` with a message over \
         16777216 bytes, too large to read"
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    drop(mounted);
    serving.abort();
}

#[tokio::test]
async fn an_answer_too_large_to_read_over_http_ends_the_call_at_once() {
    too_large_over_http(false).await;
}

#[tokio::test]
async fn an_answer_too_large_to_read_as_plain_json_ends_the_call_at_once() {
    too_large_over_http(true).await;
}

/// The hostile test server as a server of 2025, answering
/// `server/discover` as `discover` says.
fn begun_with(discover: &str) -> tokio::process::Command {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/hostile_server.py");
    let mut command = tokio::process::Command::new("python3");
    command
        .arg(script)
        .arg("--handshake")
        .arg(format!("--discover={discover}"));
    command
}

#[tokio::test]
async fn a_server_of_2025_is_initialized_as_2025_11_25_however_it_answers_discover() {
    // An error, as MCP's older versions answer a method they do not know:
    // initialized on the same connection.
    // Nothing at all: initialized once rmcp stops waiting (10 s).
    // Something else than a discover result: started again, initialized.
    for (discover, heard) in [
        ("error", "server/discover, then initialize 2025-11-25"),
        ("silent", "server/discover, then initialize 2025-11-25"),
        ("junk", "initialize 2025-11-25"),
    ] {
        let handle = RegistryHandle::new(ToolRegistry::new());
        let _mounted = Mount::stdio("old", begun_with(discover))
            .no_restart()
            .mount(&handle)
            .await
            .unwrap_or_else(|error| panic!("{discover}: {error}"));
        assert_eq!(
            call(&handle, "handshake", json!({})).await.model_text(),
            heard,
            "{discover}"
        );
    }
}

/// The hostile test server over HTTP, answering with plain JSON, and the
/// address of its endpoint.
async fn hostile_over_http() -> (tokio::process::Child, String) {
    use tokio::io::AsyncBufReadExt;
    let mut command = hostile_server();
    command
        .arg("--http")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().expect("the server started");
    let stdout = child.stdout.take().expect("its output");
    let mut port = String::new();
    tokio::io::BufReader::new(stdout)
        .read_line(&mut port)
        .await
        .expect("its port");
    let url = format!("http://127.0.0.1:{}/mcp", port.trim());
    (child, url)
}

#[tokio::test]
async fn a_tool_too_deep_to_read_in_plain_json_is_left_out_and_the_others_mounted() {
    let (server, url) = hostile_over_http().await;
    let handle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("hostile", url)
        .connect_timeout(Duration::from_secs(10))
        .no_restart()
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        mounted.tools(),
        ["good", "stderr_garbage", "stderr_flood", "huge_answer"]
    );
    let refused: Vec<String> = mounted
        .refused()
        .into_iter()
        .map(|refused| format!("{}: {}", refused.tool, refused.reason))
        .collect();
    assert_eq!(
        refused,
        [
            "deeper_schema: it is nested 1001 deep in the server's list, over the mount's limit of 64",
            "huge_schema: its input schema is 1000034 bytes, over the mount's limit of 65536",
            "deep_schema: its input schema is nested 80 deep, over the mount's limit of 64",
        ]
    );
    assert_eq!(
        call(&handle, "good", json!({"text": "over HTTP"}))
            .await
            .model_text(),
        "over HTTP"
    );
    drop(mounted);
    drop(server);
}
