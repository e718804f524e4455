//! MCP tasks, in both forms clients speak: the `io.modelcontextprotocol/tasks`
//! extension (SEP-2663, protocol 2026-07-28) and the experimental tasks of
//! protocol 2025-11-25 (`params.task`, `tasks/result`, `tasks/list`; their
//! wire shapes are in `tasks_2025/`). A call of a `long_running` tool
//! made by a client that asks for a task is answered at once with a task,
//! which runs on as the registry's pending call; `tasks/get` reads it and
//! `tasks/cancel` cancels the call. Both forms share one store and one rule:
//! each task belongs to the caller that made it, and another caller's
//! request about it is told the task does not exist.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use hyper::HeaderMap;
use hyper::header::AUTHORIZATION;
use hyper::http::request::Parts;
use rmcp::model::{DetailedTask, Task};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData, RoleServer};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;
use tool_core::{ToolRegistry, ToolResult};

use crate::answer::answer;
use crate::report::Report;

/// Who made a request, as far as tasks go: the hash of its bearer token
/// when the server checks tokens, else its HTTP session, else nobody in
/// particular (stdio's one client, or stateless HTTP without tokens, where
/// a task's id, 122 random bits, is what keeps it private).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Caller {
    Token([u8; 32]),
    Session(String),
    Anyone,
}

impl Caller {
    /// The caller of a request; `authenticated` when the server requires
    /// bearer tokens, so that the token, not the session, is who calls.
    pub(crate) fn of(request: &RequestContext<RoleServer>, authenticated: bool) -> Self {
        match request.extensions.get::<Parts>() {
            Some(parts) => Self::of_headers(&parts.headers, authenticated),
            None => Caller::Anyone,
        }
    }

    /// The caller of an HTTP request with these headers.
    pub(crate) fn of_headers(headers: &HeaderMap, authenticated: bool) -> Self {
        if authenticated && let Some(token) = bearer(headers) {
            return Caller::Token(Sha256::digest(token.as_bytes()).into());
        }
        match headers
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
        {
            Some(session) => Caller::Session(session.to_owned()),
            None => Caller::Anyone,
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
}

/// The tasks of one server (shared by its clones) and who owns each.
#[derive(Default)]
pub(crate) struct Tasks {
    manager: TaskManager,
    owners: Mutex<Owners>,
}

/// Which form of MCP tasks a task was asked for in: what shape every answer
/// about it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// The `io.modelcontextprotocol/tasks` extension.
    Extension,
    /// Protocol 2025-11-25's tasks.
    Spec2025,
}

/// What the server keeps of a task besides the manager's state.
struct Entry {
    caller: Caller,
    form: Form,
    /// Closed when the task's call is over (its sender, held by the task's
    /// future, dropped): what `tasks/result` waits for.
    over: watch::Receiver<()>,
}

#[derive(Default)]
struct Owners {
    by_task: HashMap<String, Entry>,
    /// The size at which entries of tasks the manager has forgotten (past
    /// their time to live) are dropped, doubling with what stays.
    prune_at: usize,
}

/// The smallest owner table worth pruning.
const PRUNE_FROM: usize = 64;

impl Tasks {
    /// Makes a task of `call`, owned by `caller`, asked for in `form`, kept
    /// `ttl_ms` (rmcp's default when `None`).
    pub(crate) fn start<Ctx: Send + Sync + 'static>(
        &self,
        caller: Caller,
        form: Form,
        ttl_ms: Option<u64>,
        call: Call<Ctx>,
    ) -> Task {
        let (over, over_receiver) = watch::channel(());
        let run = |task: TaskContext| -> rmcp::task_manager::TaskFuture {
            Box::pin(follow(task, call, over))
        };
        let mut options = TaskOptions::new();
        if let Some(ttl_ms) = ttl_ms {
            options = options.with_ttl_ms(ttl_ms);
        }
        let task = self.manager.spawn(options, run);
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        if owners.by_task.len() >= owners.prune_at.max(PRUNE_FROM) {
            owners
                .by_task
                .retain(|id, _| self.manager.get_task(id).is_ok());
            owners.prune_at = owners.by_task.len() * 2;
        }
        let entry = Entry {
            caller,
            form,
            over: over_receiver,
        };
        owners.by_task.insert(task.task_id.clone(), entry);
        task
    }

    /// `tasks/get`: the task as its owner may see it.
    pub(crate) fn get(&self, caller: &Caller, task_id: &str) -> Result<DetailedTask, ErrorData> {
        self.check_owner(caller, task_id)?;
        self.manager.get_task(task_id)
    }

    /// `tasks/cancel`: cancels the task's call, for its owner.
    pub(crate) fn cancel(&self, caller: &Caller, task_id: &str) -> Result<(), ErrorData> {
        self.check_owner(caller, task_id)?;
        self.manager.cancel_task(task_id)
    }

    /// Whether `task_id` names a task of the extension's form that `caller`
    /// made: rmcp's own handler answers for it.
    pub(crate) fn is_extension_task_of(&self, task_id: &str, caller: &Caller) -> bool {
        let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        owners
            .by_task
            .get(task_id)
            .is_some_and(|entry| entry.form == Form::Extension && entry.caller == *caller)
    }

    /// The task once its call is over, for its owner: what 2025-11-25's
    /// `tasks/result` answers with, and its `tasks/cancel` after
    /// cancelling. Gives up, with the task as it is, when `give_up` is
    /// cancelled (the request was).
    pub(crate) async fn settled(
        &self,
        caller: &Caller,
        task_id: &str,
        give_up: &CancellationToken,
    ) -> Result<DetailedTask, ErrorData> {
        let mut over = self.check_owner(caller, task_id)?;
        // Nothing is ever sent: `changed` returns once the sender is
        // dropped, when the task's future has ended or been aborted.
        tokio::select! {
            _ = async { while over.changed().await.is_ok() {} } => {}
            () = give_up.cancelled() => return self.manager.get_task(task_id),
        }
        // The manager records the outcome right after the future returns,
        // in the same poll of its task: on a runtime of several threads it
        // may still be at it.
        loop {
            let task = self.manager.get_task(task_id)?;
            if task.status().is_terminal() {
                return Ok(task);
            }
            tokio::task::yield_now().await;
        }
    }

    /// The caller's tasks, oldest first, as `tasks/list` gives them.
    pub(crate) fn list(&self, caller: &Caller) -> Vec<Task> {
        let ids: Vec<String> = {
            let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
            owners
                .by_task
                .iter()
                .filter(|(_, entry)| entry.caller == *caller)
                .map(|(id, _)| id.clone())
                .collect()
        };
        let mut tasks: Vec<Task> = ids
            .iter()
            .filter_map(|id| self.manager.get_task(id).ok())
            .map(|detailed| detailed.task)
            .collect();
        tasks.sort_by(|a, b| (&a.created_at, &a.task_id).cmp(&(&b.created_at, &b.task_id)));
        tasks
    }

    /// Another caller's task is answered as no task at all, the error of
    /// an unknown id, so that its existence is not given away.
    fn check_owner(
        &self,
        caller: &Caller,
        task_id: &str,
    ) -> Result<watch::Receiver<()>, ErrorData> {
        let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        match owners.by_task.get(task_id) {
            Some(entry) if entry.caller == *caller => Ok(entry.over.clone()),
            _ => Err(unknown_task(task_id)),
        }
    }
}

/// The error for a task id the caller cannot see.
fn unknown_task(task_id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task: {task_id}"), None)
}

/// A call a task follows: the registry's pending call `call_id` (or, with
/// none, a call already answered by `result`), its cancellation `token`,
/// and the reports it sends, which become the task's status message.
pub(crate) struct Call<Ctx> {
    pub(crate) registry: Arc<ToolRegistry<Ctx>>,
    pub(crate) result: ToolResult,
    pub(crate) call_id: Option<String>,
    pub(crate) token: CancellationToken,
    pub(crate) reports: mpsc::UnboundedReceiver<Report>,
}

/// The life of a task: the call's reports as its status message until the
/// call's result comes (from the tool, or delivered by the application
/// with [`ToolRegistry::deliver`]), or until `tasks/cancel`.
async fn follow<Ctx: Send + Sync + 'static>(
    task: TaskContext,
    call: Call<Ctx>,
    _over: watch::Sender<()>,
) -> Result<rmcp::model::CallToolResult, TaskExit> {
    let Call {
        registry,
        result: pending,
        call_id,
        token,
        mut reports,
    } = call;
    let Some(call_id) = call_id else {
        return answer(&pending).map_err(TaskExit::Error);
    };
    let waited = {
        let wait = registry.wait(&call_id);
        tokio::pin!(wait);
        loop {
            tokio::select! {
                biased;
                waited = &mut wait => break Some(waited),
                () = task.cancelled() => break None,
                Some(report) = reports.recv() => task.set_status_message(report.status()),
            }
        }
    };
    let Some(waited) = waited else {
        token.cancel();
        // The cancelled call's result is still taken, so that the registry
        // forgets the call.
        tokio::spawn(async move { registry.wait(&call_id).await });
        return Err(TaskExit::Cancelled);
    };
    answer(&waited.unwrap_or(pending)).map_err(TaskExit::Error)
}
