//! Pending calls kept in a store, as two processes sharing it see them
//! (two registries on one store): a call made by one is delivered to,
//! waited on and timed out by the other, runs once however many ask for
//! it, and comes back lost, not missing, when the store loses it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tool_core::registry::DeliveryError;
use tool_core::registry::RegistryBuilder;
use tool_core::store::Store;
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult, tool};

/// How many times `export` ran.
#[derive(Default)]
pub(crate) struct Runs(AtomicUsize);

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
fn pick_file(
    /// What the file is for.
    purpose: String,
) -> ToolResult {
    let _ = purpose;
    ToolResult::deferred()
}

/// Export a report; takes a while.
#[tool(long_running)]
async fn export(
    ctx: &ToolContext<Arc<Runs>>,
    /// Which report.
    report: String,
) -> String {
    ctx.state().0.fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(300)).await;
    format!("exported {report}")
}

/// The registries of two processes.
pub(crate) type Registries = (ToolRegistry<Arc<Runs>>, ToolRegistry<Arc<Runs>>);

/// Archive a mailbox; takes a second and a half.
#[tool(long_running)]
async fn archive(
    /// Whose mailbox.
    owner: String,
) -> String {
    tokio::time::sleep(Duration::from_millis(1500)).await;
    format!("archived {owner}'s mailbox")
}

/// Ask the user for a photo, once the camera has warmed up.
#[tool(long_running)]
async fn take_photo() -> ToolResult {
    tokio::time::sleep(Duration::from_millis(300)).await;
    ToolResult::deferred()
}

/// A registry of the tools, keeping its pending calls in `store`.
pub(crate) fn registry(store: impl Store) -> ToolRegistry<Arc<Runs>> {
    ToolRegistry::builder()
        .with(PickFile)
        .with(Export)
        .with(Archive)
        .with(TakePhoto)
        .store(store)
        .build()
}

/// Long enough for a record to cross a loopback connection on a busy
/// machine; a result that takes longer fails the test.
const WITHIN: Duration = Duration::from_secs(10);

async fn wait(registry: &ToolRegistry<Arc<Runs>>, id: &str) -> Option<ToolResult> {
    tokio::time::timeout(WITHIN, registry.pending().wait(id))
        .await
        .expect("the wait ends")
}

/// A client-run call made in one process is delivered in the other, and
/// either may take its result.
pub(crate) async fn a_call_made_here_is_delivered_there(
    here: ToolRegistry<Arc<Runs>>,
    there: ToolRegistry<Arc<Runs>>,
) {
    let ctx = ToolContext::new(Arc::new(Runs::default()));
    let pending = here
        .call(&ctx, "pick_file", json!({"purpose": "the invoice"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    assert_eq!(here.pending().ids(), [id.as_str()]);
    there
        .pending()
        .deliver(&id, ToolResult::text("invoice.pdf"))
        .await
        .expect("the call awaits its result, wherever it was made");
    assert_eq!(
        there
            .pending()
            .deliver(&id, ToolResult::text("again.pdf"))
            .await,
        Err(DeliveryError::NotAwaitingDelivery {
            call_id: id.clone()
        }),
        "one delivery"
    );
    let result = wait(&here, &id).await.expect("a result");
    assert_eq!(result.model_text(), "invoice.pdf");
    // The other waiters read it for a moment more, then it is forgotten.
    assert_eq!(
        wait(&there, &id).await.expect("a result").model_text(),
        "invoice.pdf"
    );
    assert!(
        here.pending().ids().is_empty(),
        "nothing runs here any more"
    );
    assert_eq!(
        there
            .pending()
            .deliver("call-never-made", ToolResult::text("?"))
            .await,
        Err(DeliveryError::UnknownCall {
            call_id: "call-never-made".into()
        })
    );
}

/// A long tool's own result, made where it runs, is waited on elsewhere;
/// the same call (the provider's `call_1` in one conversation) asked for
/// in both processes runs once.
pub(crate) async fn a_call_runs_once_and_its_result_is_read_anywhere(
    here: ToolRegistry<Arc<Runs>>,
    there: ToolRegistry<Arc<Runs>>,
) {
    let runs = Arc::new(Runs::default());
    let ctx = ToolContext::builder(Arc::clone(&runs))
        .conversation("conversation:1")
        .call_id("call_1")
        .build();
    let args = json!({"report": "q3"});
    let first = here.call(&ctx, "export", args.clone()).await;
    let second = there.call(&ctx, "export", args).await;
    let id = first.pending_call_id().expect("pending").to_owned();
    assert_eq!(second.pending_call_id(), Some(id.as_str()), "the same call");
    let result = wait(&there, &id).await.expect("a result");
    assert_eq!(result.model_text(), "exported q3");
    assert_eq!(runs.0.load(Ordering::SeqCst), 1, "one run for both");
}

/// A result never delivered ends the call with the timeout's error, which
/// a waiter in the other process sees (and would make itself, had the
/// process that made the call died).
pub(crate) async fn a_result_never_delivered_times_out_everywhere(
    here: ToolRegistry<Arc<Runs>>,
    there: ToolRegistry<Arc<Runs>>,
) {
    let here = RegistryBuilder::from(here)
        .pending_timeout(Duration::from_millis(400))
        .build();
    let ctx = ToolContext::new(Arc::new(Runs::default()));
    let pending = here
        .call(&ctx, "pick_file", json!({"purpose": "a timeout"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let result = wait(&there, &id).await.expect("a result");
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        format!("tool `pick_file` (call `{id}`) produced no result within 400ms")
    );
    assert!(matches!(
        result.tool_error(),
        Some(ToolError::PendingTimeout { .. })
    ));
}

/// A record the store loses while someone waits on it is a lost result,
/// which says so, not a missing one.
pub(crate) async fn a_record_the_store_loses_is_a_lost_result(
    store: impl Store,
    here: ToolRegistry<Arc<Runs>>,
) {
    let here = Arc::new(here);
    let ctx = ToolContext::new(Arc::new(Runs::default()));
    let pending = here
        .call(&ctx, "pick_file", json!({"purpose": "a lost record"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let waiting = tokio::spawn({
        let here = Arc::clone(&here);
        let id = id.clone();
        async move { wait(&here, &id).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(store.delete(&format!("call:{id}")).await.expect("delete"));
    let result = waiting.await.expect("joined").expect("a result");
    assert_eq!(
        result.model_text(),
        format!(
            "the result of tool `pick_file` (call `{id}`) was lost: its record is gone from the {} store, which was emptied or restarted; call the tool again if it is still needed",
            store.kind()
        )
    );
}

/// A process whose word that it lives went missing for a moment (as from
/// a store that restarted) is not taken for stopped: it says so again
/// within a second, and its call ends with its own result.
pub(crate) async fn a_living_process_missing_its_word_for_a_moment_is_not_stopped(
    store: impl Store,
    here: ToolRegistry<Arc<Runs>>,
    there: ToolRegistry<Arc<Runs>>,
) {
    let ctx = ToolContext::new(Arc::new(Runs::default()));
    let pending = here.call(&ctx, "archive", json!({"owner": "ada"})).await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let record = store
        .get(&format!("call:{id}"))
        .await
        .expect("get")
        .expect("recorded");
    let record: serde_json::Value = serde_json::from_slice(&record).expect("JSON");
    let owner = record["owner"].as_str().expect("an owner");
    assert!(
        store
            .delete(&format!("owner:{owner}"))
            .await
            .expect("delete")
    );
    let result = wait(&there, &id).await.expect("a result");
    assert_eq!(result.model_text(), "archived ada's mailbox");
}

/// A delivered result's media is bounded as the tool's own would be,
/// whether it was delivered while the tool ran or after it deferred.
pub(crate) async fn delivered_media_is_bounded_as_a_tools_own(
    here: ToolRegistry<Arc<Runs>>,
    there: ToolRegistry<Arc<Runs>>,
) {
    let here = RegistryBuilder::from(here).max_media_bytes(16).build();
    let there = RegistryBuilder::from(there).max_media_bytes(16).build();
    let ctx = ToolContext::new(Arc::new(Runs::default()));
    let photo = || ToolResult::parts([tool_core::output::Image::png(vec![0; 64]).into()]);
    for (tool, arguments) in [
        ("take_photo", json!({})),
        ("pick_file", json!({"purpose": "a photo"})),
    ] {
        let pending = here.call(&ctx, tool, arguments).await;
        let id = pending.pending_call_id().expect("pending").to_owned();
        there
            .pending()
            .deliver(&id, photo())
            .await
            .expect("delivered");
        let result = wait(&there, &id).await.expect("a result");
        assert_eq!(
            result.model_text(),
            format!(
                "tool `{tool}` returned image/png of 64 bytes, over the limit of 16 bytes for one media part, so its result was withheld"
            ),
        );
    }
}

/// A run that ends after its call was taken over by another process (this
/// one was taken for stopped) leaves the other's record as it is.
pub(crate) async fn a_run_taken_over_elsewhere_does_not_overwrite_it(
    store: impl Store,
    here: ToolRegistry<Arc<Runs>>,
) {
    let ctx = ToolContext::new(Arc::new(Runs::default()));
    let pending = here.call(&ctx, "archive", json!({"owner": "bob"})).await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let key = format!("call:{id}");
    let taken_over = serde_json::to_vec(&json!({
        "tool": "archive", "state": "running", "owner": "another-process", "until_ms": 0
    }))
    .expect("JSON");
    let minute = Duration::from_secs(60);
    assert!(
        store
            .put(
                &key,
                taken_over.clone(),
                minute,
                tool_core::store::When::Always
            )
            .await
            .expect("put")
    );
    // The run here ends after a second and a half.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        store.get(&key).await.expect("get"),
        Some(taken_over),
        "left as it is"
    );
    assert!(
        here.pending().ids().is_empty(),
        "nothing runs here any more"
    );
}
