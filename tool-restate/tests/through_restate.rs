//! A registry's tools called through a real `restate-server`'s ingress:
//! the registry's results and errors, exactly; one invocation per
//! `idempotency-key`, the tool run once.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::RestateService;

use support::server::Server;

/// How many times a tool ran.
#[derive(Default)]
struct Runs(AtomicUsize);

/// Greet someone.
#[tool]
fn greet(name: String) -> String {
    format!("hello, {name}")
}

/// Add two numbers.
#[tool(output_schema = json!({"type": "object", "properties": {"sum": {"type": "integer"}}}))]
fn add(a: i64, b: i64) -> ToolResult {
    let sum = json!({"sum": a + b});
    ToolResult::json(sum.clone()).with_structured_content(sum)
}

/// Book a room; says which booking it was and the key it booked with.
#[tool(idempotent)]
fn book(ctx: &ToolContext<Runs>, room: String) -> String {
    let run = ctx.state().0.fetch_add(1, Ordering::SeqCst) + 1;
    let key = ctx.call_id().unwrap_or_default();
    format!("booked {room} (run {run}, key {key})")
}

fn registry() -> ToolRegistry<Runs> {
    ToolRegistry::new().with(Greet).with(Add).with(Book)
}

/// The registry served by a worker in this process, registered with a
/// fresh server.
async fn served(test: &str, runs: Arc<Runs>) -> Server {
    let server = Server::start(test).await;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("its address");
    let service = RestateService::new(registry(), move |_| {
        ToolContext::from_arc(Arc::clone(&runs))
    });
    tokio::spawn(service.serve(listener, std::future::pending()));
    server.register(&format!("http://{address}")).await;
    server
}

/// Calls `tool` through the ingress, with an `idempotency-key` if given:
/// the result the handler answered, and the invocation's id.
async fn call(server: &Server, tool: &str, args: Value, key: Option<&str>) -> (ToolResult, String) {
    let mut request = server
        .http()
        .post(format!("{}/Tools/{tool}", server.ingress()))
        .json(&args);
    if let Some(key) = key {
        request = request.header("idempotency-key", key);
    }
    let reply = request.send().await.expect("the ingress answers");
    let status = reply.status();
    let id = reply
        .headers()
        .get("x-restate-id")
        .and_then(|id| id.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = reply.bytes().await.expect("a body");
    assert!(
        status.is_success(),
        "{tool}: {status} {}",
        String::from_utf8_lossy(&body)
    );
    let result = serde_json::from_slice(&body).unwrap_or_else(|error| {
        panic!(
            "{tool} answered {}: {error}",
            String::from_utf8_lossy(&body)
        )
    });
    (result, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_restate_returns_the_registrys_result_and_errors() {
    let server = served("results", Arc::default()).await;

    let (result, _) = call(&server, "greet", json!({"name": "ada"}), None).await;
    assert_eq!(result.model_text(), "hello, ada");
    assert!(!result.is_error());

    // Restate passes any JSON on; the registry's validation answers, in
    // its own words, as a result for the model rather than a failure.
    let bad = json!({"name": 5});
    let (result, _) = call(&server, "greet", bad.clone(), None).await;
    let direct = registry()
        .call(&ToolContext::new(Runs::default()), "greet", bad)
        .await;
    assert!(result.is_error());
    assert_eq!(result.model_text(), direct.model_text());
    assert_eq!(result, direct);

    // Structured content, as the tool gave it.
    let (result, _) = call(&server, "add", json!({"a": 2, "b": 3}), None).await;
    assert_eq!(result.model_text(), r#"{"sum":5}"#);
    assert_eq!(result.structured_content(), Some(&json!({"sum": 5})));

    // The handlers' schemas, as Restate publishes them, are the tools'.
    let published = server.published("Tools").await;
    let handler = |name: &str| {
        published["handlers"]
            .as_array()
            .and_then(|handlers| handlers.iter().find(|handler| handler["name"] == name))
            .unwrap_or_else(|| panic!("no handler {name} in {published}"))
            .clone()
    };
    let tools = registry();
    let greet = tools.info("greet").expect("greet");
    assert_eq!(
        handler("greet")["input_json_schema"],
        greet.definition.input_schema
    );
    assert_eq!(handler("greet")["documentation"], "Greet someone.");
    let add = tools.info("add").expect("add");
    assert_eq!(
        handler("add")["input_json_schema"],
        add.definition.input_schema
    );
    assert_eq!(
        Some(&handler("add")["output_json_schema"]["properties"]["structured"]),
        add.output_schema
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_idempotency_key_runs_the_tool_once() {
    let runs = Arc::new(Runs::default());
    let server = served("idempotent", Arc::clone(&runs)).await;
    let args = json!({"room": "blue"});

    let (first, first_id) = call(&server, "book", args.clone(), Some("booking-1")).await;
    let (again, again_id) = call(&server, "book", args.clone(), Some("booking-1")).await;
    assert_eq!(runs.0.load(Ordering::SeqCst), 1, "the tool ran again");
    assert_eq!(again, first);
    assert_eq!(again_id, first_id);
    let text = first.model_text();
    assert!(text.starts_with("booked blue (run 1, key "), "{text}");

    // Another key: another invocation, another run, another key for the
    // tool.
    let (other, other_id) = call(&server, "book", args, Some("booking-2")).await;
    assert_eq!(runs.0.load(Ordering::SeqCst), 2);
    assert_ne!(other_id, first_id);
    let key = |text: &str| text.rsplit_once("key ").map(|(_, key)| key.to_owned());
    assert!(other.model_text().starts_with("booked blue (run 2, key "));
    assert_ne!(key(&other.model_text()), key(&text));
}
