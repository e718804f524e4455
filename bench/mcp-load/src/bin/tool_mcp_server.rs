//! This framework's server: `add_note` and 99 fillers as `#[tool]`
//! functions in one `ToolRegistry`, served by `tool_mcp::McpServer` over
//! streamable HTTP at `http://127.0.0.1:PORT/mcp` with
//! `McpServer::serve_http` (that is, `tool_mcp::http_config()`), with two
//! resources and two prompts beside them (`src/served.rs`).
//!
//! As a replica (`mcp-load --replicas`): `--stateless` serves without HTTP
//! sessions (`http_config().with_legacy_session_mode(false)`), so that any
//! request may go to any replica, and adds `add_note_later`, the same note
//! as a `long_running` tool, whose every call goes through the registry's
//! store; `--redis URL` gives the registry and the server one
//! `tool_redis::RedisStore` (keys under `--prefix`, `tools:` unless set),
//! shared with the other replicas. Without `--redis`, both keep their calls
//! and tasks in this process's memory.
//!
//! Usage: `tool-mcp-server --port PORT [--stateless] [--redis URL [--prefix P]]`.

use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{McpConfig, McpServer};
use tool_redis::RedisStore;

include!("../fillers.rs");
include!("../served.rs");

const USAGE: &str = "usage: tool-mcp-server --port PORT [--stateless] [--redis URL [--prefix P]]";

/// The command line.
struct Args {
    port: u16,
    stateless: bool,
    redis: Option<String>,
    prefix: Option<String>,
}

fn args() -> Args {
    let mut parsed = Args {
        port: 0,
        stateless: false,
        redis: None,
        prefix: None,
    };
    let mut port = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--stateless" {
            parsed.stateless = true;
            continue;
        }
        let value = args.next().unwrap_or_else(|| panic!("{USAGE}"));
        match flag.as_str() {
            "--port" => port = value.parse().ok(),
            "--redis" => parsed.redis = Some(value),
            "--prefix" => parsed.prefix = Some(value),
            _ => panic!("{USAGE}"),
        }
    }
    parsed.port = port.unwrap_or_else(|| panic!("{USAGE}"));
    assert!(
        parsed.prefix.is_none() || parsed.redis.is_some(),
        "--prefix needs --redis: {USAGE}"
    );
    assert!(
        parsed.redis.is_none() || parsed.stateless,
        "--redis needs --stateless: {USAGE}"
    );
    parsed
}

/// Add a note to the user's notebook.
#[tool(tier = Observe, concurrency_safe)]
fn add_note(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

/// Add a note to the user's notebook, later: the call is answered once
/// the note is added (the same text as `add_note`), through the
/// registry's pending calls (claimed, finished and waited for in its
/// store).
#[tool(tier = Observe, long_running, concurrency_safe)]
fn add_note_later(
    /// The note's title.
    title: String,
    /// The note's text.
    body: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("added note `{title}` (priority {priority}): {body}")
}

macro_rules! tools {
    ($($name:ident $unit:ident),* $(,)?) => {
        $(
            /// Add a note to another notebook.
            #[tool(tier = Observe, concurrency_safe)]
            fn $name(
                /// The note's title.
                title: String,
                /// The note's text.
                body: String,
                /// 1 (highest) to 5.
                priority: u8,
            ) -> String {
                format!("{}: `{title}` (priority {priority}): {body}", stringify!($name))
            }
        )*

        /// Every tool, in one registry.
        fn registry() -> ToolRegistry {
            ToolRegistry::new().with(AddNote)$(.with($unit))*
        }
    };
}

fillers!(tools);

// The same runtime as the rmcp server: Tokio's multi-threaded default, one
// worker per core.
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = args();
    let mut registry = registry();
    assert_eq!(registry.tools().len(), 100, "add_note and 99 fillers");
    if !args.stateless {
        let server = McpServer::new(registry, ToolContext::new(()))
            .with_resources(resources())
            .with_prompts(prompts());
        let listener = TcpListener::bind(("127.0.0.1", args.port)).await?;
        server.serve_http(listener).await?;
        return Ok(());
    }
    registry = registry.with(AddNoteLater);
    // Connected before listening: a replica that accepts connections is
    // on its store.
    let store = match &args.redis {
        Some(url) => {
            let mut options = RedisStore::options(url);
            if let Some(prefix) = &args.prefix {
                options = options.prefix(prefix.as_str());
            }
            Some(options.connect().await?)
        }
        None => None,
    };
    if let Some(store) = &store {
        registry = tool_core::registry::RegistryBuilder::from(registry)
            .store(store.clone())
            .build();
    }
    let mut config = McpConfig::new();
    if let Some(store) = store {
        config = config.with_store(store);
    }
    let server = McpServer::new(registry, ToolContext::new(()))
        .with_resources(resources())
        .with_prompts(prompts())
        .with_config(config);
    let listener = TcpListener::bind(("127.0.0.1", args.port)).await?;
    let config = tool_mcp::http_config().with_legacy_session_mode(false);
    server.serve_http_with(listener, config).await?;
    Ok(())
}
