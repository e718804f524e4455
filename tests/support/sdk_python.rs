//! The interpreter of the Python SDKs' venv, for the tests that hold this
//! project to SDKs nobody here wrote.

use std::io::Write as _;
use std::path::PathBuf;

/// The variable that names the interpreter: `.ci/run` installs
/// `tests/sdk/requirements.txt` into `target/sdk-venv` and sets it to
/// `target/sdk-venv/bin/python`.
pub(crate) const PYTHON: &str = "TOOL_SDK_PYTHON";

/// The interpreter; `None`, said on stderr (which the test harness does not
/// capture) with `what` would have been checked, when [`PYTHON`] is not
/// set, as in a plain `cargo test`.
pub(crate) fn sdk_python(test: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(PYTHON) {
        Some(python) if !python.is_empty() => Some(python.into()),
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped: {PYTHON} is not set, so {what} (.ci/run installs \
                 tests/sdk/requirements.txt into target/sdk-venv and sets \
                 {PYTHON}=target/sdk-venv/bin/python)"
            );
            None
        }
    }
}
