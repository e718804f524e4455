//! Load through Restate's ingress as a careful client sends it: each call
//! with an idempotency key of its own, so that sending it again is the same
//! call; a call whose connection fails (its node died) or that times out
//! is sent again to the next node's ingress. A turn (a workflow's run) is
//! started and waited for likewise, by its workflow key.

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

    /// Prints how it went, under `what`, counting `unit`s (calls, turns).
    pub fn report(&self, what: &str, unit: &str) {
        println!(
            "{what}: {} {unit} in {:.1} s ({:.0}/s), p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms, sent again {}",
            self.answers.len(),
            self.elapsed.as_secs_f64(),
            self.rate(),
            self.latency(0.5),
            self.latency(0.99),
            self.latency(1.0),
            self.retries
        );
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
    spread(calls, concurrent, |i, http, retries| {
        let ingresses = ingresses.to_vec();
        let (path, key, body) = (path.to_owned(), format!("{key}-{i}"), body(i));
        async move {
            let request = Request {
                path: &path,
                key: Some(&key),
                body: Some(&body),
            };
            call(&http, &ingresses, i, &request, &retries).await
        }
    })
    .await
}

/// Runs `turns` turns of the workflow `workflow`, `concurrent` at a time,
/// turn `i` keyed `<key>-<i>` and run with `body(i)`, spread over
/// `ingresses`: each started (`POST /<workflow>/<key>-<i>/run/send`, the
/// same turn however often it is sent) and then waited for
/// (`GET /restate/workflow/<workflow>/<key>-<i>/attach`), each sent again
/// through the next node as a call is. A turn's answer is its attach's.
pub async fn run_turns(
    ingresses: &[String],
    workflow: &str,
    key: &str,
    turns: usize,
    concurrent: usize,
    body: impl Fn(usize) -> Value,
) -> Load {
    spread(turns, concurrent, |i, http, retries| {
        let ingresses = ingresses.to_vec();
        let (run, body) = (format!("{workflow}/{key}-{i}/run/send"), body(i));
        let attach = format!("restate/workflow/{workflow}/{key}-{i}/attach");
        async move {
            let start = Request {
                path: &run,
                key: None,
                body: Some(&body),
            };
            let (status, sent) = call(&http, &ingresses, i, &start, &retries).await;
            if !(200..300).contains(&status) {
                return (status, sent);
            }
            let end = Request {
                path: &attach,
                key: None,
                body: None,
            };
            call(&http, &ingresses, i, &end, &retries).await
        }
    })
    .await
}

/// Runs `one(i, ..)` for `i` in `0..count`, `concurrent` at a time, each
/// with the load's HTTP client and its count of what was sent again.
async fn spread<F, Fut>(count: usize, concurrent: usize, one: F) -> Load
where
    F: Fn(usize, reqwest::Client, Arc<AtomicUsize>) -> Fut,
    Fut: Future<Output = (u16, Vec<u8>)> + Send + 'static,
{
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("an HTTP client");
    let gate = Arc::new(Semaphore::new(concurrent));
    let retries = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..count {
        let permit = Arc::clone(&gate).acquire_owned().await.expect("open");
        let answer = one(i, http.clone(), Arc::clone(&retries));
        tasks.push(tokio::spawn(async move {
            let sent = Instant::now();
            let answer = answer.await;
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

/// One request to the ingress: `POST` with its body, or `GET` without;
/// with an `idempotency-key` if it has one.
struct Request<'a> {
    path: &'a str,
    key: Option<&'a str>,
    body: Option<&'a Value>,
}

async fn call(
    http: &reqwest::Client,
    ingresses: &[String],
    i: usize,
    request: &Request<'_>,
    retries: &AtomicUsize,
) -> (u16, Vec<u8>) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut node = i % ingresses.len();
    loop {
        let url = format!("{}/{}", ingresses[node], request.path);
        let mut sending = match request.body {
            Some(body) => http.post(url).json(body),
            None => http.get(url),
        };
        if let Some(key) = request.key {
            sending = sending.header("idempotency-key", key);
        }
        let reply = sending.send().await;
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
        let what = request.key.unwrap_or(request.path);
        assert!(
            Instant::now() < deadline,
            "call {what} failed for 120 s: {failed}"
        );
        retries.fetch_add(1, Ordering::SeqCst);
        node = (node + 1) % ingresses.len();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
