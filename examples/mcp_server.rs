//! The quickstart's tools served over MCP, with tools that show what else
//! MCP carries (`mcp_server/tools.rs`): structured content, an image,
//! progress, a call the client cancels, and a `long_running` call that a
//! client taking tasks gets as a task. Over stdio by default, as an editor
//! or desktop assistant starts a local server, or over streamable HTTP at
//! `http://ADDRESS/mcp` with `--http ADDRESS`. With `--stateless` as well,
//! no HTTP session is kept: any number of these processes can serve the
//! same clients behind a load balancer. With `MCP_TOKEN` set, an HTTP
//! caller must send that bearer token, which also grants the scope
//! `reset_sales` needs; a caller without it is not shown that tool.
//!
//! ```text
//! cargo run --example mcp_server
//! cargo run --example mcp_server -- --http 127.0.0.1:8080
//! cargo run --example mcp_server -- --http 127.0.0.1:8081 --stateless
//! ```

use std::process::ExitCode;

use tokio::net::TcpListener;
use tool_mcp::{BearerTokens, MCP_PATH, McpConfig, McpServer, http_config};

#[path = "quickstart.rs"]
#[allow(dead_code)]
mod quickstart;
#[path = "mcp_server/tools.rs"]
mod tools;

const USAGE: &str =
    "usage: mcp_server [--http ADDRESS [--stateless]]   (ADDRESS such as 127.0.0.1:8080)";

#[tokio::main]
async fn main() -> ExitCode {
    let mut config = McpConfig::new().with_server_info("quickstart", env!("CARGO_PKG_VERSION"));
    // Over HTTP, a caller must then send `Authorization: Bearer <token>`,
    // which grants the scope `reset_sales` needs.
    if let Ok(token) = std::env::var("MCP_TOKEN") {
        config = config.with_bearer_auth(BearerTokens::new().with_token(token, ["sales:admin"]));
    }
    let server = McpServer::new(tools::registry(), quickstart::context()).with_config(config);
    let args: Vec<String> = std::env::args().skip(1).collect();
    // stdout carries the protocol over stdio: everything else goes to
    // stderr.
    let served = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => server
            .serve_stdio()
            .await
            .map(drop)
            .map_err(|error| chain(&error)),
        ["--http", address] | ["--http", address, "--stateless"] => {
            match TcpListener::bind(address).await {
                Ok(listener) => {
                    let bound = listener
                        .local_addr()
                        .map_or(address.to_owned(), |a| a.to_string());
                    eprintln!("serving MCP at http://{bound}{MCP_PATH}");
                    let stateless = args.last().is_some_and(|arg| arg == "--stateless");
                    let config = http_config().with_legacy_session_mode(!stateless);
                    server
                        .serve_http_with(listener, config)
                        .await
                        .map_err(|error| chain(&error))
                }
                Err(error) => Err(format!("cannot listen on {address}: {error}")),
            }
        }
        _ => Err(USAGE.to_owned()),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}

/// The error and each of its causes: `the MCP session did not start:
/// connection closed: initialize request`.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        text.push_str(": ");
        text.push_str(&error.to_string());
        cause = error.source();
    }
    text
}
