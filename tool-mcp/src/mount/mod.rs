//! Another MCP server's tools in a registry: a [`Mount`] connects to the
//! server (a child process over stdio, or streamable HTTP) with rmcp's
//! client, lists its tools, and puts each in a [`RegistryHandle`] beside
//! the others, through the mount's [`Compose`] rules; the server's
//! `notifications/tools/list_changed` puts the new list in place.
//!
//! The server is not trusted: a tool it lists with a name providers
//! refuse, a schema that does not compile or a description over the limit
//! is left out ([`Mounted::refused`] says which and why, naming the
//! server); a call it fails, answers with something that is not MCP's, or
//! never answers ends in an error result that says so, within the call's
//! time limit; the other tools keep working.

mod connect;
mod follow;
mod remote;
mod tap;
mod task_call;
mod unfinished;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::handler::client::progress::ProgressDispatcher;
use rmcp::model::Tool as Listed;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::ToolRegistry;
use tool_core::registry::RegistryError;
use tool_core::toolset::{Compose, RegistryHandle};

use connect::{Client, Source};
use follow::Follow;
pub use follow::Restart;
use remote::{Connection, Limits, RemoteTool};
use tap::TaskTools;

/// The default bound on a listed tool's description: a longer one is a
/// server filling the model's context, and the tool is left out.
pub const DEFAULT_MAX_DESCRIPTION_BYTES: usize = 16 * 1024;

/// The default bound on a call's result (a single text's bytes, the JSON
/// of anything else): a larger one is an error result, not the model's
/// context filled.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 8 * 1024 * 1024;

/// How to reach an MCP server whose tools join a registry, and what they
/// go through on the way ([`Mount::compose`]).
///
/// ```no_run
/// # async fn run() -> Result<(), tool_mcp::mount::MountError> {
/// use tokio::process::Command;
/// use tool_core::toolset::{Compose, RegistryHandle};
/// use tool_core::ToolRegistry;
/// use tool_mcp::mount::Mount;
///
/// let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
/// let mut command = Command::new("npx");
/// command.args(["-y", "@modelcontextprotocol/server-filesystem", "/tmp/work"]);
/// let files = Mount::stdio("files", command)
///     .compose(Compose::new().prefix("fs_").deny(["move_file"]))
///     .mount(&handle)
///     .await?;
/// println!("mounted {:?}", files.tools());
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Mount {
    name: Arc<str>,
    source: Source,
    rules: Compose,
    limits: Limits,
    connect_timeout: Duration,
    restart: Option<Restart>,
}

impl Mount {
    /// The server a child process runs, spoken to over its stdin and
    /// stdout; its stderr goes to `tracing` at debug level. The process is
    /// the mount's: it ends when the mount does (and is reaped). `name`
    /// names the server in every error.
    pub fn stdio(name: impl Into<String>, command: tokio::process::Command) -> Self {
        Self::new(name, Source::Stdio(Box::new(command)))
    }

    /// The server at `url`, over streamable HTTP.
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::new(
            name,
            Source::Http {
                url: url.into(),
                bearer: None,
                headers: Vec::new(),
            },
        )
    }

    fn new(name: impl Into<String>, source: Source) -> Self {
        Self {
            name: Arc::from(name.into()),
            source,
            rules: Compose::new(),
            limits: Limits {
                description_bytes: DEFAULT_MAX_DESCRIPTION_BYTES,
                result_bytes: DEFAULT_MAX_RESULT_BYTES,
            },
            connect_timeout: Duration::from_secs(30),
            restart: Some(Restart::DEFAULT),
        }
    }

    /// Over HTTP, `Authorization: Bearer <token>` on every request.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        if let Source::Http { bearer, .. } = &mut self.source {
            *bearer = Some(token.into());
        }
        self
    }

    /// Over HTTP, a header on every request.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let Source::Http { headers, .. } = &mut self.source {
            headers.push((name.into(), value.into()));
        }
        self
    }

    /// The rules the server's tools go through: a prefix, renames,
    /// filters, bound arguments, descriptions. They apply to every list
    /// the server sends; a rule that names no tool of the first list is an
    /// error, as a misspelt name would be, and of a later list is skipped.
    #[must_use]
    pub fn compose(mut self, rules: Compose) -> Self {
        self.rules = rules;
        self
    }

    /// The longest description a tool may have
    /// ([`DEFAULT_MAX_DESCRIPTION_BYTES`]); a tool with a longer one is
    /// left out.
    #[must_use]
    pub fn max_description_bytes(mut self, limit: usize) -> Self {
        self.limits.description_bytes = limit;
        self
    }

    /// The largest result a call may bring, a single text's bytes or the
    /// JSON of anything else ([`DEFAULT_MAX_RESULT_BYTES`]); a larger one
    /// is an error result.
    /// Media within it still meets the registry's own limit
    /// (`ToolRegistry::with_max_media_bytes`).
    #[must_use]
    pub fn max_result_bytes(mut self, limit: usize) -> Self {
        self.limits.result_bytes = limit;
        self
    }

    /// How the server is brought back when its connection ends
    /// ([`Restart::DEFAULT`]).
    #[must_use]
    pub fn restart(mut self, restart: Restart) -> Self {
        self.restart = Some(restart);
        self
    }

    /// The server is not brought back when its connection ends: its tools
    /// answer that it is down until it is mounted again.
    #[must_use]
    pub fn no_restart(mut self) -> Self {
        self.restart = None;
        self
    }

    /// How long connecting and each listing of the tools may take (30
    /// seconds).
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Connects, lists the server's tools and adds them to `handle`'s
    /// registry, then keeps them as the server lists them until the
    /// [`Mounted`] is unmounted or dropped. An error says what failed and
    /// names the server; then nothing is added.
    pub async fn mount<Ctx: Send + Sync + 'static>(
        self,
        handle: &RegistryHandle<Ctx>,
    ) -> Result<Mounted, MountError> {
        let server = Arc::clone(&self.name);
        let changed = Arc::new(Notify::new());
        let progress = ProgressDispatcher::new();
        let client = Client::new(Arc::clone(&changed), progress.clone());
        let tasks = Arc::new(TaskTools::default());
        let connecting =
            connect::connect(&server, &self.source, client.clone(), Arc::clone(&tasks));
        let running = tokio::time::timeout(self.connect_timeout, connecting)
            .await
            .map_err(|_| MountError::Connect {
                server: server.to_string(),
                reason: format!("no answer within {:?}", self.connect_timeout),
            })??;
        let connection = Arc::new(Connection::new(
            Arc::clone(&server),
            running.peer().clone(),
            progress,
            tasks,
        ));
        let shared = Arc::new(Shared {
            server: Arc::clone(&server),
            connection,
            rules: self.rules,
            limits: self.limits,
            state: Mutex::default(),
        });
        let listing =
            tokio::time::timeout(self.connect_timeout, shared.connection.list(running.peer()));
        let listed = match listing.await {
            Ok(Ok(listed)) => listed,
            Ok(Err(error)) => return Err(shared.list_error(error.to_string())),
            Err(_) => {
                return Err(
                    shared.list_error(format!("no answer within {:?}", self.connect_timeout))
                );
            }
        };
        shared.put(handle, &listed, true)?;
        let stop = CancellationToken::new();
        let follow = Follow {
            shared: Arc::clone(&shared),
            handle: handle.clone(),
            source: self.source,
            client,
            changed,
            stop: stop.clone(),
            restart: self.restart,
            connect_timeout: self.connect_timeout,
        };
        tokio::spawn(follow.run(running));
        Ok(Mounted { shared, stop })
    }
}

/// What a mount and the task that follows its server share.
pub(crate) struct Shared {
    server: Arc<str>,
    pub(crate) connection: Arc<Connection>,
    rules: Compose,
    limits: Limits,
    state: Mutex<MountState>,
}

/// The mount's tools in the registry, by the names they have there, and
/// those left out.
#[derive(Default)]
struct MountState {
    names: Vec<String>,
    refused: Vec<Refused>,
}

impl Shared {
    fn list_error(&self, reason: String) -> MountError {
        MountError::List {
            server: self.server.to_string(),
            reason,
        }
    }

    /// Puts the server's tools, as `listed`, in the registry in place of
    /// the ones it listed before. `first`: a rule that names no tool is an
    /// error (later lists may lose tools).
    pub(crate) fn put<Ctx: Send + Sync + 'static>(
        &self,
        handle: &RegistryHandle<Ctx>,
        listed: &[Listed],
        first: bool,
    ) -> Result<(), MountError> {
        let mut tools: ToolRegistry<Ctx> = ToolRegistry::new();
        let mut refused = Vec::new();
        for listed in listed {
            let added = RemoteTool::new(listed, &self.connection, self.limits)
                .and_then(|tool| tools.register(tool).map_err(|error| error.to_string()));
            if let Err(reason) = added {
                tracing::warn!(server = %self.server, tool = %listed.name, %reason, "tool not mounted");
                refused.push(Refused {
                    tool: listed.name.to_string(),
                    reason,
                });
            }
        }
        let rules = if first {
            self.rules.clone()
        } else {
            self.rules.clone().lenient()
        };
        let composed = rules.apply(tools).map_err(|error| MountError::Registry {
            server: self.server.to_string(),
            error,
        })?;
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let before = std::mem::take(&mut state.names);
        let offered: Vec<String> = composed.names().map(str::to_owned).collect();
        // Each tool the registry refuses (a name another tool holds, a
        // provider's check) is left out; the others are mounted.
        let merged = handle.update(|registry| {
            for name in &before {
                registry.remove(name);
            }
            registry.merge_passing(composed)
        });
        let mut names = offered;
        for error in merged {
            let tool = refused_name(&error);
            names.retain(|name| *name != tool);
            tracing::warn!(server = %self.server, %tool, %error, "tool not mounted");
            refused.push(Refused {
                tool,
                reason: error.to_string(),
            });
        }
        state.names = names;
        state.refused = refused;
        Ok(())
    }

    /// Takes the mount's tools out of the registry.
    fn remove<Ctx: Send + Sync + 'static>(&self, handle: &RegistryHandle<Ctx>) {
        let names = std::mem::take(
            &mut self
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .names,
        );
        handle.update(|registry| {
            for name in &names {
                registry.remove(name);
            }
        });
    }
}

/// The tool a registry's refusal is about.
fn refused_name(error: &RegistryError) -> String {
    match error {
        RegistryError::DuplicateName { name }
        | RegistryError::InvalidName { name, .. }
        | RegistryError::InvalidSchema { name, .. }
        | RegistryError::NameRejected { name, .. }
        | RegistryError::SchemaRejected { name, .. }
        | RegistryError::Compose { name, .. } => name.clone(),
        other => other.to_string(),
    }
}

/// A server's tools in a registry, kept as the server lists them until
/// [`unmount`](Mounted::unmount) or drop: then the connection ends (a
/// child process with it); the tools stay in the registry after a drop
/// but answer that the server is gone; `unmount` takes them out.
pub struct Mounted {
    shared: Arc<Shared>,
    stop: CancellationToken,
}

impl Mounted {
    /// The server's name, as the mount was given it.
    pub fn server(&self) -> &str {
        &self.shared.server
    }

    /// The names of the server's tools in the registry, after the rules.
    pub fn tools(&self) -> Vec<String> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .names
            .clone()
    }

    /// The tools of the server's last list that were left out, and why.
    pub fn refused(&self) -> Vec<Refused> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .refused
            .clone()
    }

    /// Takes the server's tools out of `handle`'s registry and ends the
    /// connection.
    pub fn unmount<Ctx: Send + Sync + 'static>(self, handle: &RegistryHandle<Ctx>) {
        self.shared.remove(handle);
        self.stop.cancel();
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

impl std::fmt::Debug for Mounted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mounted")
            .field("server", &self.shared.server)
            .field("tools", &self.tools())
            .finish_non_exhaustive()
    }
}

/// A tool a server listed that was left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Its name: as the server listed it, or, refused by the registry
    /// (a name another tool holds, a provider's check), as the mount's
    /// rules made it.
    pub tool: String,
    /// Why it was left out.
    pub reason: String,
}

/// Why a server's tools could not be mounted. Each names the server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MountError {
    /// The server could not be started or reached, or did not complete
    /// MCP's initialization.
    #[error("the MCP server `{server}` could not be connected to: {reason}")]
    Connect {
        /// The mount's name for the server.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// The server did not list its tools.
    #[error("the MCP server `{server}` did not list its tools: {reason}")]
    List {
        /// The mount's name for the server.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// A rule of the mount's [`Compose`] cannot be applied to the
    /// server's tools.
    #[error("the tools of the MCP server `{server}` cannot join the registry: {error}")]
    Registry {
        /// The mount's name for the server.
        server: String,
        /// What the registry said.
        error: RegistryError,
    },
}
