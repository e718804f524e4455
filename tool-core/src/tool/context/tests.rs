//! The context's own tests: what a tool sees of its call.

use std::sync::{Mutex, PoisonError};

use serde_json::json;

use super::*;

type Heard = (String, String, f64, Option<f64>, Option<String>);

#[test]
fn the_listener_hears_the_advancing_reports_of_calls_only() {
    let heard: Arc<Mutex<Vec<Heard>>> = Arc::default();
    let ctx = ToolContext::builder(())
        .progress_listener({
            let heard = Arc::clone(&heard);
            move |event: &CallProgress<'_>| {
                let message = event.message.map(str::to_owned);
                let event = (
                    event.tool.to_owned(),
                    event.call_id.to_owned(),
                    event.done,
                    event.total,
                    message,
                );
                heard
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(event);
            }
        })
        .build();
    ctx.progress(1.0, None, "not a call's");
    let call = ctx.for_call(Arc::new(SharedCall::new(
        "index".into(),
        json!({"a": 1}),
        None,
    )));
    call.progress(1.0, Some(2.0), "a.md");
    call.progress(1.0, Some(2.0), "stale");
    call.progress(f64::NAN, None, None);
    call.progress(2.0, Some(f64::INFINITY), None);
    let id = call.call_id().expect("the call's id").to_owned();
    assert_eq!(
        *heard.lock().unwrap_or_else(PoisonError::into_inner),
        [
            (
                "index".to_owned(),
                id.clone(),
                1.0,
                Some(2.0),
                Some("a.md".to_owned())
            ),
            ("index".to_owned(), id, 2.0, None, None),
        ]
    );
}

#[test]
fn a_context_without_listener_shares_its_state_when_given_one() {
    let ctx = ToolContext::builder(7_u8).scopes(["files:read"]).build();
    let listening = ctx
        .clone()
        .with_progress_listener(|_: &CallProgress<'_>| {});
    assert!(Arc::ptr_eq(ctx.state_arc(), listening.state_arc()));
    assert!(listening.has_scope("files:read"));
    assert!(ctx.shared.progress.is_none());
}
