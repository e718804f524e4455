//! Every call runs in a `tool_call` span carrying the tool's name and the
//! call's id (recorded once the arguments are read), and a tool's progress
//! is a DEBUG event inside it. Alone in its test binary: tracing caches per
//! call site whether anyone listens, and tests running beside it on other
//! threads would race with the subscriber installed here.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Index the document, reporting half way and at the end.
#[tool(tier = Observe)]
async fn index(ctx: &ToolContext, document: String) -> String {
    ctx.progress(1.0, Some(2.0), "half way");
    ctx.progress(2.0, None, None);
    document
}

/// Get the weather.
#[tool(tier = Observe)]
fn get_weather(city: String) -> String {
    city
}

/// Records the spans opened and the events, with their fields.
#[derive(Default)]
struct SpanLog {
    spans: Mutex<Vec<String>>,
    /// Each event, with the span it happened in.
    events: Mutex<Vec<String>>,
    /// The ids of the spans entered on the test's one thread, innermost
    /// last.
    entered: Mutex<Vec<u64>>,
}

struct Fields(String);

impl tracing::field::Visit for Fields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!(" {}={:?}", field.name(), value));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push_str(&format!(" {}={}", field.name(), value));
    }
}

/// The log as the dispatcher holds it.
struct Spans(Arc<SpanLog>);

impl tracing::Subscriber for Spans {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut fields = Fields(span.metadata().name().to_owned());
        span.record(&mut fields);
        let mut log = self.0.spans.lock().expect("lock");
        log.push(fields.0);
        tracing::span::Id::from_u64(log.len() as u64)
    }
    fn record(&self, id: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut log = self.0.spans.lock().expect("lock");
        let Some(line) = usize::try_from(id.into_u64())
            .ok()
            .and_then(|at| log.get_mut(at - 1))
        else {
            return;
        };
        let mut fields = Fields(std::mem::take(line));
        values.record(&mut fields);
        *line = fields.0;
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        let span = self
            .0
            .entered
            .lock()
            .expect("lock")
            .last()
            .and_then(|id| usize::try_from(*id).ok())
            .and_then(|at| self.0.spans.lock().expect("lock").get(at - 1).cloned())
            .unwrap_or_else(|| "no span".to_owned());
        self.0
            .events
            .lock()
            .expect("lock")
            .push(format!("{} in {span}", fields.0.trim_start()));
    }
    fn enter(&self, id: &tracing::span::Id) {
        self.0.entered.lock().expect("lock").push(id.into_u64());
    }
    fn exit(&self, _: &tracing::span::Id) {
        self.0.entered.lock().expect("lock").pop();
    }
}

#[test]
fn every_call_runs_in_a_tool_call_span() {
    let log = Arc::new(SpanLog::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    tracing::subscriber::with_default(Spans(Arc::clone(&log)), || {
        runtime.block_on(async {
            let registry: ToolRegistry = ToolRegistry::new().with(GetWeather);
            registry
                .call(
                    &ToolContext::new(()),
                    "get_weather",
                    json!({"city": "Oslo"}),
                )
                .await;
        });
    });
    let spans = log.spans.lock().expect("lock").clone();
    assert_eq!(spans.len(), 1);
    let id = spans[0]
        .strip_prefix("tool_call tool=get_weather call_id=")
        .expect("the call's span");
    assert!(
        id.len() == 32 && id.bytes().all(|byte| byte.is_ascii_hexdigit()),
        "{id}"
    );
}

#[test]
fn progress_is_a_debug_event_in_the_calls_span() {
    let log = Arc::new(SpanLog::default());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    tracing::subscriber::with_default(Spans(Arc::clone(&log)), || {
        runtime.block_on(async {
            let registry: ToolRegistry = ToolRegistry::new().with(Index);
            let ctx = ToolContext::new(());
            registry
                .call(&ctx, "index", json!({"document": "a.md"}))
                .await;
            // Outside a registry call: no event.
            ctx.progress(3.0, None, "unheard");
        });
    });
    let spans = log.spans.lock().expect("lock").clone();
    assert_eq!(spans.len(), 1);
    let span = &spans[0];
    assert!(span.starts_with("tool_call tool=index call_id="), "{span}");
    assert_eq!(
        *log.events.lock().expect("lock"),
        [
            format!("message=tool progress done=1.0 total=2.0 progress_message=half way in {span}"),
            format!("message=tool progress done=2.0 in {span}"),
        ]
    );
}
