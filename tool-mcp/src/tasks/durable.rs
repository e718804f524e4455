//! Tasks kept by a [`TaskEngine`] rather than the store: started there,
//! read from there on every request, and shown as this crate's records so
//! that both forms answer about them as about any task. Nothing of them is
//! kept on this process: any replica with the same engine serves them.

use hyper::http::request::Parts;
use rmcp::model::{CallToolRequestParams, RequestId, Task};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use super::engine::{EngineError, EngineState, EngineTask, NewTask, TaskEngine};
use super::record::{Form, Status, TaskRecord};
use super::{CANCEL_ASKED, SESSION_ID, TaskOwner, keyed, unknown_task};
use crate::server::McpServer;
use crate::tools::answer::answer;

/// How `form` is kept by an engine.
fn form_name(form: Form) -> &'static str {
    match form {
        Form::Extension => "extension",
        Form::Spec2025 => "2025-11-25",
    }
}

/// Starts the call as a task on `engine`, for the request's caller: the
/// tool runs where the engine runs it, in the context the engine's side
/// makes (the caller's scopes are passed on), not in this request's. The
/// task, working; or why the engine did not take it.
pub(crate) async fn start<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    engine: &dyn TaskEngine,
    request: CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    form: Form,
) -> Result<Task, EngineError> {
    let caller = TaskOwner::of(context, server.config.verifier.is_some());
    let arguments = Value::Object(request.arguments.unwrap_or_default());
    let session = context
        .extensions
        .get::<Parts>()
        .and_then(|parts| parts.headers.get(&SESSION_ID))
        .map_or(&b""[..], |session| session.as_bytes());
    let key = request_key(&caller, session, &context.id, &request.name, &arguments);
    let task = NewTask {
        tool: request.name.to_string(),
        arguments,
        owner: caller.key(),
        form: form_name(form).to_owned(),
        key,
        scopes: server.context_for(context).scopes().to_vec(),
    };
    let task_id = engine.start(&task).await?;
    let record = TaskRecord::new(form, task.owner, &task.tool, server.tasks.ttl_ms, "");
    Ok(record.to_detailed(&task_id).task)
}

/// What makes a retried `tools/call` the same task: the caller, its HTTP
/// session, the request's JSON-RPC id, the tool and its arguments, hashed.
/// A caller who is anyone gets a random key: two strangers sending the
/// same request must not share one task.
fn request_key(
    caller: &TaskOwner,
    session: &[u8],
    request_id: &RequestId,
    tool: &str,
    arguments: &Value,
) -> String {
    if *caller == TaskOwner::Anyone {
        return uuid::Uuid::new_v4().simple().to_string();
    }
    let id = serde_json::to_vec(request_id).unwrap_or_default();
    let arguments = serde_json::to_vec(arguments).unwrap_or_default();
    let mut hash = Sha256::new();
    // Each part with its length: no two requests hash alike by moving
    // bytes from one part to the next.
    for part in [
        caller.key().as_bytes(),
        session,
        &id,
        tool.as_bytes(),
        &arguments,
    ] {
        hash.update(u64::try_from(part.len()).unwrap_or(u64::MAX).to_be_bytes());
        hash.update(part);
    }
    keyed("", &hash.finalize())
}

/// The task `task_id` as a record, for its owner: another caller's, or one
/// the engine does not know, is unknown.
pub(crate) async fn read(
    engine: &dyn TaskEngine,
    caller: &TaskOwner,
    task_id: &str,
    ttl_ms: u64,
) -> Result<TaskRecord, ErrorData> {
    let task = engine
        .get(task_id)
        .await
        .map_err(|error| cannot_read(task_id, &error))?
        .ok_or_else(|| unknown_task(task_id))?;
    if task.owner != caller.key() {
        return Err(unknown_task(task_id));
    }
    to_record(task, ttl_ms).ok_or_else(|| unknown_task(task_id))
}

/// `tasks/cancel`: the engine asked to stop the task, and the task as it
/// was when asked, saying the cancel was asked (`settled` then waits for
/// its end: cancelled, unless it ended first).
pub(crate) async fn cancel(
    engine: &dyn TaskEngine,
    caller: &TaskOwner,
    task_id: &str,
    ttl_ms: u64,
) -> Result<TaskRecord, ErrorData> {
    let record = read(engine, caller, task_id, ttl_ms).await?;
    if record.is_terminal() {
        return Ok(record);
    }
    engine
        .cancel(task_id)
        .await
        .map_err(|error| cannot_read(task_id, &error))?;
    // The task as it was when the cancel was asked, not read again: a
    // tool that stops at once has the task cancelled already, which would
    // read as a task that had ended before it was asked.
    let mut record = record;
    record.message = Some(CANCEL_ASKED.to_owned());
    Ok(record)
}

/// The task once it has ended, for its owner; as it is when `give_up` is
/// cancelled first.
pub(crate) async fn settled(
    engine: &dyn TaskEngine,
    caller: &TaskOwner,
    task_id: &str,
    ttl_ms: u64,
    give_up: &CancellationToken,
) -> Result<TaskRecord, ErrorData> {
    loop {
        let record = read(engine, caller, task_id, ttl_ms).await?;
        if record.is_terminal() {
            return Ok(record);
        }
        tokio::select! {
            waited = engine.wait(task_id) => {
                if let Err(error) = waited {
                    // Read again after a pause: an engine that cannot be
                    // reached is not asked in a busy loop.
                    tracing::debug!(%error, task_id, "waiting for a task failed");
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
            }
            () = give_up.cancelled() => return Ok(record),
        }
    }
}

/// The caller's tasks, a page after `cursor`.
pub(crate) async fn list(
    engine: &dyn TaskEngine,
    caller: &TaskOwner,
    cursor: Option<&str>,
    ttl_ms: u64,
) -> Result<(Vec<(String, TaskRecord)>, Option<String>), ErrorData> {
    let owner = caller.key();
    let page = engine.list(&owner, cursor).await.map_err(|error| {
        ErrorData::internal_error(format!("tasks cannot be listed now: {error}"), None)
    })?;
    let tasks = page
        .tasks
        .into_iter()
        // The engine was asked for the owner's: checked all the same.
        .filter(|task| task.owner == owner)
        .filter_map(|task| {
            let id = task.id.clone();
            to_record(task, ttl_ms).map(|record| (id, record))
        })
        .collect();
    Ok((tasks, page.next))
}

/// The engine's task as this crate's record; `None` for a form this crate
/// does not know (not a task it started).
fn to_record(task: EngineTask, ttl_ms: u64) -> Option<TaskRecord> {
    let form = match task.form.as_str() {
        "extension" => Form::Extension,
        "2025-11-25" => Form::Spec2025,
        _ => return None,
    };
    let mut record = TaskRecord::new(form, task.owner, "", ttl_ms, "");
    record.runner = None;
    record.created_at = task.created_at;
    record.updated_at = task.updated_at.clone();
    match task.state {
        EngineState::Working => {}
        EngineState::Completed(result) => match answer(&result) {
            Ok(answered) => {
                record.result = match serde_json::to_value(answered) {
                    Ok(Value::Object(result)) => Some(result),
                    _ => None,
                };
                record.end(Status::Completed, None);
            }
            Err(error) => record.fail(&error),
        },
        EngineState::Failed(reason) => record.fail(&ErrorData::internal_error(reason, None)),
        EngineState::Cancelled => record.end(Status::Cancelled, Some("cancelled".to_owned())),
    }
    // `end` stamps the time it is called: the engine's is the task's.
    record.updated_at = task.updated_at;
    Some(record)
}

/// The error for a task the engine cannot give now.
fn cannot_read(task_id: &str, error: &EngineError) -> ErrorData {
    ErrorData::internal_error(format!("task {task_id} cannot be read now: {error}"), None)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_retried_request_has_the_same_key_and_another_request_another() {
        let alice = TaskOwner::Token([1; 32]);
        let id = RequestId::Number(7);
        let args = json!({"name": "intro"});
        let key = request_key(&alice, b"s1", &id, "render", &args);
        assert_eq!(key.len(), 64);
        assert_eq!(key, request_key(&alice, b"s1", &id, "render", &args));
        let others = [
            request_key(&TaskOwner::Token([2; 32]), b"s1", &id, "render", &args),
            request_key(&alice, b"s2", &id, "render", &args),
            request_key(&alice, b"s1", &RequestId::Number(8), "render", &args),
            request_key(
                &alice,
                b"s1",
                &RequestId::String("7".into()),
                "render",
                &args,
            ),
            request_key(&alice, b"s1", &id, "export", &args),
            request_key(&alice, b"s1", &id, "render", &json!({"name": "outro"})),
        ];
        for other in others {
            assert_ne!(other, key);
        }
        // Anyone's identical requests are never one task.
        let anyone = |()| request_key(&TaskOwner::Anyone, b"", &id, "render", &args);
        assert_ne!(anyone(()), anyone(()));
    }
}
