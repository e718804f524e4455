//! A task whose runner stopped, read on another process: each way it ends.
//! The stopped runner is a record naming an owner whose lease was never
//! written, as one killed long ago.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tool_core::store::{MemoryStore, Store, When};
use tool_core::{ToolContext, ToolRegistry, tool};

use super::record::{Input, Status, TaskRecord, key, new_id};
use super::{Form, TaskOwner};
use crate::McpServer;

#[derive(Default)]
struct App {
    thumbnails: AtomicUsize,
}

/// Render a video.
#[tool(long_running)]
async fn render(name: String) -> String {
    format!("rendered {name}")
}

/// Make a thumbnail.
#[tool(long_running, idempotent)]
async fn thumbnail(ctx: &ToolContext<App>, image: String) -> String {
    ctx.state().thumbnails.fetch_add(1, Ordering::SeqCst);
    format!("thumbnail of {image} with {:?}", ctx.scopes())
}

fn server(store: &MemoryStore, app: &Arc<App>) -> McpServer<App> {
    let registry = ToolRegistry::new().with(Render).with(Thumbnail);
    McpServer::new(registry, ToolContext::from_arc(Arc::clone(app)))
        .with_config(crate::McpConfig::new().with_store(store.clone()))
}

/// A task of `tool`, working on a process that stopped.
async fn left(store: &MemoryStore, tool: &str, change: impl FnOnce(&mut TaskRecord)) -> String {
    let mut record = TaskRecord::new(
        Form::Extension,
        TaskOwner::Anyone.key(),
        tool,
        60_000,
        "stopped",
    );
    change(&mut record);
    let id = new_id(Form::Extension, record.deadline_ms());
    store
        .put(&key(&id), record.to_bytes(), record.ttl(), When::Absent)
        .await
        .expect("written");
    id
}

/// Reads the task through `server` until it has ended.
async fn ended(server: &McpServer<App>, id: &str) -> TaskRecord {
    for _ in 0..200 {
        let record = server
            .tasks
            .read(server, &TaskOwner::Anyone, id)
            .await
            .expect("read");
        if record.status != Status::Working {
            return record;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {id} never ended")
}

fn error_message(record: &TaskRecord) -> String {
    assert_eq!(record.status, Status::Failed);
    let message = record.error.as_ref().expect("an error")["message"]
        .as_str()
        .expect("text")
        .to_owned();
    assert_eq!(record.message.as_deref(), Some(message.as_str()));
    message
}

#[tokio::test]
async fn a_task_of_a_tool_not_marked_idempotent_fails_saying_so() {
    let store = MemoryStore::new();
    let app = Arc::new(App::default());
    let server = server(&store, &app);
    let id = left(&store, "render", |_| {}).await;
    let first = server
        .tasks
        .read(&server, &TaskOwner::Anyone, &id)
        .await
        .expect("read");
    assert_eq!(
        first.message.as_deref(),
        Some("adopted: the process that ran it stopped")
    );
    assert_eq!(
        error_message(&ended(&server, &id).await),
        "the process that ran this task stopped before it finished (its lease in the store \
         lapsed); it was not run again, since tool `render` is not marked idempotent; call the \
         tool again if it is still needed"
    );
}

#[tokio::test]
async fn an_idempotent_tool_runs_again_once_with_the_scopes_it_had() {
    let store = MemoryStore::new();
    let app = Arc::new(App::default());
    let server = server(&store, &app);
    let input = Input {
        arguments: json!({"image": "cat.png"}),
        scopes: vec!["images:read".to_owned()],
    };
    let id = left(&store, "thumbnail", |record| {
        record.input = Some(input.clone())
    })
    .await;
    let record = ended(&server, &id).await;
    assert_eq!(record.status, Status::Completed, "{record:?}");
    assert_eq!(
        record.result.as_ref().expect("a result")["content"][0]["text"],
        "thumbnail of cat.png with [\"images:read\"]"
    );
    assert_eq!(record.reruns, 1);
    assert_eq!(app.thumbnails.load(Ordering::SeqCst), 1);

    // Run again once, and that process stopped too: not a third time.
    let twice = left(&store, "thumbnail", |record| {
        record.input = Some(input.clone());
        record.reruns = 1;
    })
    .await;
    assert_eq!(
        error_message(&ended(&server, &twice).await),
        "the process that ran this task stopped before it finished, and so did the one that ran \
         it again; it is not run a third time; call the tool again if it is still needed"
    );
    assert_eq!(app.thumbnails.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_server_that_makes_each_context_runs_nothing_again_without_a_hook() {
    let store = MemoryStore::new();
    let app = Arc::new(App::default());
    let made = Arc::clone(&app);
    let server = server(&store, &app)
        .with_context_fn(move |_request| ToolContext::from_arc(Arc::clone(&made)));
    let input = Input {
        arguments: json!({"image": "dog.png"}),
        scopes: Vec::new(),
    };
    let id = left(&store, "thumbnail", |record| record.input = Some(input)).await;
    assert_eq!(
        error_message(&ended(&server, &id).await),
        "the process that ran this task stopped before it finished; it was not run again: this \
         server makes each request's context itself (McpServer::with_context_fn) and has no \
         McpServer::with_rerun_context; call the tool again if it is still needed"
    );
    assert_eq!(app.thumbnails.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_task_whose_cancel_was_asked_ends_cancelled() {
    let store = MemoryStore::new();
    let app = Arc::new(App::default());
    let server = server(&store, &app);
    let id = left(&store, "render", |record| record.cancel = true).await;
    let record = ended(&server, &id).await;
    assert_eq!(record.status, Status::Cancelled);
    assert_eq!(
        record.message.as_deref(),
        Some("cancelled; the process that ran it had already stopped")
    );
}

#[tokio::test]
async fn a_task_the_store_lost_is_failed_until_its_deadline_then_unknown() {
    let store = MemoryStore::new();
    let app = Arc::new(App::default());
    let server = server(&store, &app);
    let id = new_id(Form::Spec2025, super::record::now_ms() + 60_000);
    let record = server
        .tasks
        .read(&server, &TaskOwner::Anyone, &id)
        .await
        .expect("read");
    assert_eq!(
        error_message(&record),
        format!(
            "task {id} was lost: the memory store no longer holds it (it was emptied or \
             restarted while the task ran); call the tool again if it is still needed"
        )
    );
    let past = new_id(Form::Spec2025, super::record::now_ms() - 1);
    let error = server
        .tasks
        .read(&server, &TaskOwner::Anyone, &past)
        .await
        .expect_err("unknown");
    assert_eq!(error.message, format!("unknown task: {past}"));
}
