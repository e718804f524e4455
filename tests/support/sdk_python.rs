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
