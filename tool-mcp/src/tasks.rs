//! MCP tasks (the `io.modelcontextprotocol/tasks` extension): a call of a
//! `long_running` tool made by a client that takes tasks is answered at
//! once with a task, which runs on as the registry's pending call;
//! `tasks/get` reads it (with the call's result once there is one) and
//! `tasks/cancel` cancels the call. Each task belongs to the caller that
//! made it: another caller's `tasks/get` or `tasks/cancel` is told the
//! task does not exist.

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
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolRegistry, ToolResult};

use crate::call::{Report, answer};

/// Who made a request, as far as tasks go: the hash of its bearer token
/// when the server checks tokens, else its HTTP session, else nobody in
/// particular (stdio's one client, or stateless HTTP without tokens, where
/// a task's id, 122 random bits, is what keeps it private).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Caller {
    Token([u8; 32]),
    Session(String),
    Anyone,
}

impl Caller {
    /// The caller of a request; `authenticated` when the server requires
    /// bearer tokens, so that the token, not the session, is who calls.
    pub(crate) fn of(request: &RequestContext<RoleServer>, authenticated: bool) -> Self {
        let Some(parts) = request.extensions.get::<Parts>() else {
            return Caller::Anyone;
        };
        if authenticated && let Some(token) = bearer(&parts.headers) {
            return Caller::Token(Sha256::digest(token.as_bytes()).into());
        }
        match parts
            .headers
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

#[derive(Default)]
struct Owners {
    by_task: HashMap<String, Caller>,
    /// The size at which entries of tasks the manager has forgotten (past
    /// their time to live) are dropped, doubling with what stays.
    prune_at: usize,
}

/// The smallest owner table worth pruning.
const PRUNE_FROM: usize = 64;

impl Tasks {
    /// Makes a task of the pending call `call_id` of `registry`, owned by
    /// `caller`: it completes with the call's result, reports carried in
    /// `reports` become its status message, and `tasks/cancel` cancels
    /// `token`, the call's.
    pub(crate) fn start<Ctx: Send + Sync + 'static>(
        &self,
        caller: Caller,
        registry: Arc<ToolRegistry<Ctx>>,
        pending: ToolResult,
        call_id: String,
        token: CancellationToken,
        reports: mpsc::UnboundedReceiver<Report>,
    ) -> Task {
        let run = |task: TaskContext| -> rmcp::task_manager::TaskFuture {
            Box::pin(follow(task, registry, pending, call_id, token, reports))
        };
        let task = self.manager.spawn(TaskOptions::new(), run);
        let mut owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        if owners.by_task.len() >= owners.prune_at.max(PRUNE_FROM) {
            owners
                .by_task
                .retain(|id, _| self.manager.get_task(id).is_ok());
            owners.prune_at = owners.by_task.len() * 2;
        }
        owners.by_task.insert(task.task_id.clone(), caller);
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

    /// Another caller's task is answered as no task at all, the error of
    /// an unknown id, so that its existence is not given away.
    fn check_owner(&self, caller: &Caller, task_id: &str) -> Result<(), ErrorData> {
        let owners = self.owners.lock().unwrap_or_else(PoisonError::into_inner);
        match owners.by_task.get(task_id) {
            Some(owner) if owner == caller => Ok(()),
            _ => Err(ErrorData::invalid_params(
                format!("unknown task: {task_id}"),
                None,
            )),
        }
    }
}

/// The life of a task: the call's reports as its status message until the
/// call's result comes (from the tool, or delivered by the application
/// with [`ToolRegistry::deliver`]), or until `tasks/cancel`.
async fn follow<Ctx: Send + Sync + 'static>(
    task: TaskContext,
    registry: Arc<ToolRegistry<Ctx>>,
    pending: ToolResult,
    call_id: String,
    token: CancellationToken,
    mut reports: mpsc::UnboundedReceiver<Report>,
) -> Result<rmcp::model::CallToolResult, TaskExit> {
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
