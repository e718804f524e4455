//! The `main` of a test binary that runs without libtest's harness
//! because it is also the worker process its tests start and kill: with
//! [`WORKER`] set it serves the worker's services until killed; else it
//! runs its named tests in turn, as libtest would, on a runtime of 2
//! threads.

use std::pin::Pin;
use std::time::Instant;

use restate_sdk::endpoint::Endpoint;
use restate_sdk::http_server::HttpServer;
use restate_sdk::service::ServiceDefinition;

use super::worker::WORKER;

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
