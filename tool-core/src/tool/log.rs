//! What a running call writes to its log ([`ToolContext::log`]): the
//! level, as MCP's logging has it, and the event a context's listener
//! hears; the line goes to `tracing` as well.
//!
//! [`ToolContext::log`]: crate::ToolContext::log

use std::fmt;
use std::str::FromStr;

/// How much a log line matters: the eight levels of RFC 5424's syslog,
/// as MCP's `notifications/message` and `logging/setLevel` name them,
/// from [`Debug`](LogLevel::Debug) (least) to
/// [`Emergency`](LogLevel::Emergency) (most). The order is that of
/// importance: `LogLevel::Warning > LogLevel::Info`.
///
/// ```
/// use tool_core::observe::LogLevel;
///
/// assert!(LogLevel::Error > LogLevel::Warning);
/// assert_eq!(LogLevel::Notice.as_str(), "notice");
/// assert_eq!("critical".parse::<LogLevel>(), Ok(LogLevel::Critical));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Details for whoever debugs the tool.
    Debug,
    /// What the tool is doing.
    Info,
    /// Normal, but worth noticing.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the system failed.
    Critical,
    /// Someone must act now.
    Alert,
    /// The system cannot be used.
    Emergency,
}

impl LogLevel {
    /// Every level, least important first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name as MCP spells it: `"debug"`, `"warning"`, ...
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the eight levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLogLevel(pub String);

impl fmt::Display for UnknownLogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a log level; the levels are debug, info, notice, warning, error, critical, alert and emergency",
            self.0
        )
    }
}

impl std::error::Error for UnknownLogLevel {}

impl FromStr for LogLevel {
    type Err = UnknownLogLevel;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == name)
            .ok_or_else(|| UnknownLogLevel(name.to_owned()))
    }
}

/// A line a running call has written with
/// [`ToolContext::log`](crate::ToolContext::log), as a context's own
/// listener hears it
/// ([`ContextBuilder::log_listener`](crate::context::ContextBuilder::log_listener)):
/// an MCP server sends it to the client as `notifications/message` when
/// the client asked for lines of its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallLog<'a> {
    /// The tool that wrote it; none when the context is not a call's.
    pub tool: Option<&'a str>,
    /// How much it matters.
    pub level: LogLevel,
    /// The line.
    pub message: &'a str,
}

/// A listener of one caller's log lines.
pub(crate) type LogListener = dyn Fn(&CallLog<'_>) + Send + Sync;

/// Writes a line to `tracing`, at the nearest of its levels: the five
/// levels past `warning` are its ERROR, `notice` its INFO.
pub(crate) fn trace(tool: Option<&str>, level: LogLevel, message: &str) {
    let log_level = level.as_str();
    match level {
        LogLevel::Debug => tracing::debug!(tool, log_level, "{message}"),
        LogLevel::Info | LogLevel::Notice => tracing::info!(tool, log_level, "{message}"),
        LogLevel::Warning => tracing::warn!(tool, log_level, "{message}"),
        LogLevel::Error | LogLevel::Critical | LogLevel::Alert | LogLevel::Emergency => {
            tracing::error!(tool, log_level, "{message}");
        }
    }
}
