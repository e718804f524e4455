//! A gateway: the quickstart's tools and MCP's reference server
//! `everything` (mounted over stdio, prefixed and filtered) behind one MCP
//! endpoint.
//!
//! ```text
//! cargo run --example gateway                            # a scripted run on loopback
//! cargo run --example gateway -- --serve 127.0.0.1:8080  # serves until Ctrl-C
//! ```
//!
//! Without arguments it serves on a loopback port of its own and runs the
//! agent example's loop through a mount of that endpoint, then exits. The
//! gateway asks the person behind the agent before a `Confirm` tool runs,
//! through the mount, as it asks any MCP client's person; here that person
//! is scripted too ([`Person`]). With
//! `--serve ADDRESS` it serves at `http://ADDRESS/mcp` for any MCP client
//! until it is stopped (Ctrl-C), then ends the reference server and exits.
//!
//! `everything` runs with Node: from `TOOL_SDK_NODE_MODULES` when it is set
//! (`scripts/test` sets it), otherwise through `npx -y
//! @modelcontextprotocol/server-everything@2026.8.31`. The model is the
//! agent example's scripted one on loopback.

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;
use tokio::net::TcpListener;
use tokio::process::Command;
use tool_core::context::CancellationToken;
use tool_core::elicit::{Answer, Asker, ElicitError, Question};
use tool_core::toolset::{Compose, RegistryHandle};
use tool_core::{BoxFuture, ToolContext, ToolRegistry};
use tool_mcp::mount::{Mount, MountError, Mounted};
use tool_mcp::{MCP_PATH, McpServer, ServeError, http_config};

#[path = "agent/main.rs"]
#[allow(dead_code)]
mod agent;

use agent::{Api, Endpoint, QUESTION, Transcript, quickstart, run_with, scripted};

/// The reference server's tools the gateway serves, under `everything_`.
pub(crate) const MOUNTED: [&str; 4] = [
    "echo",
    "get-sum",
    "get-tiny-image",
    "trigger-long-running-operation",
];

const USAGE: &str = "usage: gateway [--serve ADDRESS]";

/// The command that runs the reference server over stdio.
fn everything() -> Command {
    match std::env::var_os("TOOL_SDK_NODE_MODULES") {
        Some(modules) if !modules.is_empty() => {
            let entry = PathBuf::from(modules)
                .join("@modelcontextprotocol/server-everything/dist/index.js");
            let mut command = Command::new("node");
            command.arg(entry).arg("stdio");
            command
        }
        _ => {
            let mut command = Command::new("npx");
            command.args([
                "-y",
                "@modelcontextprotocol/server-everything@2026.8.31",
                "stdio",
            ]);
            command
        }
    }
}

/// What a run of the gateway showed.
pub(crate) struct Report {
    pub(crate) url: String,
    /// The tools the gateway serves.
    pub(crate) served: Vec<String>,
    /// The tools the agent sees, through its mount of the gateway.
    pub(crate) seen: Vec<String>,
    /// A call of a mounted tool, through both mounts.
    pub(crate) sum: String,
    pub(crate) transcript: Transcript,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "gateway at {}", self.url)?;
        writeln!(f, "serves  {}", self.served.join(", "))?;
        writeln!(f, "agent sees {}", self.seen.join(", "))?;
        writeln!(f, "call   everything_get-sum({{\"a\":2,\"b\":3}})")?;
        writeln!(f, "  -> {}", self.sum)?;
        writeln!(f, "user   {QUESTION}")?;
        write!(f, "{}", self.transcript)
    }
}

/// Why a run failed.
#[derive(Debug)]
pub(crate) enum Error {
    Usage,
    Mount(MountError),
    Serve(std::io::Error),
    Served(ServeError),
    Agent(agent::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage => f.write_str(USAGE),
            Error::Mount(error) => write!(f, "{error}"),
            Error::Serve(error) => write!(f, "the gateway could not listen: {error}"),
            Error::Served(error) => write!(f, "the gateway stopped serving: {error}"),
            Error::Agent(error) => write!(f, "{error}"),
        }
    }
}

/// The gateway's registry: the quickstart's tools, and four of the
/// reference server's, prefixed; they stay as long as the [`Mounted`].
async fn hub() -> Result<(RegistryHandle<quickstart::App>, Mounted), Error> {
    let hub = RegistryHandle::new(quickstart::registry());
    let everything = Mount::stdio("everything", everything())
        .compose(Compose::new().prefix("everything_").allow(MOUNTED))
        .mount(&hub)
        .await
        .map_err(Error::Mount)?;
    Ok((hub, everything))
}

/// The gateway, served at `address` until `stop` ends (Ctrl-C, from
/// `main`); where it serves, and that it stopped, are said on stderr.
pub(crate) async fn serve(address: &str, stop: impl Future<Output = ()>) -> Result<(), Error> {
    // Bound first: an address taken fails before the reference server starts.
    let listener = TcpListener::bind(address).await.map_err(Error::Serve)?;
    let bound = listener.local_addr().map_err(Error::Serve)?;
    let (hub, everything) = hub().await?;
    let shutdown = CancellationToken::new();
    let config = http_config().with_cancellation_token(shutdown.clone());
    let serving =
        McpServer::following(&hub, quickstart::context()).serve_http_with(listener, config);
    tokio::pin!(serving);
    let tools: Vec<String> = hub.current().names().map(str::to_owned).collect();
    eprintln!("gateway serving MCP at http://{bound}{MCP_PATH}");
    eprintln!("tools: {}", tools.join(", "));
    eprintln!("Ctrl-C stops it");
    let ended = tokio::select! {
        () = stop => None,
        ended = &mut serving => Some(ended),
    };
    // Every session ends, and the server with them.
    shutdown.cancel();
    let ended = match ended {
        Some(ended) => ended,
        None => serving.await,
    };
    // The reference server's process ends with its mount, and is waited for.
    everything.unmount().await;
    ended.map_err(Error::Served)?;
    eprintln!("gateway stopped");
    Ok(())
}

/// The person behind the agent, as the scripted run has them: asked to
/// let a conversion run, they allow amounts up to 1,000 and decline the
/// rest; they leave every other question unanswered.
struct Person;

impl Asker for Person {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        // "Allow the tool `convert_currency` to run with these arguments?"
        // then the arguments, as JSON.
        let amount = question
            .message()
            .split_once('\n')
            .and_then(|(_, arguments)| serde_json::from_str::<serde_json::Value>(arguments).ok())
            .and_then(|arguments| arguments["amount"].as_f64());
        let answer = match amount {
            Some(amount) if amount <= 1000.0 => Ok(Answer::Accept(json!({}))),
            Some(_) => Ok(Answer::Decline),
            None => Err(ElicitError::Unsupported {
                reason: "the scripted person answers only conversions".to_owned(),
            }),
        };
        Box::pin(std::future::ready(answer))
    }
}

/// The gateway, served on loopback, and the agent's loop through it.
pub(crate) async fn run() -> Result<Report, Error> {
    let (hub, _everything) = hub().await?;
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(Error::Serve)?;
    let url = format!(
        "http://{}/mcp",
        listener.local_addr().map_err(Error::Serve)?
    );
    let gateway = McpServer::following(&hub, quickstart::context());
    tokio::spawn(gateway.serve_http_with(listener, http_config()));

    // The agent's registry: the gateway, mounted.
    let tools: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let _gateway = Mount::http("gateway", url.as_str())
        .mount(&tools)
        .await
        .map_err(Error::Mount)?;
    let registry = tools.current();
    let ctx = ToolContext::builder(()).asker(Person).build();
    let sum = registry
        .call(&ctx, "everything_get-sum", json!({"a": 2, "b": 3}))
        .await
        .model_text()
        .into_owned();

    let api = Api::OpenAi;
    let base_url = scripted::serve(api)
        .await
        .map_err(|error| Error::Agent(agent::Error::Serve(error)))?;
    let transcript = run_with(&Endpoint::local(api, base_url), QUESTION, &registry, &ctx)
        .await
        .map_err(Error::Agent)?;
    Ok(Report {
        url,
        served: hub.current().names().map(str::to_owned).collect(),
        seen: registry.names().map(str::to_owned).collect(),
        sum,
        transcript,
    })
}

/// Until Ctrl-C; should the signal not be watched, until the process is
/// killed.
async fn ctrl_c() {
    if let Err(error) = tokio::signal::ctrl_c().await {
        eprintln!("Ctrl-C cannot be watched ({error}): stop the gateway by ending its process");
        std::future::pending::<()>().await;
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => run().await.map(|report| print!("{report}")),
        ["--serve", address] => serve(address, ctrl_c()).await,
        _ => Err(Error::Usage),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
