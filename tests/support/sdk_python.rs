//! The interpreter of the Python SDKs' venv, for the tests that hold this
//! project to SDKs nobody here wrote.

use std::path::PathBuf;

/// The variable that names the interpreter: `scripts/test` installs
/// `tests/sdk/requirements.txt` into `target/sdk-venv` and sets it to
/// `target/sdk-venv/bin/python`.
pub(crate) const PYTHON: &str = "TOOL_SDK_PYTHON";

/// The interpreter. Without [`PYTHON`] (a plain `cargo test`) the test
/// fails, saying that `what` needs the SDKs and how to run it with them:
/// a test that cannot check what it is for does not pass.
pub(crate) fn sdk_python(test: &str, what: &str) -> PathBuf {
    match std::env::var_os(PYTHON) {
        Some(python) if !python.is_empty() => python.into(),
        _ => panic!(
            "{test}: {PYTHON} is not set, and {what} needs the Python SDKs: run the tests with \
             `scripts/test` (it installs tests/sdk/requirements.txt into target/sdk-venv and sets \
             {PYTHON}=target/sdk-venv/bin/python), or set {PYTHON} to a Python with them"
        ),
    }
}

/// Runs the script `tests/sdk/<script>` with `python` and `args`, and
/// reads the one JSON report it prints; a run that fails is the test's
/// failure, with what the script said.
#[allow(dead_code)] // not every test binary that includes this file uses it
pub(crate) fn run_report(
    python: &std::path::Path,
    script: &str,
    args: &[&std::ffi::OsStr],
) -> serde_json::Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk")
        .join(script);
    let output = std::process::Command::new(python)
        .arg(&script)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("{PYTHON}={}: cannot run: {error}", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the MCP client failed ({}):\n{}{stdout}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}
