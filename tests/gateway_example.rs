//! The gateway example (`examples/gateway.rs`) run as `cargo run --example
//! gateway` runs it: the quickstart's tools and four of MCP's reference
//! server `everything`, mounted over stdio and prefixed, served over MCP
//! on loopback; the agent's loop through a mount of that endpoint. And
//! its binary run as `cargo run --example gateway -- --serve ADDRESS`
//! runs it: serving until Ctrl-C, to MCP's TypeScript SDK as its client.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "../examples/gateway.rs"]
#[allow(dead_code)]
mod gateway;

#[path = "support/sdk_node.rs"]
#[allow(dead_code)]
mod sdk_node;

use sdk_node::{run_node, sdk_node_modules};

/// What the gateway serves: the quickstart's tools and the reference
/// server's, prefixed.
const TOOLS: [&str; 7] = [
    "get_weather",
    "web_search",
    "convert_currency",
    "everything_echo",
    "everything_get-sum",
    "everything_get-tiny-image",
    "everything_trigger-long-running-operation",
];

#[tokio::test]
async fn the_gateway_serves_its_own_and_a_mounted_servers_tools_to_the_agents_loop() {
    // The reference server comes from the installed packages.
    sdk_node_modules(
        "the gateway example",
        "mounting the reference server `everything`",
    );
    let report = gateway::run()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(report.served, TOOLS);
    assert_eq!(report.seen, TOOLS, "the agent sees what the gateway serves");
    assert_eq!(report.sum, "The sum of 2 and 3 is 5.");
    let steps: Vec<(&str, &str, bool)> = report
        .transcript
        .steps
        .iter()
        .map(|step| (step.name.as_str(), step.result.as_str(), step.is_error))
        .collect();
    assert_eq!(
        steps,
        [
            (
                "get_weather",
                r#"{"city":"Paris","temperature":21.5,"summary":"sunny with a light breeze"}"#,
                false
            ),
            ("convert_currency", "100 EUR = 108.00 USD", false),
            (
                "convert_currency",
                "the call to tool `convert_currency` was denied: the person at the client declined it",
                true
            ),
        ]
    );
    assert_eq!(
        report.transcript.answer,
        "In Paris it is 21.5 °C, sunny with a light breeze. \
         100 EUR is 108.00 USD; converting 5000 EUR needs a person to approve it first."
    );
}

/// The example's binary: `target/<profile>/examples/gateway`, beside the
/// test's `deps/`, which `cargo test` builds.
fn gateway_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/<profile>/deps");
    let binary = profile
        .join("examples")
        .join(format!("gateway{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: `cargo test` builds it, or `cargo build --example gateway`",
        binary.display()
    );
    binary
}

/// The gateway's process, killed however the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The processes whose parent is `parent`, from `/proc`.
fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            // `pid (name) state ppid ...`: the name may hold spaces.
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(parent)
            })
        })
        .collect()
}

#[test]
fn the_gateway_serves_an_mcp_client_on_an_address_until_ctrl_c() {
    let modules = sdk_node_modules(
        "the gateway example served",
        "mounting the reference server `everything` and MCP's TypeScript SDK as the client",
    );
    let mut running = Running(
        Command::new(gateway_binary())
            .args(["--serve", "127.0.0.1:0"])
            .env("TOOL_SDK_NODE_MODULES", &modules)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the gateway starts"),
    );
    let pid = running.0.id();
    let mut stderr = BufReader::new(running.0.stderr.take().expect("piped"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("the gateway says where");
    let url = line
        .trim()
        .strip_prefix("gateway serving MCP at ")
        .unwrap_or_else(|| panic!("not where it serves: {line}"))
        .to_owned();
    let mut said = String::new();
    for _ in 0..2 {
        stderr
            .read_line(&mut said)
            .expect("its tools, and how to stop it");
    }
    assert_eq!(
        said,
        format!("tools: {}\nCtrl-C stops it\n", TOOLS.join(", "))
    );
    let everything = children(pid);
    assert!(!everything.is_empty(), "the reference server runs under it");

    // A client of another SDK, over HTTP: the tools, a call, and each
    // report of a call's progress, through the gateway's mount.
    let seen: Value = serde_json::from_str(&run_node(&modules, "gateway_client.mjs", &[&url]))
        .expect("the client's JSON");
    assert_eq!(seen["tools"], json!(TOOLS));
    assert_eq!(seen["sum"], "The sum of 2 and 3 is 5.");
    let round = json!({
        "heard": [[1, 2], [2, 2]],
        "text": "Long running operation completed. Duration: 0.1 seconds, Steps: 2."
    });
    assert_eq!(seen["progress"], json!([round, round, round, round, round]));

    // Ctrl-C: it stops serving, ends the reference server, and exits.
    let interrupted = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = running.0.try_wait().expect("waited for") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the gateway still runs after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).expect("what it said last");
    assert!(status.success(), "{status}: {rest}");
    assert_eq!(rest, "gateway stopped\n");
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    assert!(
        std::net::TcpStream::connect(&address).is_err(),
        "nothing listens at {address} any more"
    );
    let left: Vec<u32> = everything
        .into_iter()
        .filter(|pid| Path::new(&format!("/proc/{pid}")).exists())
        .collect();
    assert!(left.is_empty(), "the reference server still runs: {left:?}");
}
