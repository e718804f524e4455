//! A tool that reads its context, called with its arguments as a JSON
//! string (OpenAI's form) and run at once: it is lent a context that keeps
//! the call's text and shares the call only when something asks. Whatever
//! it asks for (its id, its token, progress, a clone that outlives the
//! call) must be what a call given a value gets.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tool_core::{ToolContext, ToolRegistry, tool};

/// What the tool hands out of the call.
#[derive(Default)]
struct App {
    /// A clone of the tool's context, kept past its call.
    kept: Mutex<Option<ToolContext<App>>>,
}

/// Say the call's id, and whether its progress is heard.
#[tool]
async fn whoami(
    ctx: &ToolContext<App>,
    /// Anything.
    word: String,
) -> String {
    ctx.progress(1.0, Some(2.0), format!("half of {word}"));
    format!(
        "{}|{}",
        ctx.call_id().unwrap_or("none"),
        ctx.progress_heard()
    )
}

/// Keep a clone of the context, then wait past the time limit.
#[tool(timeout = "50ms")]
async fn linger(ctx: &ToolContext<App>, seconds: u64) -> String {
    *ctx.state().kept.lock().expect("not poisoned") = Some(ctx.clone());
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    "woke".to_owned()
}

/// Add one to a number.
#[tool]
fn increment(ctx: &ToolContext<App>, n: u8) -> String {
    format!("{} {}", n + 1, ctx.call_id().unwrap_or("none"))
}

fn registry() -> ToolRegistry<App> {
    ToolRegistry::new()
        .with(Whoami)
        .with(Linger)
        .with(Increment)
}

fn text(value: &Value) -> Value {
    Value::String(value.to_string())
}

#[tokio::test]
async fn the_call_id_and_progress_are_the_same_from_text_as_from_a_value() {
    let registry = registry();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&heard);
    // The provider's call in a named conversation: the same id however
    // its arguments come.
    let ctx = ToolContext::builder(App::default())
        .conversation("chat")
        .call_id("call_1")
        .progress_listener(move |event| {
            seen.lock().expect("not poisoned").push(format!(
                "{} {}",
                event.call_id,
                event.message.unwrap_or_default()
            ));
        })
        .build();
    let args = json!({"word": "hello"});
    let from_value = registry.call(&ctx, "whoami", args.clone()).await;
    let from_text = registry.call(&ctx, "whoami", text(&args)).await;
    let id = from_value
        .as_text()
        .and_then(|text| text.strip_suffix("|true"))
        .expect("the id the tool saw")
        .to_owned();
    assert_eq!(id.len(), 32);
    assert_eq!(from_text.as_text(), from_value.as_text());
    assert_eq!(
        *heard.lock().expect("not poisoned"),
        [format!("{id} half of hello"), format!("{id} half of hello")]
    );
}

#[tokio::test]
async fn a_sync_tool_lent_its_context_reads_the_same_id() {
    let registry = registry();
    let ctx = ToolContext::builder(App::default())
        .conversation("chat")
        .call_id("call_1")
        .build();
    let args = json!({"n": 41});
    let from_value = registry.call(&ctx, "increment", args.clone()).await;
    let id = from_value
        .as_text()
        .and_then(|text| text.strip_prefix("42 "))
        .expect("the id the tool saw");
    assert_eq!(id.len(), 32);
    let result = registry.call(&ctx, "increment", text(&args)).await;
    assert_eq!(result.as_text(), Some(format!("42 {id}").as_str()));
}

#[tokio::test]
async fn a_bad_argument_read_from_text_is_refused_as_from_a_value() {
    let registry = registry();
    let ctx = ToolContext::new(App::default());
    let args = json!({"n": 300});
    let from_value = registry.call(&ctx, "increment", args.clone()).await;
    let from_text = registry.call(&ctx, "increment", text(&args)).await;
    assert!(from_value.is_error());
    assert!(from_text.is_error());
    assert_eq!(from_text.model_text(), from_value.model_text());
}

#[tokio::test]
async fn a_clone_kept_past_the_call_sees_its_time_run_out() {
    let registry = registry();
    let ctx = ToolContext::new(App::default());
    let args = json!({"seconds": 60});
    let result = registry.call(&ctx, "linger", text(&args)).await;
    assert_eq!(
        result.model_text(),
        "tool `linger` did not finish within 50ms and was stopped"
    );
    let kept = ctx
        .state()
        .kept
        .lock()
        .expect("not poisoned")
        .take()
        .expect("the tool kept its context");
    assert!(kept.is_cancelled(), "the kept context's call was cancelled");
    assert_eq!(kept.call_id().map(str::len), Some(32), "the call's id");
    // Its token fires for a task that waits on it.
    let (done, waited) = oneshot::channel();
    tokio::spawn(async move {
        kept.cancellation().cancelled().await;
        let _ = done.send(());
    });
    tokio::time::timeout(Duration::from_secs(5), waited)
        .await
        .expect("the token fired")
        .expect("the task answered");
}
