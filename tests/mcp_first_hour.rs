//! What a newcomer's first MCP server must do for the clients people use:
//! the official TypeScript SDK (`tests/sdk/node/first_hour.mjs`) and Python
//! SDK (`tests/sdk/first_hour_client.py`) against the example server, over
//! stdio and over HTTP with a bearer token, and the MCP Inspector's schema
//! portability check (`--strict`) on its tool list.
//!
//! - Optional parameters are their plain type, not `[T, "null"]`, and a
//!   value given, one left out, and `null` are all answered.
//! - A `Confirm` tool's call is put to the person at a client that can be
//!   asked (accepting runs it, declining denies it), and a client that
//!   cannot be asked gets the registry's approval hook.
//! - A caller is listed only the tools it may call: `reset_sales` needs a
//!   scope only the token grants; without a token, HTTP says what to send.
//! - Over stdio, the server stops when its client closes stdin, as
//!   clients close it to end a session (and wait before killing it).
//!
//! The packages are `scripts/test`'s: without them these tests fail saying
//! how to run them.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tool_core::ToolContext;
use tool_core::context::ContextBuilder;
use tool_core::provider::Provider;
use tool_core::toolset::Select;

#[path = "support/example_server.rs"]
mod example_server;
#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;
#[path = "support/sdk_node.rs"]
mod sdk_node;
#[path = "support/sdk_python.rs"]
mod sdk_python;
#[path = "../examples/mcp_server/tools.rs"]
mod tools;

use example_server::{Running, example_server};

/// The token the HTTP server is started with.
const TOKEN: &str = "first-hour-token";

/// The example server over HTTP, wanting [`TOKEN`].
fn serve_http() -> (Running, String) {
    example_server::serve_http_with_env(&[], &[("MCP_TOKEN", TOKEN)])
}

/// `NAME<TAB>JSON` lines as a map.
fn cases(stdout: &str) -> serde_json::Map<String, Value> {
    stdout
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(name, seen)| {
            let seen = serde_json::from_str(seen).unwrap_or_else(|e| panic!("{name}: {e}: {seen}"));
            (name.to_owned(), seen)
        })
        .collect()
}

fn text(texts: &[&str], is_error: bool) -> Value {
    json!({"texts": texts, "isError": is_error})
}

/// What each case must see over `transport`.
fn expected(transport: &str) -> serde_json::Map<String, Value> {
    let registry = tools::registry();
    let definitions = Provider::Mcp
        .definitions(&registry)
        .expect("MCP takes every tool");
    let weather = definitions
        .as_json()
        .as_array()
        .expect("a list")
        .iter()
        .find(|tool| tool["name"] == "get_weather")
        .expect("listed")
        .clone();
    let weather_text = |city: &str, temperature: f64| {
        json!({"city": city, "temperature": temperature, "summary": "sunny with a light breeze"})
            .to_string()
    };
    let question = "Allow the tool `convert_currency` to run with these arguments?\n{\n  \"amount\": 5000,\n  \"from\": \"EUR\",\n  \"to\": \"USD\"\n}";
    let names = |ctx: &ToolContext<quickstart::App>| -> Vec<String> {
        registry
            .view(Select::all().caller(ctx))
            .tool_definitions()
            .map(|tool| tool.name.clone())
            .collect()
    };
    let mut expected = serde_json::Map::new();
    expected.insert(
        "optional_parameters".into(),
        json!({
            "properties": weather["inputSchema"]["properties"],
            "required": [],
            "given": text(&[&weather_text("Oslo", 70.7)], false),
            "left_out": text(&[&weather_text("Lyon", 21.5)], false),
            "null_sent": text(&[&weather_text("Lyon", 21.5)], false),
        }),
    );
    expected.insert(
        "asked_and_accepted".into(),
        json!({"result": text(&["5000 EUR = 5400.00 USD"], false), "asked": [question]}),
    );
    expected.insert(
        "asked_and_declined".into(),
        json!({
            "result": text(&["the call to tool `convert_currency` was denied: the person at the client declined it"], true),
            "asked": [question],
        }),
    );
    expected.insert(
        "not_asked".into(),
        json!({
            "small": text(&["100 EUR = 108.00 USD"], false),
            "large": text(&["the call to tool `convert_currency` was denied: amounts over 1000 need a person to approve them"], true),
        }),
    );
    let reset = |called: Value, ctx: &ToolContext<quickstart::App>| json!({"listed": names(ctx), "called": called});
    let refused = text(
        &[
            "tool `reset_sales` requires the scope `sales:admin`, which this caller does not have; do not call it again",
        ],
        true,
    );
    let reset_done = text(&["the sales were reset"], false);
    if transport == "stdio" {
        expected.insert(
            "listed_without_the_scope".into(),
            reset(refused, &quickstart::context()),
        );
        expected.insert("listed_with_the_scope".into(), json!("no token over stdio"));
    } else {
        let admin = ContextBuilder::from(quickstart::context())
            .scopes(["sales:admin"])
            .build();
        expected.insert("listed_with_the_scope".into(), reset(reset_done, &admin));
    }
    expected
}

/// Each case's result beside what it must be, naming the case.
fn compare(client: &str, transport: &str, seen: serde_json::Map<String, Value>) {
    let expected = expected(transport);
    let mut wrong = Vec::new();
    for (name, want) in &expected {
        match seen.get(name) {
            Some(got) if got == want => {}
            got => wrong.push(format!(
                "{client} over {transport}: case `{name}`\n  saw:      {}\n  expected: {want}",
                got.map_or("nothing".to_owned(), Value::to_string)
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The static token's refusal, in the words each SDK gives it.
fn refused_without_token(client: &str, seen: &Value) {
    let message = "Unauthorized: this server takes a static bearer token, not OAuth: send Authorization: Bearer <token>";
    let refusal = seen["refused"].as_str().unwrap_or_default();
    assert!(
        refusal.contains(message),
        "{client}: the refusal without a token does not say what to send: {seen}"
    );
}

fn python() -> std::path::PathBuf {
    sdk_python::sdk_python(
        "the_python_sdk",
        "running the MCP Python SDK against the example server",
    )
}

fn run_python(args: &[&str]) -> serde_json::Map<String, Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/first_hour_client.py");
    let output = Command::new(python())
        .arg(&script)
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "first_hour_client.py failed ({}):\n{}{stdout}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    cases(&stdout)
}

fn run_node(args: &[&str]) -> serde_json::Map<String, Value> {
    let modules = sdk_node::sdk_node_modules(
        "the_typescript_sdk",
        "running the MCP TypeScript SDK against the example server",
    );
    cases(&sdk_node::run_node(&modules, "first_hour.mjs", args))
}

#[test]
fn the_typescript_sdk_over_stdio_meets_a_first_server() {
    let server = example_server();
    let server = server.to_str().expect("a UTF-8 path");
    compare("TypeScript SDK", "stdio", run_node(&["stdio", server]));
}

#[test]
fn the_typescript_sdk_over_http_meets_a_first_server() {
    let (_running, url) = serve_http();
    let mut seen = run_node(&["http", &url, TOKEN]);
    let refusal = seen.remove("listed_without_the_scope").unwrap_or_default();
    refused_without_token("TypeScript SDK", &refusal);
    compare("TypeScript SDK", "http", seen);
}

#[test]
fn the_python_sdk_over_stdio_meets_a_first_server() {
    let server = example_server();
    let server = server.to_str().expect("a UTF-8 path");
    compare("Python SDK", "stdio", run_python(&["stdio", server]));
}

#[test]
fn the_python_sdk_over_http_meets_a_first_server() {
    let (_running, url) = serve_http();
    let mut seen = run_python(&["http", &url, TOKEN]);
    let refusal = seen.remove("listed_without_the_scope").unwrap_or_default();
    refused_without_token("Python SDK", &refusal);
    compare("Python SDK", "http", seen);
}

/// The Inspector's command line, `--strict`: every finding of its schema
/// portability check is an error, and it says each on stderr.
#[test]
fn the_inspectors_portability_check_finds_nothing_in_the_tool_list() {
    let modules = sdk_node::sdk_node_modules(
        "the_inspectors_portability_check",
        "the MCP Inspector's schema portability check",
    );
    let inspector = modules.join("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    let (_running, url) = serve_http();
    let output = Command::new("node")
        .arg(&inspector)
        .args([
            "--cli",
            &url,
            "--transport",
            "http",
            "--method",
            "tools/list",
            "--strict",
        ])
        .args(["--header", &format!("Authorization: Bearer {TOKEN}")])
        .output()
        .expect("node runs the Inspector");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stderr.trim().is_empty(),
        "the Inspector's --strict check of tools/list ({}):\n{stderr}",
        output.status
    );
    let listed: Value = serde_json::from_slice(&output.stdout).expect("the tool list as JSON");
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    // Every tool, output schemas and optional parameters included.
    assert!(
        names.contains(&"sales_summary") && names.contains(&"get_weather"),
        "{names:?}"
    );
    assert_eq!(names.len(), tools::registry().tools().len(), "{names:?}");
}

/// A client ends a stdio session by closing the server's stdin, then waits
/// for it to exit (the TypeScript SDK waits 2 s before killing it): the
/// server stops at once, with success.
#[test]
fn over_stdio_the_server_stops_when_its_client_closes_stdin() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "first-hour", "version": "1.0.0"},
    }});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    // A client of 2026-07-28 opens no session: its requests name their
    // version, and it closes its end when done.
    let stateless = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    for (client, lines) in [
        ("2025-11-25", format!("{initialize}\n{initialized}")),
        ("2026-07-28", stateless.to_string()),
    ] {
        let mut server = Command::new(example_server())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example server starts");
        let mut stdin = server.stdin.take().expect("piped");
        writeln!(stdin, "{lines}").expect("the server reads its stdin");
        drop(stdin);
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            match server.try_wait().expect("the server's status") {
                Some(status) => break Some(status),
                None if Instant::now() > deadline => break None,
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let _ = server.kill();
        let output = server.wait_with_output().expect("its output");
        let status = status.unwrap_or_else(|| {
            panic!("{client}: the server stops within 10 s of its stdin closing")
        });
        assert!(
            status.success(),
            "{client}: the server stopped with {status}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
