//! Where a task runs when not on the process that was asked: an engine of
//! durable execution, which keeps each task itself, so that any replica
//! reads, waits for and cancels it, and none has to be alive for it to
//! finish ([`McpConfig::with_tasks`](crate::McpConfig::with_tasks)).
//! `tool_restate::RestateTasks` (feature `mcp`) is one, on Restate.
//!
//! The engine keeps what each task needs; this crate keeps the rules: who
//! may see a task (its owner, compared on every request), what MCP answers
//! in either form, and the errors' words.

use std::fmt;

use serde_json::Value;
use tool_core::{BoxFuture, ToolResult};

/// An engine that runs tasks' calls durably, and keeps them: a task started
/// through one replica is read, waited for, cancelled and listed through
/// any other with the same engine.
///
/// Every method may be called on any replica, at any time, for any id a
/// client sends: an id the engine does not know is `Ok(None)`, not an
/// error. The owner of a task is kept by the engine and handed back with
/// it; this crate shows a task only to its owner, and tells anyone else it
/// does not exist.
///
/// ```
/// use tool_core::BoxFuture;
/// use tool_mcp::{EngineError, EnginePage, EngineTask, McpConfig, NewTask, TaskEngine};
///
/// /// An engine that takes no task (a stand-in for a real one).
/// #[derive(Debug)]
/// struct Closed;
///
/// impl TaskEngine for Closed {
///     fn start<'a>(&'a self, _: &'a NewTask) -> BoxFuture<'a, Result<String, EngineError>> {
///         Box::pin(async { Err(EngineError::new("closed for the night")) })
///     }
///     fn get<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<EngineTask>, EngineError>> {
///         Box::pin(async { Ok(None) })
///     }
///     fn wait<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<(), EngineError>> {
///         Box::pin(async { Ok(()) })
///     }
///     fn cancel<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<(), EngineError>> {
///         Box::pin(async { Ok(()) })
///     }
///     fn list<'a>(&'a self, _: &'a str, _: Option<&'a str>)
///         -> BoxFuture<'a, Result<EnginePage, EngineError>> {
///         Box::pin(async { Ok(EnginePage::default()) })
///     }
/// }
///
/// let config = McpConfig::new().with_tasks(Closed);
/// # drop(config);
/// ```
pub trait TaskEngine: fmt::Debug + Send + Sync + 'static {
    /// Starts `task` and gives its id, once it is kept: the same
    /// [`key`](NewTask::key) given again (a client's retried request)
    /// gives the task it started, without starting another. The id is what
    /// clients name the task by; it should not be guessable where the
    /// owner is `anyone`.
    fn start<'a>(&'a self, task: &'a NewTask) -> BoxFuture<'a, Result<String, EngineError>>;

    /// The task `task_id` as it is now, `None` when the engine has none of
    /// that id (never had, or forgot it).
    fn get<'a>(
        &'a self,
        task_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<EngineTask>, EngineError>>;

    /// Returns once the task may have ended, or after a while (a minute at
    /// most): the caller reads it again ([`get`](TaskEngine::get)) and
    /// waits again while it works. Dropped when the waiting request is.
    fn wait<'a>(&'a self, task_id: &'a str) -> BoxFuture<'a, Result<(), EngineError>>;

    /// Asks the task to stop: a cancelled task ends
    /// [`Cancelled`](EngineState::Cancelled), when the engine has stopped
    /// its run. Asking for one that has ended changes nothing.
    fn cancel<'a>(&'a self, task_id: &'a str) -> BoxFuture<'a, Result<(), EngineError>>;

    /// The tasks of `owner` still kept, oldest first, a page after
    /// `cursor` (a [`next`](EnginePage::next) it gave before).
    fn list<'a>(
        &'a self,
        owner: &'a str,
        cursor: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EnginePage, EngineError>>;
}

/// A task to start: a call of a tool, for an owner.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct NewTask {
    /// The tool called.
    pub tool: String,
    /// Its arguments, as the client sent them (the engine's registry
    /// checks them).
    pub arguments: Value,
    /// Who may see the task, to keep beside it and hand back with it:
    /// `t:<SHA-256 of the bearer token, hex>`, `s:<SHA-256 of the HTTP
    /// session id, hex>`, or `anyone` (as [`TaskOrigin::caller`](crate::TaskOrigin::caller)).
    /// Only ASCII letters, digits and `:`.
    pub owner: String,
    /// The form the task was asked in, to keep and hand back unchanged:
    /// `extension` or `2025-11-25`.
    pub form: String,
    /// What makes a retried request the same task: a hash, in hex, of the
    /// owner, the HTTP session, the JSON-RPC request's id, the tool and
    /// its arguments; random when the owner is `anyone`, as two strangers'
    /// identical requests must not share a task.
    pub key: String,
    /// The scopes the caller's context has (its bearer token's), for the
    /// engine to pass to the tool's context.
    pub scopes: Vec<String>,
}

/// Where a task is in its life, and how it ended.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum EngineState {
    /// Running, or waiting to run.
    Working,
    /// Ended with the call's result (a tool's error is a result too).
    Completed(ToolResult),
    /// Ended without a result: the engine's reason.
    Failed(String),
    /// Stopped by a cancel.
    Cancelled,
}

/// A task as the engine keeps it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EngineTask {
    /// Its id.
    pub id: String,
    /// Its owner, as [`NewTask::owner`] gave it.
    pub owner: String,
    /// Its form, as [`NewTask::form`] gave it.
    pub form: String,
    /// Where it is.
    pub state: EngineState,
    /// When it was started, RFC 3339.
    pub created_at: String,
    /// When it last changed, RFC 3339.
    pub updated_at: String,
}

impl EngineTask {
    /// The task `id` of `owner`, asked in `form`, in `state`, started and
    /// last changed at `created_at` (RFC 3339).
    pub fn new(
        id: impl Into<String>,
        owner: impl Into<String>,
        form: impl Into<String>,
        state: EngineState,
        created_at: impl Into<String>,
    ) -> Self {
        let created_at = created_at.into();
        Self {
            id: id.into(),
            owner: owner.into(),
            form: form.into(),
            state,
            updated_at: created_at.clone(),
            created_at,
        }
    }

    /// The same task, last changed at `updated_at` (RFC 3339).
    #[must_use]
    pub fn with_updated_at(mut self, updated_at: impl Into<String>) -> Self {
        self.updated_at = updated_at.into();
        self
    }
}

/// A page of an owner's tasks.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct EnginePage {
    /// The tasks, oldest first.
    pub tasks: Vec<EngineTask>,
    /// The cursor of the next page, if there are more.
    pub next: Option<String>,
}

impl EnginePage {
    /// A page of `tasks`, and the cursor of the next page if there are
    /// more.
    pub fn new(tasks: Vec<EngineTask>, next: Option<String>) -> Self {
        Self { tasks, next }
    }
}

/// An engine that cannot answer now (unreachable, or answering what it
/// should not): the clients are told the task cannot be read now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EngineError(String);

impl EngineError {
    /// The error, saying `reason`.
    pub fn new(reason: impl fmt::Display) -> Self {
        Self(reason.to_string())
    }
}
