//! How a task is kept in Restate, and read back: the invocation's
//! `idempotency-key` names the task's form, owner and request, and the
//! admin API's `sys_invocation` rows say where it is.

use serde_json::Value;
use tool_mcp::{EngineState, EngineTask};

/// What every idempotency key of a task starts with: an invocation sent
/// otherwise is no task.
const PREFIX: &str = "tool-mcp/";

/// The columns of `sys_invocation` a task is read from.
pub(super) const COLUMNS: &str =
    "id, status, completion_result, completion_failure, idempotency_key, created_at, modified_at";

/// The idempotency key of a task: its form, its owner and its request's
/// key, so that a task's owner is kept by Restate with the invocation
/// itself (and read back with it), and a retried request is the same
/// invocation.
pub(super) fn idempotency_key(form: &str, owner: &str, key: &str) -> String {
    format!("{PREFIX}{form}/{owner}/{key}")
}

/// The form and owner an idempotency key of [`idempotency_key`]'s names.
fn form_and_owner(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix(PREFIX)?;
    let (form, rest) = rest.split_once('/')?;
    let (owner, _) = rest.rsplit_once('/')?;
    Some((form, owner))
}

/// The `LIKE` pattern of the idempotency keys of `owner`'s tasks; `None`
/// for an owner with anything but letters, digits and `:` (no owner
/// tool-mcp makes), which would change the pattern.
pub(super) fn owner_pattern(owner: &str) -> Option<String> {
    plain(owner, b":").then(|| format!("{PREFIX}%/{owner}/%"))
}

/// Whether `text` is ASCII letters and digits, or one of `also`, only, and
/// not empty: what may be put in a query or a path as it is.
pub(super) fn plain(text: &str, also: &[u8]) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || also.contains(&byte))
}

/// A row read: the task, with `output` fetched for a completed one by
/// `fetch`; `None` for an invocation that is not a task.
pub(super) struct Row<'a> {
    pub(super) id: &'a str,
    pub(super) form: &'a str,
    pub(super) owner: &'a str,
    status: &'a str,
    result: Option<&'a str>,
    failure: Option<&'a str>,
    created_at: &'a str,
    modified_at: &'a str,
}

impl<'a> Row<'a> {
    /// The row of a task, or `None` for another invocation.
    pub(super) fn of(row: &'a Value) -> Option<Self> {
        let text = |column: &str| row.get(column).and_then(Value::as_str);
        let (form, owner) = form_and_owner(text("idempotency_key")?)?;
        let created_at = text("created_at").unwrap_or_default();
        Some(Self {
            id: text("id")?,
            form,
            owner,
            status: text("status").unwrap_or_default(),
            result: text("completion_result"),
            failure: text("completion_failure"),
            created_at,
            modified_at: text("modified_at").unwrap_or(created_at),
        })
    }

    /// Whether the invocation ended with a result to fetch.
    pub(super) fn succeeded(&self) -> bool {
        self.status == "completed" && self.result == Some("success")
    }

    /// The task, given the output of one that [`succeeded`](Row::succeeded).
    pub(super) fn task(&self, output: Option<tool_core::ToolResult>) -> EngineTask {
        let state = match (self.status, output) {
            (_, Some(output)) => EngineState::Completed(output),
            ("completed", None) => ended(self.failure),
            // Pending, scheduled, running, backing off, suspended or
            // paused: not ended.
            _ => EngineState::Working,
        };
        EngineTask::new(
            self.id,
            self.owner,
            self.form,
            state,
            timestamp(self.created_at),
        )
        .with_updated_at(timestamp(self.modified_at))
    }
}

/// How an invocation that completed without a result ended: cancelled, as
/// Restate says of one cancelled (`[409] cancelled`) or killed
/// (`[409] killed`), else failed with what Restate says.
fn ended(failure: Option<&str>) -> EngineState {
    match failure {
        Some(failure) if failure.starts_with("[409]") => EngineState::Cancelled,
        Some(failure) => EngineState::Failed(format!("the task's invocation failed: {failure}")),
        None => EngineState::Failed("the task's invocation failed".to_owned()),
    }
}

/// A time of the admin API (`2026-11-29 09:30:00.123`, UTC) in RFC 3339,
/// as MCP's tasks say times.
fn timestamp(time: &str) -> String {
    let time = time.replacen(' ', "T", 1);
    if time.ends_with('Z') || time.contains('+') || time.is_empty() {
        time
    } else {
        format!("{time}Z")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_key_keeps_the_form_and_owner() {
        let key = idempotency_key("extension", "t:0a1b", "9f9f");
        assert_eq!(key, "tool-mcp/extension/t:0a1b/9f9f");
        assert_eq!(form_and_owner(&key), Some(("extension", "t:0a1b")));
        assert_eq!(form_and_owner("booking-1"), None);
        assert_eq!(
            owner_pattern("anyone").as_deref(),
            Some("tool-mcp/%/anyone/%")
        );
        assert_eq!(owner_pattern("x' OR 1=1 --"), None);
    }

    #[test]
    fn a_row_is_a_task() {
        let row = json!({
            "id": "inv_1", "status": "completed", "completion_result": "failure",
            "completion_failure": "[409] cancelled",
            "idempotency_key": "tool-mcp/2025-11-25/anyone/ab",
            "created_at": "2026-11-29 09:30:00.123",
        });
        let task = Row::of(&row).expect("a task").task(None);
        assert_eq!(task.state, EngineState::Cancelled);
        assert_eq!(
            (task.form.as_str(), task.owner.as_str()),
            ("2025-11-25", "anyone")
        );
        assert_eq!(task.created_at, "2026-11-29T09:30:00.123Z");
        assert!(Row::of(&json!({"id": "inv_2", "status": "running"})).is_none());
    }
}
