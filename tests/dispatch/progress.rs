//! Progress from inside a tool (`ToolContext::progress`): what the
//! registry's observer receives, in order and with the call's id; the
//! reports that are dropped; and the contexts in which a report goes
//! nowhere. The tracing event is tested in `tracing_span.rs`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tool_core::observe::{CallFinished, CallObserver, CallProgress, CallStarted};
use tool_core::registry::ToolCall;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Work through the steps, reporting each.
#[tool(tier = Observe)]
async fn work(ctx: &ToolContext, steps: u32) -> String {
    ctx.progress(0.0, None, None);
    for step in 1..=steps {
        tokio::task::yield_now().await;
        let message = format!("step {step}");
        ctx.progress(f64::from(step), Some(f64::from(steps)), message.as_str());
    }
    format!("{steps} steps")
}

/// Report what cannot be sent, between what can.
#[tool(tier = Observe)]
fn misreport(ctx: &ToolContext) -> &'static str {
    ctx.progress(f64::NAN, Some(2.0), "not a number");
    ctx.progress(1.0, Some(f64::INFINITY), "an infinite total");
    ctx.progress(1.0, Some(2.0), "the same again");
    ctx.progress(0.5, Some(2.0), "backwards");
    ctx.progress(f64::INFINITY, None, "infinitely far");
    ctx.progress(2.0, Some(2.0), "done");
    "reported"
}

/// Build the parts in the background, a second each.
#[tool(tier = Observe, long_running)]
async fn build(ctx: &ToolContext, parts: u32) -> String {
    for part in 1..=parts {
        tokio::time::sleep(Duration::from_secs(1)).await;
        ctx.progress(f64::from(part), Some(f64::from(parts)), None);
    }
    format!("built {parts} parts")
}

/// Count the files, reporting as people write it: integers, `usize`s and
/// `u64`s, a `format!` message, a `&String`, no total.
#[tool(tier = Observe)]
fn count_files(ctx: &ToolContext, files: Vec<String>) -> usize {
    ctx.progress(0, files.len(), format!("{} files to count", files.len()));
    for (done, file) in files.iter().enumerate() {
        ctx.progress(done + 1, files.len(), file);
    }
    let skipped: Option<String> = Some("skipped none".to_owned());
    ctx.progress(files.len() as u64 + 1, None, skipped.as_deref());
    ctx.progress(10u8, 10i64, None);
    files.len()
}

/// Every event, one line each, the call id in full.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Recorder {
    fn events(&self) -> Vec<String> {
        self.0.lock().expect("lock").clone()
    }

    fn push(&self, line: String) {
        self.0.lock().expect("lock").push(line);
    }

    /// The id in the `at`-th event: a call's own, 32 hex digits.
    fn id(&self, at: usize) -> String {
        let events = self.events();
        let id = events[at].split(' ').nth(2).expect("an id").to_owned();
        assert_eq!(id.len(), 32, "{}", events[at]);
        id
    }
}

impl CallObserver for Recorder {
    fn call_started(&self, event: &CallStarted<'_>) {
        self.push(format!("start {} {}", event.tool, event.call_id));
    }
    fn call_progress(&self, event: &CallProgress<'_>) {
        self.push(format!(
            "progress {} {} {:?} {:?} {:?}",
            event.tool, event.call_id, event.done, event.total, event.message
        ));
    }
    fn call_finished(&self, event: &CallFinished<'_>) {
        self.push(format!(
            "finish {} {} {}",
            event.tool,
            event.call_id,
            event.outcome()
        ));
    }
}

fn observed() -> (ToolRegistry, Recorder) {
    let recorder = Recorder::default();
    let registry = ToolRegistry::builder()
        .with(Work)
        .with(Misreport)
        .with(Build)
        .with(CountFiles)
        .observer(recorder.clone())
        .build();
    (registry, recorder)
}

#[tokio::test]
async fn an_observer_receives_each_report_between_start_and_finish() {
    let (registry, recorder) = observed();
    let result = registry
        .call(&ToolContext::new(()), "work", json!({"steps": 2}))
        .await;
    assert_eq!(result.model_text(), "2 steps");
    let id = recorder.id(0);
    assert_eq!(
        recorder.events(),
        [
            format!("start work {id}"),
            format!("progress work {id} 0.0 None None"),
            format!("progress work {id} 1.0 Some(2.0) Some(\"step 1\")"),
            format!("progress work {id} 2.0 Some(2.0) Some(\"step 2\")"),
            format!("finish work {id} success"),
        ]
    );
}

#[tokio::test]
async fn reports_take_integers_and_owned_messages_as_people_pass_them() {
    let (registry, recorder) = observed();
    let args = json!({"files": ["a.md", "b.md"]});
    let result = registry
        .call(&ToolContext::new(()), "count_files", args.clone())
        .await;
    assert_eq!(result.model_text(), "2");
    let id = recorder.id(0);
    assert_eq!(
        recorder.events(),
        [
            format!("start count_files {id}"),
            format!("progress count_files {id} 0.0 Some(2.0) Some(\"2 files to count\")"),
            format!("progress count_files {id} 1.0 Some(2.0) Some(\"a.md\")"),
            format!("progress count_files {id} 2.0 Some(2.0) Some(\"b.md\")"),
            format!("progress count_files {id} 3.0 None Some(\"skipped none\")"),
            format!("progress count_files {id} 10.0 Some(10.0) None"),
            format!("finish count_files {id} success"),
        ]
    );
}

#[tokio::test]
async fn reports_that_do_not_advance_or_are_not_finite_are_dropped() {
    let (registry, recorder) = observed();
    let result = registry
        .call(&ToolContext::new(()), "misreport", json!({}))
        .await;
    assert_eq!(result.model_text(), "reported");
    let id = recorder.id(0);
    assert_eq!(
        recorder.events(),
        [
            format!("start misreport {id}"),
            format!("progress misreport {id} 1.0 None Some(\"an infinite total\")"),
            format!("progress misreport {id} 2.0 Some(2.0) Some(\"done\")"),
            format!("finish misreport {id} success"),
        ]
    );
}

#[tokio::test]
async fn each_call_of_a_batch_reports_under_its_own_id() {
    let (registry, recorder) = observed();
    let calls = [
        ToolCall::new("work", json!({"steps": 1})),
        ToolCall::new("work", json!({"steps": 2})),
    ];
    registry.call_all(&ToolContext::new(()), calls).await;
    let (one, two) = (recorder.id(0), recorder.id(4));
    assert_ne!(one, two);
    // `work` is neither read-only nor concurrency-safe: one call, then
    // the other, each counting from zero.
    assert_eq!(
        recorder.events(),
        [
            format!("start work {one}"),
            format!("progress work {one} 0.0 None None"),
            format!("progress work {one} 1.0 Some(1.0) Some(\"step 1\")"),
            format!("finish work {one} success"),
            format!("start work {two}"),
            format!("progress work {two} 0.0 None None"),
            format!("progress work {two} 1.0 Some(2.0) Some(\"step 1\")"),
            format!("progress work {two} 2.0 Some(2.0) Some(\"step 2\")"),
            format!("finish work {two} success"),
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_long_running_call_reports_from_the_background() {
    let (registry, recorder) = observed();
    let pending = registry
        .call(&ToolContext::new(()), "build", json!({"parts": 2}))
        .await;
    assert!(pending.is_pending());
    let id = pending.pending_call_id().expect("pending").to_owned();
    let result = registry
        .pending()
        .wait(&id)
        .await
        .expect("the call is pending");
    assert_eq!(result.model_text(), "built 2 parts");
    assert_eq!(
        recorder.events(),
        [
            format!("start build {id}"),
            format!("finish build {id} pending"),
            format!("progress build {id} 1.0 Some(2.0) None"),
            format!("progress build {id} 2.0 Some(2.0) None"),
            format!("finish build {id} success"),
        ]
    );
}

/// Panics on the first report it receives.
struct Fragile(Recorder);

impl CallObserver for Fragile {
    fn call_progress(&self, event: &CallProgress<'_>) {
        self.0.push(format!("progress {:?}", event.done));
        if event.done == 1.0 {
            panic!("the observer breaks");
        }
    }
}

#[tokio::test]
async fn a_panic_in_the_observer_leaves_the_call_and_later_reports_alone() {
    let recorder = Recorder::default();
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Work)
        .observer(Fragile(recorder.clone()))
        .build();
    let result = registry
        .call(&ToolContext::new(()), "work", json!({"steps": 2}))
        .await;
    assert_eq!(result.model_text(), "2 steps");
    assert_eq!(
        recorder.events(),
        ["progress 0.0", "progress 1.0", "progress 2.0"]
    );
}

#[tokio::test]
async fn without_an_observer_a_report_goes_nowhere_and_the_call_goes_on() {
    let registry: ToolRegistry = ToolRegistry::new().with(Work).with(Misreport);
    let ctx = ToolContext::new(());
    let result = registry.call(&ctx, "work", json!({"steps": 3})).await;
    assert_eq!(result.model_text(), "3 steps");
    let result = registry.call(&ctx, "misreport", json!({})).await;
    assert_eq!(result.model_text(), "reported");
}

#[tokio::test]
async fn outside_a_registry_call_a_report_goes_nowhere() {
    let ctx = ToolContext::builder(()).call_id("call_1").build();
    ctx.progress(1.0, Some(2.0), "nobody hears this");
    ctx.progress(f64::NAN, None, None);
    // The function `#[tool]` keeps, called as written.
    assert_eq!(work(&ctx, 2).await, "2 steps");
    assert_eq!(misreport(&ctx), "reported");
}
