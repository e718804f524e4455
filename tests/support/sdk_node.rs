//! The packages of `tests/sdk/node` (MCP's TypeScript SDK, the MCP
//! Inspector), for the tests that run them against the example server.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable that names their `node_modules`: `scripts/test` installs
/// `tests/sdk/node` into `target/sdk-node` and sets it to
/// `target/sdk-node/node_modules`.
pub(crate) const NODE_MODULES: &str = "TOOL_SDK_NODE_MODULES";

/// The `node_modules`. Without [`NODE_MODULES`] (a plain `cargo test`)
/// the test fails, saying that `what` needs the packages and how to run it
/// with them.
pub(crate) fn sdk_node_modules(test: &str, what: &str) -> PathBuf {
    match std::env::var_os(NODE_MODULES) {
        Some(modules) if !modules.is_empty() => modules.into(),
        _ => panic!(
            "{test}: {NODE_MODULES} is not set, and {what} needs the packages of tests/sdk/node: \
             run the tests with `scripts/test` (it installs them into target/sdk-node and sets \
             {NODE_MODULES}=target/sdk-node/node_modules)"
        ),
    }
}

/// Runs `script` (a file of `tests/sdk/node`) with Node and `args`, the
/// packages at `modules`, and gives its stdout; a run that fails is the
/// test's failure, with what the script said.
pub(crate) fn run_node(modules: &Path, script: &str, args: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk/node")
        .join(script);
    let output = Command::new("node")
        .arg(&path)
        .args(args)
        .env(NODE_MODULES, modules)
        .output()
        .unwrap_or_else(|error| panic!("cannot run node (Node 20 or newer is needed): {error}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "node {script} failed ({}):\n{stderr}{stdout}",
        output.status
    );
    stdout
}
