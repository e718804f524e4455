//! The example MCP server's binary (`examples/mcp_server.rs`), run by the
//! tests that reach it as a client would.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The binary: `target/<profile>/examples/mcp_server`, beside the test's
/// `deps/`, which `cargo test` builds.
pub(crate) fn example_server() -> PathBuf {
    example_binary("mcp_server")
}

/// The binary of the example `name`: `target/<profile>/examples/<name>`,
/// which `cargo test` builds.
#[allow(dead_code)] // not every test binary that includes this file uses it
pub(crate) fn example_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/<profile>/deps");
    let server = profile
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        server.exists(),
        "{} is missing: `cargo test` builds it, or `cargo build --example {name}`",
        server.display()
    );
    server
}

/// A server process, killed however the test ends.
pub(crate) struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the server over HTTP on a loopback port the system picks, with
/// `flags` after `--http ADDRESS`, and gives it with its URL.
#[allow(dead_code)] // not every test binary that includes this file uses it
pub(crate) fn serve_http(flags: &[&str]) -> (Running, String) {
    serve_http_with_env(flags, &[])
}

/// [`serve_http`] with the variables `env` set for the server.
pub(crate) fn serve_http_with_env(flags: &[&str], env: &[(&str, &str)]) -> (Running, String) {
    let mut running = Running(
        Command::new(example_server())
            .args(["--http", "127.0.0.1:0"])
            .args(flags)
            .envs(env.iter().copied())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example server starts"),
    );
    let mut line = String::new();
    let stderr = running.0.stderr.take().expect("piped");
    BufReader::new(stderr)
        .read_line(&mut line)
        .expect("the server says where it listens");
    let url = line
        .trim()
        .strip_prefix("serving MCP at ")
        .unwrap_or_else(|| panic!("not the address: {line}"))
        .to_owned();
    (running, url)
}
