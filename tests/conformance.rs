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
//! named to this test in `TOOL_CONFORMANCE`. Its client scenarios run in
//! `tests/conformance_client.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use conformance_suite::{Outcome, assert_passed, keep_summary, ran, run_suite};
use tokio::net::TcpListener;
use tool_mcp::MCP_PATH;

#[path = "support/conformance_suite.rs"]
mod conformance_suite;

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

/// Serves the example on a loopback port, runs `release` of the suite
/// with `args` against it, and gives each scenario's outcome.
async fn run(name: &str, release: &str, args: &[&str]) -> BTreeMap<String, Outcome> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let url = format!("http://{}{MCP_PATH}", listener.local_addr().expect("bound"));
    let serving = tokio::spawn(server::server().serve_http(listener));
    let output_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conformance-{name}"));
    let command_args: Vec<String> = ["server", "--url", &url]
        .into_iter()
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect();
    let release_name = release.to_owned();
    let dir = output_dir.clone();
    let output = tokio::task::spawn_blocking(move || run_suite(&release_name, &command_args, &dir))
        .await
        .expect("the suite ran");
    serving.abort();
    keep_summary(name, release, args, &output);
    ran(&output, &output_dir, "server-")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2025_06_18_suite_passes() {
    let outcomes = run(
        "2025-06-18",
        "conformance-2025",
        &["--suite", "all", "--spec-version", "2025-06-18"],
    )
    .await;
    assert_passed("0.1.16 at 2025-06-18", &outcomes);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2025_11_25_suite_passes() {
    let outcomes = run(
        "2025-11-25",
        "conformance-2025",
        &["--suite", "all", "--spec-version", "2025-11-25"],
    )
    .await;
    assert_passed("0.1.16 at 2025-11-25", &outcomes);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_2026_07_28_requirements_pass() {
    let outcomes = run(
        "2026-07-28",
        "conformance-2026",
        &["--requirements", "2026-07-28"],
    )
    .await;
    assert_passed("0.2.0-alpha.12 at 2026-07-28", &outcomes);
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
        assert_passed(&format!("0.2.0-alpha.12, {scenario}"), &outcomes);
    }
}
