//! What a replica knows of a task it runs again after the replica that ran
//! it stopped: no request, only the task's record
//! ([`McpServer::with_rerun_context`](crate::McpServer::with_rerun_context)
//! makes its context from it).

use tool_core::ToolContext;

use crate::tasks::record::TaskRecord;

/// Makes the context a task run again on this process runs in.
pub(crate) type RerunFn<Ctx> = dyn Fn(&TaskOrigin) -> Option<ToolContext<Ctx>> + Send + Sync;

/// What is known of a task run again on a process other than the one its
/// client asked: there is no request to make its context from, only what
/// the task's record keeps. See [`McpServer::with_rerun_context`](crate::McpServer::with_rerun_context).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct TaskOrigin {
    /// The tool the task runs.
    pub tool: String,
    /// The scopes its first run had (the token's, when the server checks
    /// tokens); the context made is given them whatever it says.
    pub scopes: Vec<String>,
    /// Who asked for it, as its record names the caller: `t:<SHA-256 of
    /// the bearer token, hex>`, `s:<SHA-256 of the HTTP session id, hex>`,
    /// or `anyone`.
    pub caller: String,
}

impl TaskOrigin {
    pub(crate) fn new(record: &TaskRecord) -> Self {
        Self {
            tool: record.tool.clone(),
            scopes: record
                .input
                .as_ref()
                .map(|input| input.scopes.clone())
                .unwrap_or_default(),
            caller: record.caller.clone(),
        }
    }
}
