//! Load through Restate's ingress as a careful client sends it: each call
//! with an idempotency key of its own, so that sending it again is the same
//! call; a call whose connection fails (its node died) or that times out
//! is sent again to the next node's ingress.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Semaphore;

/// How a load went.
pub struct Load {
    /// Each call's answer (status and body), in the order of the calls.
    pub answers: Vec<(u16, Vec<u8>)>,
    /// Each call's time, from its first send to its answer, in ms.
    pub latencies: Vec<f64>,
    /// Calls sent again, to another node.
    pub retries: usize,
    /// The whole load's time.
    pub elapsed: Duration,
}

impl Load {
    /// Calls per second.
    pub fn rate(&self) -> f64 {
        self.answers.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// The `q` quantile of the latencies (0.5, 0.99), in ms.
    pub fn latency(&self, q: f64) -> f64 {
        let mut sorted = self.latencies.clone();
        sorted.sort_by(f64::total_cmp);
        let at = ((sorted.len() as f64 * q) as usize).min(sorted.len().saturating_sub(1));
        sorted.get(at).copied().unwrap_or(0.0)
    }
}

/// Sends `calls` calls of `POST /<path>` with `body(i)`, `concurrent` at a
/// time, call `i` keyed `<key>-<i>`, spread over `ingresses`.
pub async fn run(
    ingresses: &[String],
    path: &str,
    key: &str,
    calls: usize,
    concurrent: usize,
    body: impl Fn(usize) -> Value,
) -> Load {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("an HTTP client");
    let gate = Arc::new(Semaphore::new(concurrent));
    let retries = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..calls {
        let permit = Arc::clone(&gate).acquire_owned().await.expect("open");
        let (http, retries) = (http.clone(), Arc::clone(&retries));
        let ingresses = ingresses.to_vec();
        let (path, key, body) = (path.to_owned(), format!("{key}-{i}"), body(i));
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let answer = call(&http, &ingresses, i, &path, &key, &body, &retries).await;
            drop(permit);
            (answer, sent.elapsed().as_secs_f64() * 1e3)
        }));
    }
    let (mut answers, mut latencies) = (Vec::new(), Vec::new());
    for task in tasks {
        let (answer, latency) = task.await.expect("a call");
        answers.push(answer);
        latencies.push(latency);
    }
    Load {
        answers,
        latencies,
        retries: retries.load(Ordering::SeqCst),
        elapsed: started.elapsed(),
    }
}

async fn call(
    http: &reqwest::Client,
    ingresses: &[String],
    i: usize,
    path: &str,
    key: &str,
    body: &Value,
    retries: &AtomicUsize,
) -> (u16, Vec<u8>) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut node = i % ingresses.len();
    loop {
        let reply = http
            .post(format!("{}/{path}", ingresses[node]))
            .header("idempotency-key", key)
            .json(body)
            .send()
            .await;
        let failed = match reply {
            Ok(reply) if !reply.status().is_server_error() => {
                let status = reply.status().as_u16();
                match reply.bytes().await {
                    Ok(bytes) => return (status, bytes.to_vec()),
                    Err(error) => error.to_string(),
                }
            }
            Ok(reply) => format!("{}", reply.status()),
            Err(error) => error.to_string(),
        };
        // Its node died, or cannot reach the cluster: the same call, by
        // its key, through the next node.
        assert!(
            Instant::now() < deadline,
            "call {key} failed for 120 s: {failed}"
        );
        retries.fetch_add(1, Ordering::SeqCst);
        node = (node + 1) % ingresses.len();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
