//! Many processes, one registry: two example servers in stateless HTTP
//! mode (`--stateless`) behind a round-robin proxy, as behind any HTTP
//! load balancer without session affinity, and one MCP client (rmcp's)
//! spreading its calls across both. Every call is answered, with its own
//! result, and both processes answer calls.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, StatusCode};
use axum::response::Response;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tool_core::toolset::Select;

#[path = "support/example_server.rs"]
mod example_server;
#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;
#[path = "../examples/mcp_server/tools.rs"]
mod tools;

/// A load balancer in miniature: each HTTP request goes to the next
/// backend in turn, whatever it carries.
struct Balancer {
    backends: Vec<String>,
    next: AtomicUsize,
    /// The requests each backend has had.
    served: Vec<AtomicUsize>,
    http: reqwest::Client,
}

async fn forward(State(balancer): State<Arc<Balancer>>, request: Request) -> Response {
    let turn = balancer.next.fetch_add(1, Ordering::SeqCst) % balancer.backends.len();
    balancer.served[turn].fetch_add(1, Ordering::SeqCst);
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("a request body");
    let mut outgoing = balancer
        .http
        .request(parts.method, &balancer.backends[turn])
        .body(body);
    for (name, value) in &parts.headers {
        if name != "host" && name != "content-length" {
            outgoing = outgoing.header(name, value);
        }
    }
    let answer = match outgoing.send().await {
        Ok(answer) => answer,
        Err(error) => {
            return Response::builder()
                .status(StatusCode::BAD_GATEWAY)
                .body(Body::from(error.to_string()))
                .expect("a response");
        }
    };
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if name != HeaderName::from_static("content-length") {
            response = response.header(name, value);
        }
    }
    // Streamed: an answer may be an event stream.
    response
        .body(Body::from_stream(answer.bytes_stream()))
        .expect("a response")
}

/// A balancer in turn over `backends`, served on a loopback port.
async fn serve_balancer(backends: Vec<String>) -> (Arc<Balancer>, std::net::SocketAddr) {
    let balancer = Arc::new(Balancer {
        served: backends.iter().map(|_| AtomicUsize::new(0)).collect(),
        backends,
        next: AtomicUsize::new(0),
        http: reqwest::Client::new(),
    });
    let app = axum::Router::new()
        .fallback(forward)
        .with_state(Arc::clone(&balancer));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("bound");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (balancer, address)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_spread_over_two_stateless_processes_are_all_answered() {
    let (_first, first_url) = example_server::serve_http(&["--stateless"]);
    let (_second, second_url) = example_server::serve_http(&["--stateless"]);
    let (balancer, address) = serve_balancer(vec![first_url, second_url]).await;

    let transport = StreamableHttpClientTransport::from_uri(format!("http://{address}/mcp"));
    let client = ().serve(transport).await.expect("initialized");
    let listed = client.list_all_tools().await.expect("listed");
    // Every tool but the one that needs a scope the servers do not grant.
    let registry = tools::registry();
    let ctx = quickstart::context();
    let shown = registry.view(Select::all().caller(&ctx)).len();
    assert_eq!(
        (listed.len(), shown),
        (registry.tools().len() - 1, registry.tools().len() - 1)
    );

    // A hundred calls, eight at a time, each with its own amount.
    const CALLS: u32 = 100;
    let registry = tools::registry();
    let ctx = quickstart::context();
    let limit = Arc::new(Semaphore::new(8));
    let mut calls = JoinSet::new();
    for amount in 1..=CALLS {
        let peer = client.peer().clone();
        let limit = Arc::clone(&limit);
        calls.spawn(async move {
            let _turn = limit.acquire_owned().await.expect("open");
            let arguments = json!({"amount": amount, "from": "EUR", "to": "USD"});
            let serde_json::Value::Object(arguments) = arguments else {
                unreachable!()
            };
            let params = CallToolRequestParams::new("convert_currency").with_arguments(arguments);
            (amount, peer.call_tool(params).await)
        });
    }
    let mut answered = 0;
    while let Some(joined) = calls.join_next().await {
        let (amount, result) = joined.expect("the call's task");
        let result = result.unwrap_or_else(|error| panic!("call {amount} lost: {error}"));
        let expected = registry
            .call(
                &ctx,
                "convert_currency",
                json!({"amount": amount, "from": "EUR", "to": "USD"}),
            )
            .await;
        assert_eq!(result.is_error, Some(false));
        assert_eq!(
            result.content[0].as_text().expect("a text block").text,
            expected.model_text(),
            "call {amount}"
        );
        answered += 1;
    }
    assert_eq!(answered, CALLS);
    let served: Vec<usize> = balancer
        .served
        .iter()
        .map(|count| count.load(Ordering::SeqCst))
        .collect();
    for count in &served {
        assert!(
            *count >= (CALLS / 2) as usize,
            "each process answers half the calls: {served:?}"
        );
    }
    client.cancel().await.expect("closed");
}
