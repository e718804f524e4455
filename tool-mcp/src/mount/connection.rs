//! The connection a mount's tools call through: the server's peer while
//! it is up, and, when it is not, why, and whether it comes back. What a
//! call tells the model of a server that went away depends on it: "try
//! again later" only where that comes true.

use std::sync::{Arc, PoisonError, RwLock};

use rmcp::model::{PaginatedRequestParams, Tool as Listed};
use rmcp::service::{Peer, RoleClient, ServiceError};

use super::deep::TooDeep;
use super::progress::Reports;
use super::questions::Desk;
use super::task_tools::TaskTools;

/// One connection to the server: its peer, and its calls' progress.
#[derive(Clone)]
pub(crate) struct ServerLink {
    pub(crate) peer: Peer<RoleClient>,
    pub(crate) reports: Arc<Reports>,
}

/// Why a server's tools are gone for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gone {
    /// The mount ended: dropped, or unmounted.
    Unmounted,
    /// The server's connection ended, and the mount does not start it
    /// again.
    Ended,
}

/// Why a listing of the server's tools was not taken.
#[derive(Debug)]
pub(crate) enum ListFailed {
    /// The server did not answer as MCP says.
    Service(ServiceError),
    /// It listed more tools than the mount takes: as many as were read.
    TooMany(usize),
}

pub(crate) struct Connection {
    pub(crate) server: Arc<str>,
    /// The tools the server's last listing said run as tasks.
    pub(crate) tasks: Arc<TaskTools>,
    /// The tools the server's last listing had nested too deep to read.
    pub(crate) too_deep: Arc<TooDeep>,
    /// The calls running, to which the server's questions go.
    pub(crate) desk: Arc<Desk>,
    /// Whether the server is started again when its connection ends.
    restarts: bool,
    state: RwLock<ConnectionState>,
}

enum ConnectionState {
    Up(ServerLink),
    /// Down for the reason given, being started again.
    Down(String),
    Gone(Gone),
}

impl Connection {
    pub(crate) fn new(
        server: Arc<str>,
        link: ServerLink,
        tasks: Arc<TaskTools>,
        too_deep: Arc<TooDeep>,
        desk: Arc<Desk>,
        restarts: bool,
    ) -> Self {
        Self {
            server,
            tasks,
            too_deep,
            desk,
            restarts,
            state: RwLock::new(ConnectionState::Up(link)),
        }
    }

    /// Every page of the server's tools, through `peer`, with which of
    /// them run as tasks noted on the way; no page more once they are more
    /// than `max`, so that a server listing without end is not read to
    /// its end.
    pub(crate) async fn list(
        &self,
        peer: &Peer<RoleClient>,
        max: usize,
    ) -> Result<Vec<Listed>, ListFailed> {
        self.tasks.clear();
        self.too_deep.take();
        let mut tools = Vec::new();
        let mut cursor = None;
        loop {
            let page = peer
                .list_tools(Some(PaginatedRequestParams::default().with_cursor(cursor)))
                .await
                .map_err(ListFailed::Service)?;
            tools.extend(page.tools);
            if tools.len() > max {
                return Err(ListFailed::TooMany(tools.len()));
            }
            cursor = page.next_cursor;
            if cursor.is_none() {
                return Ok(tools);
            }
        }
    }

    /// The connection to call through, or why a tool cannot be called:
    /// what follows "tool `x` is not available: ".
    pub(crate) fn link(&self) -> Result<ServerLink, String> {
        let server = &self.server;
        match &*self.state.read().unwrap_or_else(PoisonError::into_inner) {
            ConnectionState::Up(link) if !link.peer.is_transport_closed() => Ok(link.clone()),
            ConnectionState::Up(_) if self.restarts => Err(format!(
                "the MCP server `{server}` is down (its connection is closed)"
            )),
            ConnectionState::Down(why) => Err(format!("the MCP server `{server}` is down ({why})")),
            ConnectionState::Up(_) | ConnectionState::Gone(Gone::Ended) => Err(format!(
                "the MCP server `{server}` closed its connection and is not started again"
            )),
            ConnectionState::Gone(Gone::Unmounted) => {
                Err(format!("the MCP server `{server}` is no longer mounted"))
            }
        }
    }

    /// What the model reads when the connection closed during a call of
    /// `tool`, by the name the model called it.
    pub(crate) fn closed_during(&self, tool: &str) -> String {
        let server = &self.server;
        let gone = match &*self.state.read().unwrap_or_else(PoisonError::into_inner) {
            ConnectionState::Gone(gone) => Some(*gone),
            // The mount may not have noticed yet: it will do as it is set to.
            _ => (!self.restarts).then_some(Gone::Ended),
        };
        match gone {
            Some(Gone::Unmounted) => format!(
                "the call of `{tool}` ended with the mount of the MCP server `{server}`; \
                 its tools are no longer available"
            ),
            Some(Gone::Ended) => format!(
                "the MCP server `{server}` closed its connection during the call of `{tool}`; \
                 it is not started again, so its tools are no longer available"
            ),
            None => format!(
                "the MCP server `{server}` closed its connection during the call of `{tool}`; \
                 it is being started again: try again later"
            ),
        }
    }

    /// The server is back, through `link`; not after it is gone.
    pub(crate) fn up(&self, link: ServerLink) {
        self.set(ConnectionState::Up(link));
    }

    /// The server is down, for `why`, until [`Connection::up`]; not after
    /// it is gone.
    pub(crate) fn down(&self, why: String) {
        self.set(ConnectionState::Down(why));
    }

    /// The server's tools are gone for good; the first reason stays.
    pub(crate) fn gone(&self, gone: Gone) {
        self.set(ConnectionState::Gone(gone));
    }

    fn set(&self, next: ConnectionState) {
        let mut state = self.state.write().unwrap_or_else(PoisonError::into_inner);
        if !matches!(*state, ConnectionState::Gone(_)) {
            *state = next;
        }
    }
}
