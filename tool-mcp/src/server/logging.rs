//! MCP's logging: what a tool writes with
//! [`ToolContext::log`](tool_core::ToolContext::log), sent to the client
//! as `notifications/message` at the levels it asked for.
//!
//! Sources: MCP 2025-11-25, Server utilities, Logging
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging>):
//! a server that logs declares `capabilities.logging`; `logging/setLevel`
//! sets the least level the client wants for its session. MCP 2026-07-28
//! (SEP-2575) has no session: a request names its level in
//! `_meta["io.modelcontextprotocol/logLevel"]`, and a request that names
//! none is sent no lines. rmcp marks logging deprecated (SEP-2577, which
//! moves it elsewhere in a later revision); the two revisions served here
//! both have it.

#![allow(deprecated)]

use rmcp::RoleServer;
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::RequestContext;
use serde_json::Value;
use tool_core::observe::{CallLog, LogLevel};

use crate::server::per_session::PerSession;

/// The level each session asked for with `logging/setLevel`, shared by
/// every clone of a server.
#[derive(Default)]
pub(crate) struct LogLevels {
    sessions: PerSession<Option<LogLevel>>,
}

impl LogLevels {
    /// Sets the level of the request's session; a request outside a
    /// session (2026-07-28) has nothing to set.
    pub(crate) fn set(&self, request: &RequestContext<RoleServer>, level: LoggingLevel) {
        self.sessions
            .update(request, |set| *set = Some(from_mcp(level)));
    }

    /// The least level a request's client wants lines of: the request's
    /// own, else its session's, else every line for a session that set
    /// none (2025-11-25 lets a server send them all); none for a request
    /// of 2026-07-28 that named no level.
    pub(crate) fn wanted(&self, request: &RequestContext<RoleServer>) -> Option<LogLevel> {
        if let Some(level) = request.meta.log_level() {
            return Some(from_mcp(level));
        }
        // A request that names its protocol version in `_meta` is one of
        // 2026-07-28's, outside any session.
        if request.meta.protocol_version().is_some() {
            return None;
        }
        request.peer.peer_info()?;
        let set = self.sessions.read(request, |set| *set).flatten();
        Some(set.unwrap_or(LogLevel::Debug))
    }
}

/// A line as `notifications/message` carries it: the tool that wrote it
/// is the logger, the line the data.
pub(crate) fn notification(log: &CallLog<'_>) -> LoggingMessageNotificationParam {
    let param = LoggingMessageNotificationParam::new(to_mcp(log.level), Value::from(log.message));
    match log.tool {
        Some(tool) => param.with_logger(tool),
        None => param,
    }
}

fn from_mcp(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

fn to_mcp(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}
