//! Changing a registry while calls run on it, through a `RegistryHandle`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::sync::Notify;
use tool_core::registry::{Inserted, OnDuplicate, RegistryError};
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// Add two numbers.
#[tool(concurrency_safe)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Multiply two numbers.
#[tool(concurrency_safe)]
fn mul(a: i64, b: i64) -> i64 {
    a * b
}

/// Wait until the test lets the call go on.
#[tool(read_only)]
async fn wait_for_go(ctx: &ToolContext<Arc<Notify>>) -> String {
    ctx.state().notified().await;
    "went".to_owned()
}

/// Export, in the background; its result is delivered.
#[tool(long_running)]
fn export() -> ToolResult {
    ToolResult::deferred()
}

#[tokio::test]
async fn a_call_begun_before_its_tool_is_removed_finishes_and_the_next_is_unknown() {
    let go = Arc::new(Notify::new());
    let handle = RegistryHandle::new(ToolRegistry::new().with(WaitForGo).with(Add));
    let ctx = ToolContext::new(Arc::clone(&go));
    let running = tokio::spawn({
        let (handle, ctx) = (handle.clone(), ctx.clone());
        async move { handle.call(&ctx, "wait_for_go", json!({})).await }
    });
    // The call has begun: it waits inside the tool.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(handle.remove("wait_for_go"));
    assert!(!handle.remove("wait_for_go"), "removed once");
    go.notify_one();
    assert_eq!(running.await.unwrap().model_text(), "went");
    assert_eq!(
        handle
            .call(&ctx, "wait_for_g", json!({}))
            .await
            .model_text(),
        "unknown tool `wait_for_g`. Available tools: `add`."
    );
}

#[tokio::test]
async fn disabled_tools_are_out_of_the_list_and_refused_until_enabled() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add).with(Mul));
    let ctx = ToolContext::new(());
    assert!(handle.disable("add"));
    assert!(!handle.disable("add"), "disabled once");
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["mul"]);
    assert_eq!(
        handle
            .current()
            .tool_definitions()
            .iter()
            .map(|definition| definition.name.as_str())
            .collect::<Vec<_>>(),
        ["mul"]
    );
    let refused = handle.call(&ctx, "add", json!({"a": 1, "b": 2})).await;
    assert!(refused.is_error());
    assert_eq!(
        refused.model_text(),
        "tool `add` is not available: it is disabled; do not call it again"
    );
    // Its name stays taken.
    assert_eq!(
        handle.insert(Add, OnDuplicate::Error),
        Err(RegistryError::DuplicateName { name: "add".into() })
    );
    assert!(handle.enable("add"));
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["mul", "add"]);
    assert_eq!(
        handle
            .call(&ctx, "add", json!({"a": 1, "b": 2}))
            .await
            .model_text(),
        "3"
    );
}

#[tokio::test]
async fn every_change_is_a_version_and_a_failed_one_is_none() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let mut changes = handle.changes();
    let before = handle.current();
    assert_eq!(handle.version(), 0);
    assert_eq!(handle.insert(Mul, OnDuplicate::Error), Ok(Inserted::Added));
    assert_eq!(handle.version(), 1);
    let next = tokio::time::timeout(Duration::from_secs(5), changes.next())
        .await
        .expect("a change is seen");
    assert_eq!(next.names().collect::<Vec<_>>(), ["add", "mul"]);
    // The version taken before is as it was.
    assert_eq!(before.names().collect::<Vec<_>>(), ["add"]);

    assert!(handle.insert(Mul, OnDuplicate::Error).is_err());
    assert!(!handle.remove("sub"));
    assert!(!handle.enable("add"));
    assert_eq!(handle.version(), 1, "nothing changed, no version");
    let failed: Result<(), &str> = handle.try_update(|registry| {
        registry.remove("add");
        Err("changed my mind")
    });
    assert_eq!(failed, Err("changed my mind"));
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add", "mul"]);
    assert!(
        tokio::time::timeout(Duration::from_millis(50), changes.next())
            .await
            .is_err(),
        "no change to see"
    );
}

#[tokio::test]
async fn a_pending_call_is_delivered_and_waited_for_across_versions() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Export));
    let ctx = ToolContext::new(());
    let pending = handle.call(&ctx, "export", json!({})).await;
    assert!(pending.is_pending());
    let id = pending.pending_call_id().unwrap().to_owned();
    handle.insert(Add, OnDuplicate::Error).unwrap();
    assert!(handle.remove("export"), "even the tool may go");
    handle
        .deliver(&id, ToolResult::text("exported"))
        .await
        .unwrap();
    let result = tokio::time::timeout(Duration::from_secs(5), handle.wait(&id))
        .await
        .expect("the result comes")
        .expect("the call was pending");
    assert_eq!(result.model_text(), "exported");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_from_many_tasks_see_a_whole_version_while_another_changes_it() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let changer = tokio::spawn({
        let handle = handle.clone();
        async move {
            for round in 0..200 {
                if round % 2 == 0 {
                    handle.insert(Mul, OnDuplicate::Replace).unwrap();
                    handle.disable("add");
                } else {
                    handle.remove("mul");
                    handle.enable("add");
                }
                tokio::task::yield_now().await;
            }
        }
    });
    let callers: Vec<_> = (0..4)
        .map(|_| {
            let handle = handle.clone();
            tokio::spawn(async move {
                let ctx = ToolContext::new(());
                let mut seen = [0; 3];
                for _ in 0..500 {
                    let text = handle
                        .call(&ctx, "add", json!({"a": 2, "b": 3}))
                        .await
                        .model_text()
                        .into_owned();
                    match text.as_str() {
                        "5" => seen[0] += 1,
                        "tool `add` is not available: it is disabled; do not call it again" => {
                            seen[1] += 1;
                        }
                        other if other.starts_with("unknown tool `add`") => seen[2] += 1,
                        other => panic!("unexpected result: {other}"),
                    }
                }
                seen
            })
        })
        .collect();
    changer.await.unwrap();
    for caller in callers {
        let seen = caller.await.unwrap();
        assert_eq!(seen[2], 0, "`add` is never removed, only disabled");
        assert_eq!(seen[0] + seen[1], 500);
    }
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add"]);
}
