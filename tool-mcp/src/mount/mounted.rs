//! A mount while it lasts ([`Mounted`]), the tools it left out
//! ([`Refused`]), and why a server could not be mounted ([`MountError`]).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use tool_core::registry::RegistryError;

use super::child::ChildGone;
use super::connection::Gone;
use super::shared::MountShared;

/// A server's tools in a registry, kept as the server lists them for as
/// long as this value lives: dropped, the tools leave the registry at once
/// and the connection ends (a child process with it); a call already
/// running ends saying so. Keep it beside whatever serves the registry;
/// [`unmount`](Mounted::unmount) it to wait for the end.
///
/// The tools leave the registry too when the server's connection ends and
/// the mount does not start it again ([`Mount::no_restart`](super::Mount::no_restart)).
///
/// A mount that is not kept is a mistake the compiler points out:
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// # async fn run(handle: &tool_core::toolset::RegistryHandle) -> Result<(), tool_mcp::mount::MountError> {
/// // Dropped at once: its tools would leave the registry as they came.
/// tool_mcp::mount::Mount::http("search", "http://127.0.0.1:8080/mcp")
///     .mount(handle)
///     .await?;
/// # Ok(())
/// # }
/// ```
#[must_use = "the server's tools leave the registry when the `Mounted` is dropped: keep it for as long as they should stay"]
pub struct Mounted {
    pub(super) shared: Arc<MountShared>,
    pub(super) stop: CancellationToken,
    /// Takes the tools out of the registry they were mounted in.
    pub(super) end: Box<dyn Fn(Gone) + Send + Sync>,
    /// Waits for the connection's end; taken by `unmount`.
    pub(super) ended: Option<ChildGone>,
}

impl Mounted {
    /// The server's name, as the mount was given it.
    pub fn server(&self) -> &str {
        &self.shared.server
    }

    /// The names of the server's tools in the registry, after the rules;
    /// none once the mount has ended.
    pub fn tools(&self) -> Vec<String> {
        self.shared.state().names.clone()
    }

    /// The tools of the server's last list that were left out, and why.
    pub fn refused(&self) -> Vec<Refused> {
        self.shared.state().refused.clone()
    }

    /// Ends the mount as dropping it does (its tools leave the registry
    /// at once, a call still running ends saying so), and waits until its
    /// connection has ended: a child process has exited (given 3 seconds
    /// once its input is closed, then killed) and been reaped. What a
    /// program that stops waits for.
    pub async fn unmount(mut self) {
        let ended = self.ended.take();
        drop(self);
        if let Some(ended) = ended {
            ended.wait().await;
        }
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        (self.end)(Gone::Unmounted);
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
    /// Authorizing with the server, behind OAuth
    /// ([`Mount::oauth`](super::Mount::oauth)), failed: `failure` says at
    /// which step and why.
    #[error("the MCP server `{server}` could not be authorized: {failure}")]
    Authorization {
        /// The mount's name for the server.
        server: String,
        /// What failed.
        failure: super::OAuthFailure,
    },
    /// The server did not list its tools.
    #[error("the MCP server `{server}` did not list its tools: {reason}")]
    List {
        /// The mount's name for the server.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// The server listed more tools than the mount takes
    /// ([`Mount::max_tools`](super::Mount::max_tools)): a server filling
    /// the registry and the model's context. None of its tools is
    /// mounted.
    #[error(
        "the MCP server `{server}` lists more tools than a mount takes: {listed} read before \
         the listing was stopped, at most {max} taken; raise the limit with \
         `Mount::max_tools` if they are all wanted"
    )]
    TooManyTools {
        /// The mount's name for the server.
        server: String,
        /// How many tools had been read when the listing was stopped:
        /// the server lists at least this many.
        listed: usize,
        /// The most the mount takes.
        max: usize,
    },
    /// A rule of the mount's [`Compose`](tool_core::toolset::Compose)
    /// cannot be applied to the server's tools.
    #[error("the tools of the MCP server `{server}` cannot join the registry: {error}")]
    Registry {
        /// The mount's name for the server.
        server: String,
        /// What the registry said.
        error: RegistryError,
    },
    /// Tools of the server would have, after the mount's rules, names
    /// that tools in the registry already hold: a server's tool would
    /// otherwise be left out without a word, or a rename would mount
    /// nothing. [`Mount::lenient`](super::Mount::lenient) leaves out each
    /// that clashes and mounts the others.
    #[error(
        "the MCP server `{server}` lists tools whose names the registry already holds: {}; \
         give them other names (`Compose::prefix`, `Compose::rename`), leave them out \
         (`Compose::deny`), or mount with `Mount::lenient` to leave out each that clashes",
        backticked(tools)
    )]
    Clash {
        /// The mount's name for the server.
        server: String,
        /// The names, as the mount's rules made them.
        tools: Vec<String>,
    },
}

/// `a`, `b`: names as the errors show them.
fn backticked(names: &[String]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
