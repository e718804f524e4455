//! The server MCP's conformance suite (npm `@modelcontextprotocol/conformance`)
//! is run against, written with tool-core's and tool-mcp's public API only,
//! as a user would write it: the tools, resources and prompts the suite's
//! scenarios name, each doing what the scenario checks. `tests/conformance.rs`
//! serves it and runs the suite; to run the suite by hand:
//!
//! ```text
//! cargo run --example conformance -- 127.0.0.1:8001
//! node target/conformance/node_modules/conformance-2025/dist/index.js server --url http://127.0.0.1:8001/mcp
//! ```

use std::process::ExitCode;

use tokio::net::TcpListener;
use tool_mcp::MCP_PATH;

#[path = "tools.rs"]
mod tools;

#[path = "asking.rs"]
mod asking;

#[path = "tasks.rs"]
mod tasks;

#[path = "resources.rs"]
mod resources;

#[path = "prompts.rs"]
mod prompts;

#[path = "server.rs"]
mod server;

#[tokio::main]
async fn main() -> ExitCode {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8001".to_owned());
    let listener = match TcpListener::bind(&address).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("cannot listen on {address}: {error}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!("serving MCP's conformance fixtures at http://{address}{MCP_PATH}");
    match server::server().serve_http(listener).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}
