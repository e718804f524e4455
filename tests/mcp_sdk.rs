//! The example MCP server (`examples/mcp_server.rs`) held to the official
//! MCP Python SDK as its client (`tests/sdk/mcp_client.py`), over stdio and
//! over streamable HTTP: what the SDK reads must be exactly what the
//! registry says.
//!
//! The SDK is the pinned `mcp` of `tests/sdk/requirements.txt`, which
//! `.ci/run` installs and names in `TOOL_SDK_PYTHON`; without that variable
//! (a plain `cargo test`) the tests say on stderr that they were skipped.
//! The server is the example's binary, which `cargo test` builds beside the
//! tests.

use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};
use tool_core::provider::Provider;

#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

/// The variable that names the SDK's interpreter.
const PYTHON: &str = "TOOL_SDK_PYTHON";

fn sdk_python(test: &str) -> Option<PathBuf> {
    match std::env::var_os(PYTHON) {
        Some(python) if !python.is_empty() => Some(python.into()),
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped: {PYTHON} is not set, so the MCP Python SDK is not run against \
                 the example server (.ci/run installs tests/sdk/requirements.txt into \
                 target/sdk-venv and sets {PYTHON}=target/sdk-venv/bin/python)"
            );
            None
        }
    }
}

/// The example's binary: `target/<profile>/examples/mcp_server`, beside
/// this test's `deps/`.
fn example_server() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/<profile>/deps");
    let server = profile
        .join("examples")
        .join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        server.exists(),
        "{} is missing: `cargo test` builds it, or `cargo build --example mcp_server`",
        server.display()
    );
    server
}

/// The example server over HTTP, stopped however the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What the SDK saw, as the script reports it.
fn run_client(python: &Path, transport: &str, target: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/mcp_client.py");
    let output = Command::new(python)
        .arg(&script)
        .arg(transport)
        .arg(target)
        .output()
        .unwrap_or_else(|error| panic!("{PYTHON}={}: cannot run: {error}", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the MCP client failed ({}):\n{stderr}{stdout}",
        output.status
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

/// What the SDK must see: the registry's MCP definitions and results.
async fn expected() -> Value {
    let registry = quickstart::registry();
    let ctx = quickstart::context();
    let definitions = Provider::Mcp
        .definitions(&registry)
        .expect("MCP takes the quickstart's tools");
    let tools: Vec<Value> = definitions
        .tools()
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| json!({"name": tool["name"], "inputSchema": tool["inputSchema"]}))
        .collect();
    let valid = registry
        .call(&ctx, "get_weather", json!({"city": "Paris"}))
        .await;
    json!({
        "server": {"name": "quickstart", "version": env!("CARGO_PKG_VERSION"), "tools_capability": true},
        "tools": tools,
        "next_cursor": null,
        "valid": {"isError": false, "text": [valid.model_text()]},
        "empty_arguments": {"isError": true, "text": [
            "invalid arguments for tool `web_search`: missing argument `query`. Correct the arguments and call the tool again."
        ]},
        "wrong_type": {"isError": true, "text": [
            "invalid arguments for tool `web_search`: argument `query` at `/query`: expected a string, got an integer `3`. Correct the arguments and call the tool again."
        ]},
        "unknown_tool": {
            "code": -32602,
            "message": "unknown tool `no_such_tool`. Available tools: `get_weather`, `web_search`, `convert_currency`."
        },
    })
}

#[tokio::test]
async fn the_python_sdk_over_stdio_reads_what_the_registry_says() {
    let Some(python) = sdk_python("the_python_sdk_over_stdio_reads_what_the_registry_says") else {
        return;
    };
    let server = example_server();
    let report = run_client(&python, "stdio", &server.to_string_lossy());
    assert_eq!(report, expected().await);
}

#[tokio::test]
async fn the_python_sdk_over_http_reads_what_the_registry_says() {
    let Some(python) = sdk_python("the_python_sdk_over_http_reads_what_the_registry_says") else {
        return;
    };
    let mut server = Running(
        Command::new(example_server())
            .args(["--http", "127.0.0.1:0"])
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example server starts"),
    );
    let mut line = String::new();
    let stderr = server.0.stderr.take().expect("piped");
    BufReader::new(stderr)
        .read_line(&mut line)
        .expect("the server says where it listens");
    let url = line
        .trim()
        .strip_prefix("serving MCP at ")
        .unwrap_or_else(|| panic!("not the address: {line}"))
        .to_owned();
    let report = run_client(&python, "http", &url);
    drop(server);
    assert_eq!(report, expected().await);
}
