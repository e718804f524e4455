//! Every call runs in a `tool_call` span carrying the tool's name and the
//! call's id (recorded once the arguments are read). Alone in its test binary: tracing caches per call site whether
//! anyone listens, and tests running beside it on other threads would race
//! with the subscriber installed here.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_core::{ToolContext, ToolRegistry, call_id, tool};

/// Get the weather.
#[tool(tier = Observe)]
fn get_weather(city: String) -> String {
    city
}

/// Records the spans opened, with their fields.
#[derive(Default)]
struct SpanLog(Mutex<Vec<String>>);

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
        let mut log = self.0.0.lock().expect("lock");
        log.push(fields.0);
        tracing::span::Id::from_u64(log.len() as u64)
    }
    fn record(&self, id: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut log = self.0.0.lock().expect("lock");
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
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
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
    let id = call_id("get_weather", &json!({"city": "Oslo"}));
    assert_eq!(
        *log.0.lock().expect("lock"),
        [format!("tool_call tool=get_weather call_id={id}")]
    );
}
