//! MCP's conformance suite (npm `@modelcontextprotocol/conformance`) run
//! against a client: the conformance client example
//! (`examples/conformance_client/`), which mounts each scenario's server
//! into a registry with tool-mcp's `Mount` and calls its tools through the
//! registry, written with the public API only. Every client scenario of
//! each protocol version runs: release 0.1.16 at 2025-06-18 and
//! 2025-11-25, release 0.2.0-alpha.12 at 2026-07-28, authorization
//! included. Every scenario must pass, without a warning. Each run's
//! summary is written beside the server runs'
//! (`target/tmp/conformance-summaries/`), which `scripts/test` prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use conformance_suite::{Outcome, assert_passed, keep_summary, ran, run_suite};

#[path = "support/conformance_suite.rs"]
mod conformance_suite;

/// The example's binary: `target/<profile>/examples/conformance_client`,
/// beside the test's `deps/`, which `cargo test` builds.
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

/// Runs `release` of the suite's client scenarios at `version` against
/// the example, and gives each scenario's outcome; `scenarios`: how many
/// the pinned release holds at that version, each of which must run.
async fn run(release: &str, version: &str, scenarios: usize) -> BTreeMap<String, Outcome> {
    let name = format!("client-{version}");
    let output_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conformance-{name}"));
    let client = client_binary().display().to_string();
    let args = ["--suite", "all", "--spec-version", version];
    let command_args: Vec<String> = ["client", "--command", &client]
        .into_iter()
        .chain(args)
        .map(str::to_owned)
        .collect();
    let (release_name, dir) = (release.to_owned(), output_dir.clone());
    let output = tokio::task::spawn_blocking(move || run_suite(&release_name, &command_args, &dir))
        .await
        .expect("the suite ran");
    keep_summary(&name, release, &args, &output);
    let outcomes = ran(&output, &output_dir, "");
    assert_eq!(
        outcomes.len(),
        scenarios,
        "{release} at {version} ran these scenarios: {:?}",
        outcomes.keys().collect::<Vec<_>>()
    );
    outcomes
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2025_06_18_client_scenarios_pass() {
    let outcomes = run("conformance-2025", "2025-06-18", 5).await;
    assert_passed("0.1.16's client scenarios at 2025-06-18", &outcomes);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2025_11_25_client_scenarios_pass() {
    let outcomes = run("conformance-2025", "2025-11-25", 18).await;
    assert_passed("0.1.16's client scenarios at 2025-11-25", &outcomes);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2026_07_28_client_scenarios_pass() {
    let outcomes = run("conformance-2026", "2026-07-28", 33).await;
    assert_passed("0.2.0-alpha.12's client scenarios at 2026-07-28", &outcomes);
}
