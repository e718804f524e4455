//! The `main` of a test binary that runs without libtest's harness
//! because it is also the worker process its tests start and kill: with
//! [`WORKER`] set it serves the worker's services until killed; with
//! [`CLIENT`] set it is a client of Restate's ingress that sends one
//! request and ends ([`post_from_another_process`]); else it runs its
//! named tests in turn, as libtest would, on a runtime of 2 threads.

use std::pin::Pin;
use std::time::Instant;

use restate_sdk::endpoint::Endpoint;
use restate_sdk::http_server::HttpServer;
use restate_sdk::service::ServiceDefinition;

use serde_json::Value;

use super::worker::WORKER;

/// Set in a client process: `<url> <JSON body>`, to POST.
pub const CLIENT: &str = "TOOL_RESTATE_TEST_CLIENT";

/// A test, started when called.
pub type Test = fn() -> Pin<Box<dyn Future<Output = ()>>>;

/// The services a worker serves, given its port and what it reaches (the
/// counter's URL).
pub type Services = fn(port: &str, reach: &str) -> Vec<ServiceDefinition>;

/// Serves `services` if this process is a worker; else runs `tests`.
pub fn main(tests: &[(&str, Test)], services: Services) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    if let Ok(worker) = std::env::var(WORKER) {
        runtime.block_on(serve(&worker, services));
        return;
    }
    if let Ok(request) = std::env::var(CLIENT) {
        runtime.block_on(post(&request));
        return;
    }
    // libtest's ways, for what runs tests: `--list`, and names to filter
    // by.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&String> = args.iter().filter(|arg| !arg.starts_with('-')).collect();
    let list = args.iter().any(|arg| arg == "--list");
    for (name, test) in tests {
        if !filters.is_empty() && !filters.iter().any(|filter| name.contains(filter.as_str())) {
            continue;
        }
        if list {
            println!("{name}: test");
            continue;
        }
        let started = Instant::now();
        runtime.block_on(test());
        println!(
            "test {name} ... ok ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

/// The worker process: `services` served on the port given, until
/// killed.
async fn serve(worker: &str, services: Services) {
    let (port, reach) = worker.split_once(' ').expect("<port> <reach>");
    let mut endpoint = Endpoint::builder();
    for service in services(port, reach) {
        endpoint = endpoint.bind(service);
    }
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port.parse().expect("a port")))
        .await
        .expect("the worker's port");
    HttpServer::new(endpoint.build())
        .serve_with_cancel(listener, std::future::pending::<()>())
        .await;
}

/// POSTs `body` to `url` from a process of its own (this binary, started
/// again with [`CLIENT`] set), as another machine would: the answer's
/// status and body.
pub async fn post_from_another_process(url: &str, body: &Value) -> (u16, String) {
    let output = tokio::process::Command::new(std::env::current_exe().expect("this binary"))
        .env(CLIENT, format!("{url} {body}"))
        .output()
        .await
        .expect("a client process");
    assert!(output.status.success(), "the client process failed");
    let printed = String::from_utf8(output.stdout).expect("text");
    let (status, body) = printed.split_once(' ').expect("<status> <body>");
    (status.parse().expect("a status"), body.to_owned())
}

/// The client process: `request` (`<url> <JSON body>`) POSTed, and the
/// answer's status and body printed.
async fn post(request: &str) {
    let (url, body) = request.split_once(' ').expect("<url> <body>");
    let reply = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .timeout(std::time::Duration::from_secs(60))
        .send()
        .await
        .expect("the ingress answers");
    let status = reply.status().as_u16();
    print!("{status} {}", reply.text().await.expect("a body"));
}
