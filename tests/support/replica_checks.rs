//! What the fault tests of `tests/mcp_replicas.rs` expect: the exact
//! messages of tasks a killed replica or a restarted Redis left, and the
//! checks made of them in both forms of tasks.

use std::time::{Duration, Instant};

use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use crate::replica_clients::{Clients, Form, message, status};

/// Long enough for anything expected, on two shared cores.
pub(crate) const WITHIN: Duration = Duration::from_secs(30);

pub(crate) const FORMS: [Form; 2] = [Form::Extension, Form::Spec2025];

/// What a task whose replica was killed says, when its tool may not run
/// twice.
pub(crate) const NOT_IDEMPOTENT: &str = "the process that ran this task stopped before it finished (its \
     lease in the store lapsed); it was not run again, since tool `render` is not marked \
     idempotent; call the tool again if it is still needed";

/// What a task run again says, when the replica that ran it again was
/// killed too.
pub(crate) const SO_DID: &str = "the process that ran this task stopped before it finished, and so did the \
     one that ran it again; it is not run a third time; call the tool again if it is still needed";

pub(crate) fn lost_task(task_id: &str) -> String {
    format!(
        "task {task_id} was lost: the redis store no longer holds it (it was emptied or \
         restarted while the task ran); call the tool again if it is still needed"
    )
}

pub(crate) fn started_on(k: usize) -> String {
    format!("1/2: started on replica-{k}")
}

/// A failed task's status message and error, in either form: both say
/// `why` (2025-11-25's `tasks/get` has no `error`).
pub(crate) fn assert_failed(task: &Value, why: &str) {
    assert_eq!(status(task), "failed", "{task}");
    assert_eq!(message(task), why, "{task}");
    if let Some(error) = task.get("error") {
        assert_eq!(error, &json!({"code": -32603, "message": why}), "{task}");
    }
}

/// `bob` is told that `task_id` does not exist, by every replica, in
/// every request of either form.
pub(crate) async fn assert_unknown_to(bob: &Clients, task_id: &str) {
    let unknown = Err((
        ErrorCode::INVALID_PARAMS,
        format!("unknown task: {task_id}"),
    ));
    let id = json!({"taskId": task_id});
    for k in 0..3 {
        for form in FORMS {
            assert_eq!(bob.get(form, k, task_id).await, unknown, "replica {k}");
            assert_eq!(bob.cancel(form, k, task_id).await, unknown, "replica {k}");
        }
        let result = bob.request_2025(k, "tasks/result", id.clone()).await;
        assert_eq!(result, unknown, "replica {k}");
    }
}

/// Tries `attempt` until it gives `Ok`, for at most 5 s: connections to a
/// Redis started again, and the replicas' leases, come back within that.
pub(crate) async fn retried<T>(
    what: &str,
    mut attempt: impl AsyncFnMut() -> Result<T, String>,
) -> T {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        match attempt().await {
            Ok(done) => return done,
            Err(_) if Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(error) => panic!("{what} still fails: {error}"),
        }
    }
}
