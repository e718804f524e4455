//! The dispatch pipeline step by step, with the exact text the model
//! receives at each: unknown tools, raw arguments, validation,
//! deserialization, policy, execution, output; call ids, events and spans;
//! batches; pending calls.
//!
//! Time-dependent tests run on Tokio's paused clock: sleeps and timeouts
//! advance virtual time, so they are exact and never slow or flaky.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::context::ContextBuilder;
use tool_core::observe::{CallFinished, CallObserver, CallStarted};
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, ApproveAll};
use tool_core::registry::RegistryBuilder;
use tool_core::registry::Validation;
use tool_core::registry::{Batch, DeliveryError, ToolCall};
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult, TypedTool, Violation, tool};

/// Counts how often tool bodies run.
#[derive(Default)]
struct App {
    runs: AtomicUsize,
}

fn ctx() -> ToolContext<App> {
    ToolContext::new(App::default())
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Get the weather.
#[tool(tier = Observe)]
fn get_weather(
    ctx: &ToolContext<App>,
    /// City name.
    #[schemars(length(min = 1, max = 40))]
    city: String,
    /// Units.
    units: Option<Units>,
    /// Days ahead.
    #[schemars(range(max = 3))]
    #[serde(default)]
    days: u8,
) -> String {
    ctx.state().runs.fetch_add(1, Ordering::SeqCst);
    let units = match units {
        Some(Units::Fahrenheit) => "F",
        _ => "C",
    };
    format!("{city}: 21{units} in {days} days")
}

fn weather() -> ToolRegistry<App> {
    ToolRegistry::new().with(GetWeather)
}

fn error_of(result: &ToolResult) -> &ToolError {
    result
        .tool_error()
        .unwrap_or_else(|| panic!("expected an error kind: {result:?}"))
}

// 1. Unknown tool.

#[tokio::test]
async fn an_unknown_tool_names_the_tools_and_the_closest_match() {
    let registry = weather();
    let close = registry.call(&ctx(), "get_wheather", json!({})).await;
    assert_eq!(
        close.model_text(),
        "unknown tool `get_wheather`. Did you mean `get_weather`? Available tools: `get_weather`."
    );
    let far = registry.call(&ctx(), "send_email", json!({})).await;
    assert_eq!(
        far.model_text(),
        "unknown tool `send_email`. Available tools: `get_weather`."
    );
    assert!(matches!(
        error_of(&far),
        ToolError::UnknownTool {
            suggestion: None,
            ..
        }
    ));
}

// 2. Raw arguments.

#[tokio::test]
async fn arguments_come_as_an_object_or_as_a_json_string() {
    let registry = weather();
    let object = registry
        .call(&ctx(), "get_weather", json!({"city": "Oslo"}))
        .await;
    let string = registry
        .call(&ctx(), "get_weather", json!("{\"city\": \"Oslo\"}"))
        .await;
    assert_eq!(object.model_text(), "Oslo: 21C in 0 days");
    assert_eq!(string, object);
}

#[tokio::test]
async fn arguments_that_are_not_a_json_object_are_refused() {
    let registry = weather();
    let cases = [
        (
            json!("{\"city\": "),
            "the arguments for tool `get_weather` are not valid JSON (EOF while parsing a value at line 1 column 9); send them as a JSON object",
        ),
        (
            json!(["Oslo"]),
            "the arguments for tool `get_weather` are an array, not a JSON object; send them as a JSON object",
        ),
        (
            json!("42"),
            "the arguments for tool `get_weather` are a number, not a JSON object; send them as a JSON object",
        ),
    ];
    for (args, message) in cases {
        let result = registry.call(&ctx(), "get_weather", args).await;
        assert_eq!(result.model_text(), message);
        assert!(matches!(
            error_of(&result),
            ToolError::MalformedArguments { .. }
        ));
    }
}

#[tokio::test]
async fn arguments_over_the_size_limit_are_refused() {
    let registry = RegistryBuilder::from(weather())
        .max_argument_bytes(64)
        .build();
    let ctx = ctx();
    let small = registry
        .call(&ctx, "get_weather", json!({"city": "Oslo"}))
        .await;
    assert!(!small.is_error());
    let big = registry
        .call(&ctx, "get_weather", json!({"city": "x".repeat(100)}))
        .await;
    assert_eq!(
        big.model_text(),
        "the arguments for tool `get_weather` are over the limit of 64 bytes (at least 111); call it again with smaller arguments"
    );
    let big_string = registry
        .call(
            &ctx,
            "get_weather",
            Value::String(format!("{{\"city\": \"{}\"}}", "x".repeat(100))),
        )
        .await;
    assert!(matches!(
        error_of(&big_string),
        ToolError::ArgumentsTooLarge { limit: 64, .. }
    ));
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        tool_core::registry::DEFAULT_MAX_ARGUMENT_BYTES,
        1024 * 1024,
        "the documented default"
    );
}

// 3. Validation.

#[tokio::test]
async fn validation_reports_every_violation_with_its_path_at_once() {
    let registry = weather();
    let ctx = ctx();
    let result = registry
        .call(
            &ctx,
            "get_weather",
            json!({"units": "kelvin", "days": 7, "city": "", "wind": true}),
        )
        .await;
    assert_eq!(
        result.model_text(),
        "invalid arguments for tool `get_weather`: unknown argument `wind`; expected one of `city`, `units`, `days`; \
         argument `city` at `/city`: must be at least 1 characters long, got ``; \
         argument `units` at `/units`: expected one of `celsius`, `fahrenheit`, got `kelvin`; \
         argument `days` at `/days`: must be at most 3, got 7. \
         Correct the arguments and call the tool again."
    );
    match error_of(&result) {
        ToolError::InvalidArguments { tool, violations } => {
            assert_eq!(tool, "get_weather");
            let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
            assert_eq!(pointers, ["", "/city", "/units", "/days"]);
        }
        other => panic!("{other:?}"),
    }
    let missing = registry.call(&ctx, "get_weather", json!({})).await;
    assert_eq!(
        missing.model_text(),
        "invalid arguments for tool `get_weather`: missing argument `city`. Correct the arguments and call the tool again."
    );
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 0);
}

// 4. Deserialization.

#[tokio::test]
async fn the_tool_never_runs_on_arguments_its_input_type_refuses() {
    // The schema accepts any object; the input type does not.
    /// Add.
    #[tool(tier = Observe, schema = json!({"type": "object"}))]
    fn add(ctx: &ToolContext<App>, a: i64, b: i64) -> i64 {
        ctx.state().runs.fetch_add(1, Ordering::SeqCst);
        a + b
    }
    let registry = ToolRegistry::<App>::new().with(Add);
    let ctx = ctx();
    let result = registry.call(&ctx, "add", json!({"a": 1, "b": "2"})).await;
    assert_eq!(
        result.model_text(),
        "invalid arguments for tool `add`: argument `b` at `/b`: invalid type: string \"2\", expected i64. Correct the arguments and call the tool again."
    );
    assert_eq!(
        error_of(&result),
        &ToolError::InvalidArguments {
            tool: "add".into(),
            violations: vec![Violation::new(
                "/b",
                "invalid type: string \"2\", expected i64"
            )],
        }
    );
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 0);
    assert_eq!(
        registry
            .call(&ctx, "add", json!({"a": 1, "b": 2}))
            .await
            .model_text(),
        "3"
    );
}

// 5. Policy.

/// Delete a file.
#[tool(tier = Confirm, destructive)]
fn delete_file(ctx: &ToolContext<App>, path: String) -> String {
    ctx.state().runs.fetch_add(1, Ordering::SeqCst);
    format!("deleted {path}")
}

/// Records every request and approves paths under /tmp.
#[derive(Default, Clone)]
struct TmpOnly {
    seen: Arc<Mutex<Vec<(String, String, Value)>>>,
}

impl ApprovalHook<App> for TmpOnly {
    async fn approve(&self, request: &ApprovalRequest<'_, App>) -> Approval {
        self.seen.lock().expect("lock").push((
            request.tool.to_owned(),
            request.call_id.to_owned(),
            request.arguments.clone(),
        ));
        assert!(request.metadata.destructive);
        match request.arguments["path"].as_str() {
            Some(path) if path.starts_with("/tmp/") => Approval::Approve,
            _ => Approval::deny("only files under /tmp may be deleted"),
        }
    }
}

#[tokio::test]
async fn a_confirm_tool_without_an_approval_hook_is_denied() {
    let registry = ToolRegistry::<App>::new().with(DeleteFile);
    let ctx = ctx();
    let result = registry
        .call(&ctx, "delete_file", json!({"path": "/tmp/x"}))
        .await;
    assert_eq!(
        result.model_text(),
        "the call to tool `delete_file` was denied: it needs the application's approval, and no approval is possible here; do not call it again"
    );
    assert!(matches!(error_of(&result), ToolError::Denied { .. }));
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn the_approval_hook_decides_with_the_checked_arguments() {
    let hook = TmpOnly::default();
    let registry = ToolRegistry::<App>::builder()
        .with(DeleteFile)
        .approval(hook.clone())
        .build();
    let ctx = ctx();
    let denied = registry
        .call(&ctx, "delete_file", json!({"path": "/etc/passwd"}))
        .await;
    assert_eq!(
        denied.model_text(),
        "the call to tool `delete_file` was denied: only files under /tmp may be deleted"
    );
    let approved = registry
        .call(&ctx, "delete_file", json!("{\"path\": \"/tmp/x\"}"))
        .await;
    assert_eq!(approved.model_text(), "deleted /tmp/x");
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 1);
    let seen = hook.seen.lock().expect("lock").clone();
    assert_eq!(
        seen.iter()
            .map(|(tool, id, args)| (tool.as_str(), id.len(), args.clone()))
            .collect::<Vec<_>>(),
        [
            ("delete_file", 32, json!({"path": "/etc/passwd"})),
            ("delete_file", 32, json!({"path": "/tmp/x"})),
        ]
    );
    assert_ne!(seen[0].1, seen[1].1, "each call its own id");
    // Arguments that do not fit never reach the hook.
    let bad = registry.call(&ctx, "delete_file", json!({"path": 7})).await;
    assert!(matches!(error_of(&bad), ToolError::InvalidArguments { .. }));
    assert_eq!(hook.seen.lock().expect("lock").len(), 2);
}

#[tokio::test]
async fn required_scopes_must_be_granted() {
    /// Read a file.
    #[tool(tier = Observe, scopes = ["files:read", "files:list"])]
    fn read_file(path: String) -> String {
        path
    }
    let registry: ToolRegistry = ToolRegistry::new().with(ReadFile);
    let partial = ToolContext::builder(()).scopes(["files:read"]).build();
    let result = registry
        .call(&partial, "read_file", json!({"path": "a"}))
        .await;
    assert_eq!(
        result.model_text(),
        "tool `read_file` requires the scope `files:list`, which this caller does not have; do not call it again"
    );
    let full = ToolContext::builder(())
        .scopes(["files:list", "files:read", "net"])
        .build();
    assert_eq!(
        registry
            .call(&full, "read_file", json!({"path": "a"}))
            .await
            .model_text(),
        "a"
    );
}

/// A tool that is only available during office hours, by hand.
struct OfficeHours {
    open: bool,
}

#[derive(Deserialize, Serialize)]
struct NoArgs {}

impl TypedTool<App> for OfficeHours {
    type Input = NoArgs;
    type Output = ToolResult;
    fn name(&self) -> &str {
        "call_office"
    }
    fn description(&self) -> &str {
        "Call the office."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object"})
    }
    fn metadata(&self) -> tool_core::ToolMetadata {
        tool_core::ToolMetadata {
            tier: tool_core::policy::ToolTier::Observe,
            ..tool_core::ToolMetadata::DEFAULT
        }
    }
    fn check_available(&self, _ctx: &ToolContext<App>) -> Result<(), String> {
        if self.open {
            Ok(())
        } else {
            Err("the office is closed until 9:00".into())
        }
    }
    async fn execute(&self, _ctx: &ToolContext<App>, _input: NoArgs) -> ToolResult {
        ToolResult::text("ringing")
    }
}

#[tokio::test]
async fn an_unavailable_tool_says_why() {
    let closed = ToolRegistry::<App>::new().with(OfficeHours { open: false });
    let result = closed.call(&ctx(), "call_office", json!({})).await;
    assert_eq!(
        result.model_text(),
        "tool `call_office` is not available: the office is closed until 9:00"
    );
    let open = ToolRegistry::<App>::new().with(OfficeHours { open: true });
    assert_eq!(
        open.call(&ctx(), "call_office", json!({}))
            .await
            .model_text(),
        "ringing"
    );
}

// 6. Execution.

/// Sleep, then answer; notes whether it was cancelled.
#[tool(tier = Observe, concurrency_safe)]
async fn slow(ctx: &ToolContext<App>, millis: u64) -> String {
    tokio::select! {
        _ = tokio::time::sleep(Duration::from_millis(millis)) => "done".to_owned(),
        _ = ctx.cancellation().cancelled() => {
            ctx.state().runs.fetch_add(1, Ordering::SeqCst);
            "cancelled".to_owned()
        }
    }
}

/// Answer within 100 ms or not at all.
#[tool(tier = Observe, timeout = "100ms")]
async fn hasty(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    "done".to_owned()
}

#[tokio::test(start_paused = true)]
async fn a_call_over_its_time_limit_is_stopped_and_cancelled() {
    let registry = ToolRegistry::<App>::builder()
        .with(Slow)
        .with(Hasty)
        .default_timeout(Duration::from_secs(2))
        .build();
    let ctx = ctx();
    assert_eq!(
        registry
            .call(&ctx, "slow", json!({"millis": 1999}))
            .await
            .model_text(),
        "done"
    );
    let late = registry.call(&ctx, "slow", json!({"millis": 5000})).await;
    assert_eq!(
        late.model_text(),
        "tool `slow` did not finish within 2s and was stopped"
    );
    assert_eq!(
        error_of(&late),
        &ToolError::Timeout {
            tool: "slow".into(),
            after: Duration::from_secs(2)
        }
    );
    assert_eq!(
        registry
            .call(&ctx, "hasty", json!({"millis": 50}))
            .await
            .model_text(),
        "done"
    );
    let too_slow = registry.call(&ctx, "hasty", json!({"millis": 150})).await;
    assert_eq!(
        too_slow.model_text(),
        "tool `hasty` did not finish within 100ms and was stopped"
    );
    // The caller's own token reaches the tool too, once it runs.
    let token = ctx.cancellation().clone();
    let (cancelled, ()) = tokio::join!(
        registry.call(&ctx, "slow", json!({"millis": 5000})),
        async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            token.cancel();
        }
    );
    assert_eq!(cancelled.model_text(), "cancelled");
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        tool_core::registry::DEFAULT_TIMEOUT,
        Duration::from_secs(30)
    );
}

/// Panics on zero.
#[tool(tier = Observe)]
fn divide(a: i64, b: i64) -> i64 {
    if b == 0 {
        panic!("attempt to divide {a} by zero");
    }
    a / b
}

#[tokio::test]
async fn a_panicking_tool_is_an_error_result_and_the_registry_keeps_working() {
    let registry: ToolRegistry = ToolRegistry::new().with(Divide);
    let ctx = ToolContext::new(());
    let panicked = registry.call(&ctx, "divide", json!({"a": 1, "b": 0})).await;
    assert_eq!(
        panicked.model_text(),
        "tool `divide` failed unexpectedly; the failure is not in the arguments"
    );
    assert_eq!(
        error_of(&panicked),
        &ToolError::Panicked {
            tool: "divide".into(),
            message: "attempt to divide 1 by zero".into()
        }
    );
    for _ in 0..3 {
        assert_eq!(
            registry
                .call(&ctx, "divide", json!({"a": 6, "b": 3}))
                .await
                .model_text(),
            "2"
        );
    }
}

// 7. Output.

#[derive(Serialize)]
struct ForecastData {
    city: String,
    celsius: f64,
}

/// Forecast with a declared output schema.
#[tool(
    tier = Observe,
    output_schema = json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "celsius": {"type": "number", "maximum": 60}},
        "required": ["city", "celsius"]
    })
)]
fn forecast(city: String, celsius: f64) -> ForecastData {
    ForecastData { city, celsius }
}

#[tokio::test]
async fn output_is_text_or_json_with_structured_content_when_declared() {
    let registry: ToolRegistry = ToolRegistry::new().with(Forecast).with(Divide);
    let ctx = ToolContext::new(());
    let result = registry
        .call(&ctx, "forecast", json!({"city": "Rome", "celsius": 24.5}))
        .await;
    assert_eq!(result.model_text(), r#"{"city":"Rome","celsius":24.5}"#);
    assert_eq!(
        result.structured_content(),
        Some(&json!({"city": "Rome", "celsius": 24.5}))
    );
    let plain = registry.call(&ctx, "divide", json!({"a": 4, "b": 2})).await;
    assert_eq!(
        plain.structured_content(),
        None,
        "no output schema, no structured content"
    );

    let broken = registry
        .call(&ctx, "forecast", json!({"city": "Mars", "celsius": 400.0}))
        .await;
    assert_eq!(
        broken.model_text(),
        "tool `forecast` produced output that does not match its output schema: argument `celsius` at `/celsius`: must be at most 60, got 400.0"
    );
}

// Call ids, events, spans.

#[derive(Default)]
struct Recorder {
    events: Mutex<Vec<String>>,
}

/// The recorder as the registry holds it.
struct Observe(Arc<Recorder>);

impl CallObserver for Observe {
    fn call_started(&self, event: &CallStarted<'_>) {
        self.0
            .events
            .lock()
            .expect("lock")
            .push(format!("start {} {}", event.tool, event.call_id));
    }
    fn call_finished(&self, event: &CallFinished<'_>) {
        self.0.events.lock().expect("lock").push(format!(
            "finish {} {} {} {:?}",
            event.tool,
            event.call_id,
            event.outcome(),
            event.duration
        ));
    }
}

#[tokio::test(start_paused = true)]
async fn every_call_has_a_stable_id_and_start_and_finish_events() {
    let recorder = Arc::new(Recorder::default());
    let registry = RegistryBuilder::from(weather().with(Slow))
        .observer(Observe(Arc::clone(&recorder)))
        .build();
    // One provider's call, `call_1`, in a named conversation, asked for
    // twice (its arguments as a value, then as OpenAI's text): one id.
    let asked_twice = ContextBuilder::from(ctx())
        .conversation("chat")
        .call_id("call_1")
        .build();
    registry
        .call(
            &asked_twice,
            "get_weather",
            json!({"days": 1, "city": "Oslo"}),
        )
        .await;
    registry
        .call(
            &asked_twice,
            "get_weather",
            json!("{\"city\":\"Oslo\",  \"days\":1}"),
        )
        .await;
    let ctx = ctx();
    registry.call(&ctx, "slow", json!({"millis": 250})).await;
    registry.call(&ctx, "get_weather", json!({"city": 1})).await;
    registry.call(&ctx, "nope", json!({})).await;
    let events = recorder.events.lock().expect("lock").clone();
    // Each call's two events carry its id: the ids named in order.
    let mut ids: Vec<&str> = Vec::new();
    let named: Vec<String> = events
        .iter()
        .map(|event| {
            let id = event.split(' ').nth(2).expect("an id");
            let at = ids.iter().position(|seen| *seen == id).unwrap_or_else(|| {
                ids.push(id);
                ids.len() - 1
            });
            event.replacen(id, &format!("#{at}"), 1)
        })
        .collect();
    assert_eq!(
        named,
        [
            "start get_weather #0",
            "finish get_weather #0 success 0ns",
            "start get_weather #0",
            "finish get_weather #0 success 0ns",
            "start slow #1",
            "finish slow #1 success 250ms",
            "start get_weather #2",
            "finish get_weather #2 error 0ns",
            "start nope #3",
            "finish nope #3 error 0ns",
        ]
    );
    assert!(ids.iter().all(|id| id.len() == 32));
    // Without a provider's id in a named conversation, each call is one
    // of its own, even with the same arguments.
    let plain = ToolContext::new(App::default());
    registry.call(&plain, "slow", json!({"millis": 1})).await;
    registry.call(&plain, "slow", json!({"millis": 1})).await;
    let events = recorder.events.lock().expect("lock").clone();
    let id_of = |event: &str| event.split(' ').nth(2).expect("an id").to_owned();
    assert_ne!(id_of(&events[10]), id_of(&events[12]));
}

// Batches.

/// Counts how many of its calls run at once.
#[derive(Default)]
struct Gauge {
    now: AtomicUsize,
    most: AtomicUsize,
}

impl Gauge {
    async fn hold(&self, millis: u64) {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(millis)).await;
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Default)]
struct Gauges {
    exclusive: Gauge,
    shared: Gauge,
}

/// Not concurrency-safe.
#[tool(tier = Observe)]
async fn exclusive(ctx: &ToolContext<Gauges>, n: u32) -> u32 {
    ctx.state().exclusive.hold(50).await;
    n
}

/// Concurrency-safe.
#[tool(tier = Observe, concurrency_safe)]
async fn shared(ctx: &ToolContext<Gauges>, n: u32) -> u32 {
    ctx.state().shared.hold(50).await;
    n
}

macro_rules! sleepers {
    ($($name:ident),*) => {$(
        /// Wait 50 ms.
        #[tool(tier = Observe)]
        async fn $name() -> &'static str {
            tokio::time::sleep(Duration::from_millis(50)).await;
            stringify!($name)
        }
    )*};
}

sleepers!(w1, w2, w3, w4, w5, w6, w7, w8);

#[tokio::test(start_paused = true)]
async fn a_parallel_batch_runs_concurrently_and_answers_in_order() {
    let registry: ToolRegistry = ToolRegistry::builder()
        .batch(Batch::Parallel)
        .with(W1)
        .with(W2)
        .with(W3)
        .with(W4)
        .with(W5)
        .with(W6)
        .with(W7)
        .with(W8)
        .build();
    let calls: Vec<ToolCall> = ["w3", "w1", "w8", "w2", "w7", "w4", "w6", "w5"]
        .iter()
        .map(|name| ToolCall::new(*name, json!({})))
        .collect();
    let start = tokio::time::Instant::now();
    let results = registry.call_all(&ToolContext::new(()), calls).await;
    assert_eq!(
        start.elapsed(),
        Duration::from_millis(50),
        "eight 50 ms tools take 50 ms together"
    );
    let texts: Vec<String> = results
        .iter()
        .map(|r| r.model_text().into_owned())
        .collect();
    assert_eq!(texts, ["w3", "w1", "w8", "w2", "w7", "w4", "w6", "w5"]);
}

#[tokio::test(start_paused = true)]
async fn a_tool_not_marked_concurrency_safe_never_runs_beside_itself() {
    let registry = ToolRegistry::<Gauges>::builder()
        .batch(Batch::Parallel)
        .with(Exclusive)
        .with(Shared)
        .build();
    let ctx = ToolContext::new(Gauges::default());
    let calls = (0..4).flat_map(|n| {
        [
            ToolCall::new("exclusive", json!({"n": n})),
            ToolCall::new("shared", json!({"n": n})),
        ]
    });
    let start = tokio::time::Instant::now();
    let results = registry.call_all(&ctx, calls).await;
    assert_eq!(results.len(), 8);
    assert!(results.iter().all(|r| !r.is_error()));
    assert_eq!(ctx.state().exclusive.most.load(Ordering::SeqCst), 1);
    assert_eq!(ctx.state().shared.most.load(Ordering::SeqCst), 4);
    assert_eq!(
        start.elapsed(),
        Duration::from_millis(200),
        "the four exclusive calls in turn"
    );
}

// Pending calls.

/// Index a document in the background.
#[tool(tier = Observe, long_running, timeout = "10s")]
async fn index(document: String) -> String {
    tokio::time::sleep(Duration::from_secs(3)).await;
    format!("indexed {document}")
}

/// Ask the user; the client delivers the answer.
#[tool(tier = Observe, long_running)]
async fn ask_user(question: String) -> ToolResult {
    let _ = question;
    ToolResult::deferred()
}

#[tokio::test(start_paused = true)]
async fn a_long_running_tool_returns_pending_and_its_result_later() {
    let registry: ToolRegistry = ToolRegistry::new().with(Index).with(AskUser);
    let definition = registry
        .info("index")
        .map(|tool| tool.definition)
        .expect("registered");
    assert_eq!(
        definition.description,
        "Index a document in the background.\n\nThis tool runs in the background: a call returns at once with a call id, and the result follows later. Do not call it again while a call is pending."
    );
    // The provider's call `call_1` in a named conversation.
    let ctx = ToolContext::builder(())
        .conversation("chat")
        .call_id("call_1")
        .build();
    let started = tokio::time::Instant::now();
    let pending = registry
        .call(&ctx, "index", json!({"document": "a.txt"}))
        .await;
    assert_eq!(started.elapsed(), Duration::ZERO);
    let id = pending.pending_call_id().expect("pending").to_owned();
    assert_eq!(id.len(), 32);
    assert!(pending.is_pending() && !pending.is_error());
    assert_eq!(
        pending.model_text(),
        format!(
            "tool `index` is running in the background (call `{id}`); its result will follow. Do not call it again while this call is pending."
        )
    );
    // The same call again while pending (a retried request): the same
    // pending call, not a second run.
    assert_eq!(
        registry
            .call(&ctx, "index", json!({"document": "a.txt"}))
            .await,
        pending
    );
    assert_eq!(registry.pending().ids(), [id.as_str()]);

    let done = registry.pending().wait(&id).await.expect("a pending call");
    assert_eq!(done.model_text(), "indexed a.txt");
    assert_eq!(started.elapsed(), Duration::from_secs(3));
    assert!(registry.pending().ids().is_empty());
    assert_eq!(
        registry.pending().wait(&id).await,
        None,
        "one result, taken once"
    );
}

/// A result no one takes is kept for the pending timeout, as a store
/// keeps it, then forgotten: a registry's memory does not grow with the
/// calls whose results were never asked for.
#[tokio::test(start_paused = true)]
async fn a_result_no_one_takes_is_forgotten_after_the_pending_timeout() {
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Index)
        .pending_timeout(Duration::from_secs(60))
        .build();
    let pending = registry
        .call(&ToolContext::new(()), "index", json!({"document": "b.txt"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    // It runs for 3 s; its result then waits a minute to be taken.
    tokio::time::sleep(Duration::from_secs(30)).await;
    assert_eq!(registry.pending().ids(), [id.as_str()]);
    tokio::time::sleep(Duration::from_secs(40)).await;
    assert!(registry.pending().ids().is_empty(), "forgotten");
    assert_eq!(registry.pending().wait(&id).await, None);
}

#[tokio::test(start_paused = true)]
async fn a_deferred_result_is_delivered_by_the_application() {
    let registry = Arc::new(ToolRegistry::<()>::new().with(AskUser));
    let ctx = ToolContext::new(());
    let pending = registry
        .call(&ctx, "ask_user", json!({"question": "Proceed?"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();

    let waiter = tokio::spawn({
        let registry = Arc::clone(&registry);
        let id = id.clone();
        async move { registry.pending().wait(&id).await }
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(
        registry
            .pending()
            .deliver(&id, ToolResult::text("yes"))
            .await,
        Ok(())
    );
    assert_eq!(
        registry
            .pending()
            .deliver(&id, ToolResult::text("no"))
            .await,
        Err(DeliveryError::NotAwaitingDelivery {
            call_id: id.clone()
        })
    );
    let result = waiter.await.expect("joined").expect("a result");
    assert_eq!(result.model_text(), "yes");
    assert_eq!(
        registry
            .pending()
            .deliver("nope", ToolResult::text("?"))
            .await,
        Err(DeliveryError::UnknownCall {
            call_id: "nope".into()
        })
    );
}

#[tokio::test(start_paused = true)]
async fn a_result_never_delivered_times_out() {
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(AskUser)
        .pending_timeout(Duration::from_secs(60))
        .build();
    let ctx = ToolContext::new(());
    let pending = registry
        .call(&ctx, "ask_user", json!({"question": "Hello?"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let started = tokio::time::Instant::now();
    let result = registry.pending().wait(&id).await.expect("a result");
    assert_eq!(started.elapsed(), Duration::from_secs(60));
    assert_eq!(
        result.model_text(),
        format!("tool `ask_user` (call `{id}`) produced no result within 60s")
    );
    assert!(matches!(
        error_of(&result),
        ToolError::PendingTimeout { .. }
    ));
    assert_eq!(
        tool_core::registry::DEFAULT_PENDING_TIMEOUT,
        Duration::from_secs(600),
        "the documented default"
    );
}

#[tokio::test]
async fn approve_all_lets_confirm_tools_run() {
    let registry = ToolRegistry::<App>::builder()
        .with(DeleteFile)
        .approval(ApproveAll)
        .build();
    let result = registry
        .call(&ctx(), "delete_file", json!({"path": "/x"}))
        .await;
    assert_eq!(result.model_text(), "deleted /x");
}

#[tokio::test(start_paused = true)]
async fn waiting_is_cancellation_safe_and_every_waiter_gets_the_result() {
    let registry: ToolRegistry = ToolRegistry::new().with(Index);
    let ctx = ToolContext::new(());
    let pending = registry
        .call(&ctx, "index", json!({"document": "b.txt"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let gave_up = tokio::time::timeout(Duration::from_secs(1), registry.pending().wait(&id)).await;
    assert!(gave_up.is_err(), "still running after a second");
    let (first, second) = tokio::join!(registry.pending().wait(&id), registry.pending().wait(&id));
    assert_eq!(
        first
            .as_ref()
            .map(|r| r.model_text().into_owned())
            .as_deref(),
        Some("indexed b.txt")
    );
    assert_eq!(first, second);
    assert!(registry.pending().ids().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_tool_that_produces_its_own_result_keeps_it_over_a_delivery() {
    let registry: ToolRegistry = ToolRegistry::new().with(Index);
    let ctx = ToolContext::new(());
    let pending = registry
        .call(&ctx, "index", json!({"document": "c.txt"}))
        .await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    assert_eq!(
        registry
            .pending()
            .deliver(&id, ToolResult::text("from elsewhere"))
            .await,
        Ok(())
    );
    let result = registry.pending().wait(&id).await.expect("a result");
    assert_eq!(result.model_text(), "indexed c.txt");
}

#[tokio::test]
async fn deferring_needs_a_long_running_tool() {
    /// Defers without being long-running.
    #[tool(tier = Observe)]
    fn confused() -> ToolResult {
        ToolResult::deferred()
    }
    let registry: ToolRegistry = ToolRegistry::new().with(Confused);
    let result = registry
        .call(&ToolContext::new(()), "confused", json!({}))
        .await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "tool `confused` left its result to be delivered, but it is not `long_running`"
    );
}

/// A value whose deserializer panics on 7.
#[derive(Serialize, JsonSchema)]
struct FragileNumber(u8);

impl<'de> Deserialize<'de> for FragileNumber {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(deserializer)?;
        assert_ne!(n, 7, "seven is not handled");
        Ok(FragileNumber(n))
    }
}

/// Takes a fragile value.
#[tool(tier = Observe)]
fn fragile(x: FragileNumber) -> u8 {
    x.0
}

/// Panics on every request.
struct BrokenHook;

impl ApprovalHook<App> for BrokenHook {
    async fn approve(&self, _: &ApprovalRequest<'_, App>) -> Approval {
        panic!("the hook has a bug")
    }
}

#[tokio::test]
async fn a_panic_anywhere_in_a_call_is_an_error_result() {
    let registry = ToolRegistry::<App>::builder()
        .with(Fragile)
        .with(DeleteFile)
        .approval(BrokenHook)
        .build();
    let ctx = ctx();
    let deserializer = registry.call(&ctx, "fragile", json!({"x": 7})).await;
    assert_eq!(
        error_of(&deserializer),
        &ToolError::Panicked {
            tool: "fragile".into(),
            message: "assertion `left != right` failed: seven is not handled\n  left: 7\n right: 7"
                .into()
        }
    );
    let hook = registry
        .call(&ctx, "delete_file", json!({"path": "/tmp/x"}))
        .await;
    assert_eq!(
        error_of(&hook),
        &ToolError::Panicked {
            tool: "delete_file".into(),
            message: "the hook has a bug".into()
        }
    );
    assert_eq!(ctx.state().runs.load(Ordering::SeqCst), 0);
    assert_eq!(
        registry
            .call(&ctx, "fragile", json!({"x": 8}))
            .await
            .model_text(),
        "8"
    );
}

#[tokio::test]
async fn a_tool_without_context_reports_bad_arguments_the_same_way() {
    #[derive(Deserialize, Serialize, JsonSchema)]
    struct Point {
        x: i32,
        y: i32,
    }
    /// Measure a path.
    #[tool(tier = Observe, concurrency_safe)]
    fn measure(name: String, points: Vec<Point>, units: Option<Units>) -> String {
        let _ = units;
        format!("{name}: {}", points.len())
    }
    // Validation off: the input type alone judges the arguments.
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Measure)
        .validation(Validation::Off)
        .build();
    let ctx = ToolContext::new(());
    let ok = registry
        .call(
            &ctx,
            "measure",
            json!({"name": "walk", "points": [{"x": 1, "y": 2}], "units": "celsius"}),
        )
        .await;
    assert_eq!(ok.model_text(), "walk: 1");
    let cases = [
        (
            json!({"name": "walk", "points": [{"x": 1, "y": 2}, {"x": 1, "y": "2"}]}),
            "argument `points` at `/points/1/y`: invalid type: string \"2\", expected i32",
        ),
        (
            json!({"name": "walk", "points": [], "units": "kelvin"}),
            "argument `units` at `/units`: unknown variant `kelvin`, expected `celsius` or `fahrenheit`",
        ),
        (json!({"points": []}), "missing argument `name`"),
        (
            json!({"name": "walk", "points": [], "speed": 3}),
            "unknown argument `speed`, expected one of `name`, `points`, `units`",
        ),
    ];
    for (args, expected) in cases {
        let result = registry.call(&ctx, "measure", args).await;
        assert_eq!(
            result.model_text(),
            format!(
                "invalid arguments for tool `measure`: {expected}. Correct the arguments and call the tool again."
            )
        );
    }
}
