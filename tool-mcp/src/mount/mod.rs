//! Another MCP server's tools in a registry: a [`Mount`] connects to the
//! server (a child process over stdio, or streamable HTTP) with rmcp's
//! client, lists its tools, and puts each in a [`RegistryHandle`] beside
//! the others, through the mount's [`Compose`] rules; the server's
//! `notifications/tools/list_changed` puts the new list in place.
//!
//! The mount lasts as long as the [`Mounted`] it gives: dropped, the
//! server's tools leave the registry. A tool whose name the registry
//! already holds fails the mount ([`MountError::Clash`]) unless it is
//! [`lenient`](Mount::lenient).
//!
//! The server is not trusted: a tool it lists with a name providers
//! refuse, a schema that does not compile, is too large or too deep, or a
//! description over the limit is left out ([`Mounted::refused`] says which and why, naming the
//! server); a call it fails, answers with something that is not MCP's, or
//! never answers ends in an error result that says so, within the call's
//! time limit; the other tools keep working. Every text the model reads
//! names the tool as the model knows it, after the mount's rules.
//!
//! What the bounds let through is still the server's own text: a
//! description that impersonates another tool, a result that carries fake
//! tool calls or speaks as the system. The application checks it with a
//! [`Screen`] ([`Mount::screen`]), which sees each tool as listed and each
//! call's result before the model does, and keeps, rewrites or refuses it.

mod asked;
mod catalog;
mod child;
mod connect;
mod connection;
mod deep;
mod follow;
mod heard;
mod input_required;
mod lines;
mod listen;
mod mounted;
mod oauth;
mod oversized;
mod progress;
mod questions;
mod remote;
mod screen;
mod shared;
mod stderr;
mod tap;
mod task_call;
mod task_follow;
mod task_tools;
mod unfinished;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::toolset::{Compose, RegistryHandle};

use asked::Takes;
/// The attribute a [`TokenStore`] or a [`Browser`] is implemented with.
pub use async_trait::async_trait;
pub use catalog::MAX_LISTED;
use child::alive;
pub use connect::Protocol;
use connect::{Client, ServerLocation};
use connection::{Connection, ServerLink};
use deep::TooDeep;
use follow::Follow;
pub use follow::Restart;
use heard::Heard;
pub use mounted::{MountError, Mounted, Refused};
pub use oauth::{
    Browser, CliBrowser, DEFAULT_MAX_STEP_UPS, HeadlessBrowser, MemoryTokenStore, OAuth,
    OAuthFailure, Redirect, TokenStore, Tokens,
};
use progress::Reports;
use remote::Limits;
pub use screen::{CallResult, ListedTool, Screen};
use screen::{ResultsWith, Screens, ToolsWith};
use shared::MountShared;
use task_tools::TaskTools;

/// The default bound on a listed tool's description: a longer one is a
/// server filling the model's context, and the tool is left out.
pub const DEFAULT_MAX_DESCRIPTION_BYTES: usize = 16 * 1024;

/// The default bound on a listed tool's input schema, in bytes of its
/// JSON: a larger one is a server filling the model's context, and the
/// tool is left out ([`Mount::max_schema_bytes`]).
pub const DEFAULT_MAX_SCHEMA_BYTES: usize = 64 * 1024;

/// The default bound on how deep a listed tool's input schema is nested
/// (an object or array one level, each value in it one more): a deeper one
/// is left out; one too deep to read at all is taken out of the server's
/// list, so that the other tools are mounted ([`Mount::max_schema_depth`]).
pub const DEFAULT_MAX_SCHEMA_DEPTH: usize = 64;

/// The default bound on a call's result (a single text's bytes, the JSON
/// of anything else): a larger one is an error result, not the model's
/// context filled.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 8 * 1024 * 1024;

/// The default bound on how many tools one server may list: ten thousand
/// is a hundred times what the largest servers of note list (about a
/// hundred), and mounts in well under a second; past it a server is
/// filling the registry and the process's memory (a hundred thousand
/// tools take hundreds of megabytes), and no model could choose among
/// them anyway. The same bound as a listing's resources and prompts
/// ([`MAX_LISTED`]).
pub const DEFAULT_MAX_TOOLS: usize = 10_000;

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
    source: ServerLocation,
    rules: Compose,
    limits: Limits,
    connect_timeout: Duration,
    restart: Option<Restart>,
    lenient: bool,
    protocol: Protocol,
    takes: Takes,
    screens: Screens,
}

impl Mount {
    /// The server a child process runs, spoken to over its stdin and
    /// stdout; its stderr goes to `tracing` at debug level. The process is
    /// the mount's: it ends when the mount does (and is reaped). `name`
    /// names the server in every error.
    pub fn stdio(name: impl Into<String>, command: tokio::process::Command) -> Self {
        Self::new(name, ServerLocation::Stdio(Box::new(command)))
    }

    /// The server at `url`, over streamable HTTP.
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::new(
            name,
            ServerLocation::Http {
                url: url.into(),
                bearer: None,
                headers: Vec::new(),
                oauth: None,
            },
        )
    }

    fn new(name: impl Into<String>, source: ServerLocation) -> Self {
        Self {
            name: Arc::from(name.into()),
            source,
            rules: Compose::new(),
            limits: Limits {
                description_bytes: DEFAULT_MAX_DESCRIPTION_BYTES,
                result_bytes: DEFAULT_MAX_RESULT_BYTES,
                tools: DEFAULT_MAX_TOOLS,
                schema_bytes: DEFAULT_MAX_SCHEMA_BYTES,
                schema_depth: DEFAULT_MAX_SCHEMA_DEPTH,
            },
            connect_timeout: Duration::from_secs(30),
            restart: Some(Restart::DEFAULT),
            lenient: false,
            protocol: Protocol::Newest,
            takes: Takes::default(),
            screens: Screens::default(),
        }
    }

    /// Over HTTP, `Authorization: Bearer <token>` on every request.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        if let ServerLocation::Http { bearer, .. } = &mut self.source {
            *bearer = Some(token.into());
        }
        self
    }

    /// Over HTTP, authorized with OAuth 2.1 as MCP's authorization
    /// specification asks, when the server answers 401: discovery from its
    /// challenge, the client's identity, the person's step in a browser
    /// and the tokens, as `oauth` says ([`OAuth`]). A failure fails the
    /// mount with [`MountError::Authorization`], naming the server and the
    /// step. Leave the person time to authorize
    /// ([`Mount::connect_timeout`]).
    #[must_use]
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        if let ServerLocation::Http { oauth: slot, .. } = &mut self.source {
            *slot = Some(Box::new(oauth));
        }
        self
    }

    /// Over HTTP, a header on every request.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let ServerLocation::Http { headers, .. } = &mut self.source {
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

    /// A check of what the server says before the model reads it: each
    /// listed tool's description, each call's result ([`Screen`]). Called
    /// again, the screens run in the order given.
    ///
    /// ```
    /// use tool_mcp::mount::{CallResult, Mount, Screen};
    ///
    /// /// Tool-call markup in a result is not the server's to write.
    /// struct NoMarkup;
    ///
    /// impl Screen for NoMarkup {
    ///     fn result(&self, result: &mut CallResult<'_>) -> Result<(), String> {
    ///         let marked = result.texts_mut().any(|text| text.contains("<tool_call>"));
    ///         if marked {
    ///             return Err(format!("`{}` answered with tool-call markup", result.server()));
    ///         }
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let mount = Mount::http("search", "http://127.0.0.1:8080/mcp").screen(NoMarkup);
    /// # drop(mount);
    /// ```
    #[must_use]
    pub fn screen(mut self, screen: impl Screen) -> Self {
        self.screens.push(screen);
        self
    }

    /// A [`screen`](Self::screen) of the listed tools alone, as a closure
    /// ([`Screen::tool`]).
    ///
    /// ```
    /// use tool_mcp::mount::Mount;
    ///
    /// let mount = Mount::http("search", "http://127.0.0.1:8080/mcp").screen_tools(|tool| {
    ///     match tool.description().to_lowercase().contains("ignore previous") {
    ///         true => Err("its description gives the model orders".into()),
    ///         false => Ok(()),
    ///     }
    /// });
    /// # drop(mount);
    /// ```
    #[must_use]
    pub fn screen_tools<F>(self, screen: F) -> Self
    where
        F: Fn(&mut ListedTool<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        self.screen(ToolsWith(screen))
    }

    /// A [`screen`](Self::screen) of the calls' results alone, as a
    /// closure ([`Screen::result`]).
    ///
    /// ```
    /// use tool_mcp::mount::Mount;
    ///
    /// let mount = Mount::http("search", "http://127.0.0.1:8080/mcp").screen_results(|result| {
    ///     for text in result.texts_mut() {
    ///         *text = text.replace("SYSTEM:", "(the server wrote) SYSTEM:");
    ///     }
    ///     Ok(())
    /// });
    /// # drop(mount);
    /// ```
    #[must_use]
    pub fn screen_results<F>(self, screen: F) -> Self
    where
        F: Fn(&mut CallResult<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        self.screen(ResultsWith(screen))
    }

    /// The longest description a tool may have
    /// ([`DEFAULT_MAX_DESCRIPTION_BYTES`]); a tool with a longer one is
    /// left out.
    #[must_use]
    pub fn max_description_bytes(mut self, limit: usize) -> Self {
        self.limits.description_bytes = limit;
        self
    }

    /// The largest input schema a tool may have, in bytes of its JSON
    /// ([`DEFAULT_MAX_SCHEMA_BYTES`]); a tool with a larger one is left
    /// out.
    #[must_use]
    pub fn max_schema_bytes(mut self, limit: usize) -> Self {
        self.limits.schema_bytes = limit;
        self
    }

    /// How deep a tool's input schema may be nested
    /// ([`DEFAULT_MAX_SCHEMA_DEPTH`]); a tool with a deeper one is left
    /// out. A schema nested past what a listing can be read with (117
    /// levels: serde_json reads 128, the listing takes a few) is left out
    /// whatever this is, and the other tools mounted.
    #[must_use]
    pub fn max_schema_depth(mut self, limit: usize) -> Self {
        self.limits.schema_depth = limit;
        self
    }

    /// The most tools the server may list ([`DEFAULT_MAX_TOOLS`]): a
    /// longer list is refused whole, at connecting
    /// ([`MountError::TooManyTools`], naming the server, the count and the
    /// limit) and nothing is mounted; a longer list sent later is not put
    /// in, and the tools before it stay. The listing is not read past the
    /// limit: counted before the mount's rules, so a server of many tools
    /// of which a few are wanted needs a higher limit.
    #[must_use]
    pub fn max_tools(mut self, limit: usize) -> Self {
        self.limits.tools = limit;
        self
    }

    /// The largest result a call may bring, a single text's bytes or the
    /// JSON of anything else ([`DEFAULT_MAX_RESULT_BYTES`]); a larger one
    /// is an error result.
    /// Media within it still meets the registry's own limit
    /// (`RegistryBuilder::max_media_bytes`).
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
    /// leave the registry then, as when the mount is dropped.
    #[must_use]
    pub fn no_restart(mut self) -> Self {
        self.restart = None;
        self
    }

    /// Mounts the server's other tools when some would take a name the
    /// registry already holds: those are left out, and
    /// [`Mounted::refused`] says which. Without it, such a tool fails the
    /// mount ([`MountError::Clash`]) and nothing is added; a list the
    /// server sends later leaves such tools out either way.
    #[must_use]
    pub fn lenient(mut self) -> Self {
        self.lenient = true;
        self
    }

    /// Which of MCP's versions the mount speaks ([`Protocol::Newest`]: the
    /// newest the server offers).
    ///
    /// 2026-07-28 sends the client's information and capabilities with
    /// every request, where 2025-11-25 sent them once: a call costs the
    /// two sides about 40% more instructions (BENCHMARKS.md, "Mounted
    /// servers"). [`Protocol::V2025_11_25`] keeps to the older form, for
    /// a mount that calls a server back to back and needs none of what
    /// 2026-07-28 adds (its stateless requests, its tasks extension).
    #[must_use]
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// Declares sampling to the server: what it asks of the client's model
    /// during a call (`sampling/createMessage`) goes to the calling
    /// context's client ([`ToolContext::sample`](tool_core::ToolContext::sample);
    /// over MCP, the gateway's own client). Without it, the server is told
    /// the mount does not take sampling.
    #[must_use]
    pub fn sampling(mut self) -> Self {
        self.takes.sampling = true;
        self
    }

    /// Declares roots to the server: its `roots/list` during a call is
    /// answered with the calling context's
    /// ([`ToolContext::roots`](tool_core::ToolContext::roots)). Without it,
    /// the server is told the mount gives no roots.
    #[must_use]
    pub fn roots(mut self) -> Self {
        self.takes.roots = true;
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
    /// [`Mounted`] is dropped or unmounted. An error says what failed and
    /// names the server; then nothing is added.
    pub async fn mount<Ctx: Send + Sync + 'static>(
        self,
        handle: &RegistryHandle<Ctx>,
    ) -> Result<Mounted, MountError> {
        let server = Arc::clone(&self.name);
        let changed = Arc::new(Notify::new());
        let client = Client::new(
            Arc::clone(&server),
            Arc::clone(&changed),
            self.protocol,
            self.takes,
        );
        let tasks = Arc::new(TaskTools::default());
        let too_deep = Arc::new(TooDeep::new(self.limits.schema_depth));
        let heard = Heard {
            tasks: Arc::clone(&tasks),
            reports: Arc::new(Reports::default()),
            too_deep: Arc::clone(&too_deep),
            desk: client.desk(),
        };
        let reports = Arc::clone(&heard.reports);
        let (alive, ended) = alive();
        let connecting = connect::connect(&server, &self.source, client.clone(), heard, &alive);
        let running = tokio::time::timeout(self.connect_timeout, connecting)
            .await
            .map_err(|_| MountError::Connect {
                server: server.to_string(),
                reason: format!("no answer within {:?}", self.connect_timeout),
            })??;
        let link = ServerLink {
            peer: running.peer().clone(),
            reports,
        };
        let connection = Arc::new(Connection::new(
            Arc::clone(&server),
            link,
            tasks,
            too_deep,
            client.desk(),
            self.restart.is_some(),
        ));
        let shared = Arc::new(MountShared {
            server: Arc::clone(&server),
            connection,
            rules: self.rules,
            limits: self.limits,
            screens: Arc::new(self.screens),
            lenient: self.lenient,
            state: Mutex::default(),
        });
        let listening = listen::open(running.peer()).await;
        let listing = tokio::time::timeout(self.connect_timeout, shared.list(running.peer()));
        let listed = match listing.await {
            Ok(Ok(listed)) => listed,
            Ok(Err(error)) => return Err(client.unauthorized_or(&server, error)),
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
            alive,
        };
        tokio::spawn(follow.run(running, listening));
        let end = {
            let (shared, handle) = (Arc::clone(&shared), handle.clone());
            Box::new(move |why| shared.end(&handle, why))
        };
        Ok(Mounted {
            shared,
            stop,
            end,
            ended: Some(ended),
        })
    }
}
