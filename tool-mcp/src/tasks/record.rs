//! A task as the store keeps it (`task:<id>`), and its id, which says in
//! which form it was asked for and until when it is kept.
//!
//! Every replica sharing the store reads and writes the same record: the
//! process that runs the task writes its status, message and end; any
//! process asks for its cancellation, or takes it over when its runner
//! stopped (`reap.rs`). Each change is made from the record as read
//! (`When::Equals`), so two processes never both move a task on.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::{DetailedTask, JsonObject, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::{DEFAULT_POLL_INTERVAL_MS, current_timestamp};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The time a runner or a reaper has, past a task's deadline, to record
/// its end before the record expires.
pub(crate) const SETTLE: Duration = Duration::from_secs(10);

/// What a task's record says once its time to live has run out while it
/// worked: rmcp's words, which clients of its task manager know.
pub(crate) const EXPIRED: &str = "task expired: TTL elapsed before completion";

/// Which form of MCP tasks a task was asked for in: what shape every answer
/// about it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Form {
    /// The `io.modelcontextprotocol/tasks` extension.
    #[serde(rename = "extension")]
    Extension,
    /// Protocol 2025-11-25's tasks.
    #[serde(rename = "2025-11-25")]
    Spec2025,
}

impl Form {
    fn letter(self) -> char {
        match self {
            Form::Extension => 'x',
            Form::Spec2025 => 's',
        }
    }
}

/// Where a task is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Working,
    Completed,
    Failed,
    Cancelled,
}

/// What a task was started with, kept while it works for a tool marked
/// `idempotent` only: what another process needs to run it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Input {
    pub(crate) arguments: Value,
    pub(crate) scopes: Vec<String>,
}

/// The record of a task, shared by every process that serves it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TaskRecord {
    pub(crate) v: u8,
    pub(crate) form: Form,
    /// Who may see it: [`Caller::key`](super::Caller::key).
    pub(crate) caller: String,
    pub(crate) tool: String,
    /// The registry's pending call the task follows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) call_id: Option<String>,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) created_ms: u64,
    pub(crate) ttl_ms: u64,
    pub(crate) status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// The process running it, while it works: a `Lease`'s owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) runner: Option<String>,
    /// How many times another process ran it again (at most once).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) reruns: u8,
    /// A `tasks/cancel` came, on any process.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) cancel: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) input: Option<Input>,
    /// The `CallToolResult` of a completed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<JsonObject>,
    /// The JSON-RPC error of a failed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<JsonObject>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl TaskRecord {
    /// A new task of `tool`, working on `runner`.
    pub(crate) fn new(form: Form, caller: String, tool: &str, ttl_ms: u64, runner: &str) -> Self {
        let now = current_timestamp();
        Self {
            v: 1,
            form,
            caller,
            tool: tool.to_owned(),
            call_id: None,
            created_at: now.clone(),
            updated_at: now,
            created_ms: now_ms(),
            ttl_ms,
            status: Status::Working,
            message: None,
            runner: Some(runner.to_owned()),
            reruns: 0,
            cancel: false,
            input: None,
            result: None,
            error: None,
        }
    }

    /// When the task's time to live runs out, in ms since the epoch.
    pub(crate) fn deadline_ms(&self) -> u64 {
        self.created_ms.saturating_add(self.ttl_ms)
    }

    pub(crate) fn is_terminal(&self) -> bool {
        self.status != Status::Working
    }

    /// How long the store keeps the record as it now is: a working task
    /// until its deadline and the time to record its end; an ended one
    /// its time to live from its end, as rmcp's task manager keeps it.
    pub(crate) fn ttl(&self) -> Duration {
        if self.is_terminal() {
            Duration::from_millis(self.ttl_ms)
        } else {
            Duration::from_millis(self.deadline_ms().saturating_sub(now_ms())) + SETTLE
        }
    }

    /// Ends the task: what only a working task needed is dropped.
    pub(crate) fn end(&mut self, status: Status, message: Option<String>) {
        self.status = status;
        if message.is_some() {
            self.message = message;
        }
        self.runner = None;
        self.input = None;
        self.touch();
    }

    /// Ends it failed with a JSON-RPC `error`, whose message is the status
    /// message too.
    pub(crate) fn fail(&mut self, error: &rmcp::ErrorData) {
        self.error = match serde_json::to_value(error) {
            Ok(Value::Object(error)) => Some(error),
            _ => None,
        };
        self.end(Status::Failed, Some(error.message.to_string()));
    }

    pub(crate) fn touch(&mut self) {
        self.updated_at = current_timestamp();
    }

    /// The task as MCP says it, with what its status carries.
    pub(crate) fn to_detailed(&self, task_id: &str) -> DetailedTask {
        let status = match self.status {
            Status::Working => TaskStatus::Working,
            Status::Completed => TaskStatus::Completed,
            Status::Failed => TaskStatus::Failed,
            Status::Cancelled => TaskStatus::Cancelled,
        };
        let mut task = Task::new(task_id, status, &self.created_at, &self.updated_at)
            .with_ttl_ms(self.ttl_ms)
            .with_poll_interval_ms(DEFAULT_POLL_INTERVAL_MS);
        if let Some(message) = &self.message {
            task = task.with_status_message(message);
        }
        let payload = match self.status {
            Status::Working => TaskPayload::Working,
            Status::Completed => TaskPayload::Completed {
                result: self.result.clone().unwrap_or_default(),
            },
            Status::Failed => TaskPayload::Failed {
                error: self.error.clone().unwrap_or_default(),
            },
            Status::Cancelled => TaskPayload::Cancelled,
        };
        DetailedTask::new(task, payload)
    }

    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a task record is always JSON")
    }

    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

/// The store's key of a task.
pub(crate) fn key(task_id: &str) -> String {
    format!("task:{task_id}")
}

/// A new task's id: 122 random bits (what keeps a task private where no
/// caller is known), then the form it was asked in and its deadline, so
/// that a process can route a request about it, and tell a task the store
/// lost from one that never was, from the id alone.
pub(crate) fn new_id(form: Form, deadline_ms: u64) -> String {
    format!(
        "{}-{}{deadline_ms:x}",
        uuid::Uuid::new_v4().simple(),
        form.letter()
    )
}

/// The form and deadline an id of [`new_id`]'s says, if it is one.
pub(crate) fn parse_id(task_id: &str) -> Option<(Form, u64)> {
    let (random, tail) = task_id.split_once('-')?;
    if random.len() != 32 || !random.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let form = match tail.chars().next()? {
        'x' => Form::Extension,
        's' => Form::Spec2025,
        _ => return None,
    };
    let deadline = u64::from_str_radix(&tail[1..], 16).ok()?;
    Some((form, deadline))
}

/// Milliseconds since the epoch, as deadlines are kept.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_id_says_its_form_and_deadline() {
        let id = new_id(Form::Extension, 1_796_121_300_123);
        assert_eq!(id.len(), 32 + 1 + 1 + 11);
        assert_eq!(parse_id(&id), Some((Form::Extension, 1_796_121_300_123)));
        let id = new_id(Form::Spec2025, 5);
        assert_eq!(parse_id(&id), Some((Form::Spec2025, 5)));
        for other in [
            "no-such-task",
            "",
            "0123456789abcdef0123456789abcdef",
            "0123456789abcdef0123456789abcdef-q1",
            "0123456789abcdef0123456789abcdeg-x1",
            "0123456789abcdef0123456789abcdef-x",
        ] {
            assert_eq!(parse_id(other), None, "{other}");
        }
    }

    #[test]
    fn a_record_is_written_as_documented() {
        let mut record = TaskRecord::new(Form::Extension, "anyone".into(), "render", 60_000, "r1");
        record.created_at = "2026-12-01T10:30:00Z".into();
        record.updated_at = "2026-12-01T10:30:01Z".into();
        record.created_ms = 1_796_121_000_123;
        record.call_id = Some("f7d3".into());
        record.message = Some("1/2: frames drawn".into());
        record.input = Some(Input {
            arguments: json!({"video": "intro"}),
            scopes: vec!["files:read".into()],
        });
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({
                "v": 1, "form": "extension", "caller": "anyone", "tool": "render",
                "call_id": "f7d3", "created_at": "2026-12-01T10:30:00Z",
                "updated_at": "2026-12-01T10:30:01Z", "created_ms": 1_796_121_000_123_u64,
                "ttl_ms": 60000, "status": "working", "message": "1/2: frames drawn",
                "runner": "r1",
                "input": {"arguments": {"video": "intro"}, "scopes": ["files:read"]},
            })
        );
        assert_eq!(
            TaskRecord::from_bytes(&record.to_bytes()),
            Some(record.clone())
        );
        record.end(Status::Cancelled, Some("cancelled".into()));
        let ended = serde_json::to_value(&record).unwrap();
        assert_eq!(ended["status"], "cancelled");
        assert!(ended.get("runner").is_none() && ended.get("input").is_none());
        assert_eq!(record.ttl(), Duration::from_millis(60_000));
    }
}
