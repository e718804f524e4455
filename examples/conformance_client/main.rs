//! The client MCP's conformance suite (npm `@modelcontextprotocol/conformance`)
//! runs in its client scenarios, written with tool-core's and tool-mcp's
//! public API only: it mounts the suite's server in a registry, lists its
//! tools and calls one, as each scenario asks. The suite runs it as
//! `conformance_client <server-url>`, the scenario named in
//! `MCP_CONFORMANCE_SCENARIO`; `tests/conformance_client_auth.rs` runs the
//! suite against it. By hand:
//!
//! ```text
//! cargo build --example conformance_client
//! node target/conformance/node_modules/conformance-2025/dist/index.js client \
//!     --command target/debug/examples/conformance_client --suite auth
//! ```

use std::process::ExitCode;

#[path = "auth.rs"]
mod auth;

#[tokio::main]
async fn main() -> ExitCode {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: conformance_client <server-url>");
        return ExitCode::FAILURE;
    };
    let outcome = if scenario.starts_with("auth/") {
        auth::run(&scenario, &url).await
    } else {
        Err(format!("no such scenario: `{scenario}`"))
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}
