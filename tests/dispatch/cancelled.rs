//! A call its caller cancels before the tool starts never starts: not while
//! it waits for a tool's turn, for approval, for the calls before it in a
//! batch, nor when the caller had cancelled before calling.
//!
//! Each tool counts its runs; a call that should not start must leave the
//! count where it was and end with the `Cancelled` error's text.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tokio::sync::Notify;
use tool_core::context::CancellationToken;
use tool_core::context::ContextBuilder;
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
use tool_core::registry::RegistryBuilder;
use tool_core::registry::{Batch, ToolCall};
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult, tool};

/// What the tools share: how often each ran, and what lets a run end.
#[derive(Default)]
struct Desk {
    writes: AtomicUsize,
    appends: AtomicUsize,
    /// Lets the first `write` end.
    release: Notify,
    /// Told when a `write` has begun.
    begun: Notify,
}

/// Write a note, one call at a time; the first waits to be released.
#[tool]
async fn write(ctx: &ToolContext<Desk>, text: String) -> String {
    let desk = ctx.state();
    if desk.writes.fetch_add(1, Ordering::SeqCst) == 0 {
        desk.begun.notify_one();
        desk.release.notified().await;
    }
    format!("wrote {text}")
}

/// Append to the log; runs at once.
#[tool(concurrency_safe)]
fn append(ctx: &ToolContext<Desk>, text: String) -> String {
    ctx.state().appends.fetch_add(1, Ordering::SeqCst);
    format!("appended {text}")
}

/// How often `ping` ran.
static PINGS: AtomicUsize = AtomicUsize::new(0);

/// Answer; runs at once, and reads its arguments straight from their text.
#[tool(concurrency_safe)]
fn ping(text: String) -> String {
    PINGS.fetch_add(1, Ordering::SeqCst);
    text
}

/// Delete a note, once a person approves.
#[tool(tier = Confirm, concurrency_safe)]
fn delete(ctx: &ToolContext<Desk>, id: u32) -> String {
    ctx.state().appends.fetch_add(1, Ordering::SeqCst);
    format!("deleted {id}")
}

/// A person who answers only when told to, and then approves.
struct SlowPerson {
    asked: Notify,
    answer: Notify,
}

impl ApprovalHook<Desk> for Arc<SlowPerson> {
    async fn approve(&self, _: &ApprovalRequest<'_, Desk>) -> Approval {
        self.asked.notify_one();
        self.answer.notified().await;
        Approval::Approve
    }
}

fn registry() -> ToolRegistry<Desk> {
    ToolRegistry::new()
        .with(Write)
        .with(Append)
        .with(Ping)
        .with(Delete)
}

fn cancelled_text(tool: &str) -> String {
    format!("the call to tool `{tool}` was cancelled before it started; the tool did not run")
}

fn assert_cancelled(result: &ToolResult, tool: &str) {
    assert!(result.is_error(), "{}", result.model_text());
    assert_eq!(result.model_text(), cancelled_text(tool));
    assert_eq!(
        result.tool_error(),
        Some(&ToolError::Cancelled {
            tool: tool.to_owned()
        })
    );
}

#[tokio::test]
async fn a_call_cancelled_while_it_waits_for_the_tools_turn_never_starts() {
    let registry = Arc::new(registry());
    let ctx = ToolContext::new(Desk::default());
    let first = tokio::spawn({
        let (registry, ctx) = (Arc::clone(&registry), ctx.clone());
        async move { registry.call(&ctx, "write", json!({"text": "a"})).await }
    });
    ctx.state().begun.notified().await;
    // The second call waits for the first's turn to end.
    let token = CancellationToken::new();
    let waiting = ContextBuilder::from(ctx.clone())
        .cancellation(token.clone())
        .build();
    let second = tokio::spawn({
        let registry = Arc::clone(&registry);
        async move { registry.call(&waiting, "write", json!({"text": "b"})).await }
    });
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!second.is_finished(), "the second call waits for its turn");
    token.cancel();
    let second = second.await.expect("the second call");
    assert_cancelled(&second, "write");
    ctx.state().release.notify_one();
    assert_eq!(first.await.expect("the first call").model_text(), "wrote a");
    assert_eq!(ctx.state().writes.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_call_cancelled_while_it_waits_for_approval_never_starts() {
    let person = Arc::new(SlowPerson {
        asked: Notify::new(),
        answer: Notify::new(),
    });
    let registry = Arc::new(
        RegistryBuilder::from(registry())
            .approval(Arc::clone(&person))
            .build(),
    );
    let token = CancellationToken::new();
    let ctx = ToolContext::builder(Desk::default())
        .cancellation(token.clone())
        .build();
    let call = tokio::spawn({
        let (registry, ctx) = (Arc::clone(&registry), ctx.clone());
        async move { registry.call(&ctx, "delete", json!({"id": 7})).await }
    });
    person.asked.notified().await;
    token.cancel();
    // The approval that comes after the cancel changes nothing.
    person.answer.notify_one();
    assert_cancelled(&call.await.expect("the call"), "delete");
    assert_eq!(ctx.state().appends.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_call_cancelled_while_earlier_calls_of_its_batch_run_never_starts() {
    let registry = Arc::new(
        RegistryBuilder::from(registry())
            .batch(Batch::Sequential)
            .build(),
    );
    let token = CancellationToken::new();
    let ctx = ToolContext::builder(Desk::default())
        .cancellation(token.clone())
        .build();
    let batch = tokio::spawn({
        let (registry, ctx) = (Arc::clone(&registry), ctx.clone());
        async move {
            registry
                .call_all(
                    &ctx,
                    [
                        ToolCall::new("write", json!({"text": "a"})),
                        ToolCall::new("append", json!({"text": "b"})),
                        ToolCall::new("write", json!({"text": "c"})),
                    ],
                )
                .await
        }
    });
    ctx.state().begun.notified().await;
    token.cancel();
    // The running call is the tool's to end; it ends as it likes.
    ctx.state().release.notify_one();
    let results = batch.await.expect("the batch");
    assert_eq!(results[0].model_text(), "wrote a");
    assert_cancelled(&results[1], "append");
    assert_cancelled(&results[2], "write");
    assert_eq!(ctx.state().writes.load(Ordering::SeqCst), 1);
    assert_eq!(ctx.state().appends.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_call_whose_caller_has_cancelled_already_never_starts() {
    let registry = RegistryBuilder::from(registry())
        .approval(tool_core::policy::ApproveAll)
        .build();
    let token = CancellationToken::new();
    token.cancel();
    let ctx = ToolContext::builder(Desk::default())
        .cancellation(token)
        .build();
    for (tool, arguments) in [
        ("append", json!({"text": "a"})),
        ("ping", json!({"text": "a"})),
        // Read from its text, as OpenAI sends it.
        ("ping", json!(r#"{"text": "a"}"#)),
        ("write", json!({"text": "b"})),
        ("delete", json!({"id": 1})),
    ] {
        assert_cancelled(&registry.call(&ctx, tool, arguments).await, tool);
    }
    assert_eq!(ctx.state().writes.load(Ordering::SeqCst), 0);
    assert_eq!(ctx.state().appends.load(Ordering::SeqCst), 0);
    assert_eq!(PINGS.load(Ordering::SeqCst), 0);
}

#[test]
fn a_context_changed_after_cloning_shares_the_callers_token() {
    let ctx = ToolContext::new(());
    let scoped = ContextBuilder::from(ctx.clone())
        .scopes(["notes:read"])
        .build();
    let listening = ContextBuilder::from(scoped.clone())
        .progress_listener(|_: &tool_core::observe::CallProgress<'_>| {})
        .build();
    assert!(!scoped.is_cancelled());
    ctx.cancellation().cancel();
    assert!(scoped.is_cancelled() && listening.is_cancelled());
    assert!(scoped.cancellation().is_cancelled());
}
