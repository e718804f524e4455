//! A real Restate cluster: `N` `restate-server` nodes on loopback, each
//! with its own ports and directory, every node with every role, the
//! first provisioning the cluster (logs and partitions kept on 2 nodes, so
//! one node may die). Nodes can be killed (SIGKILL); the rest are killed
//! and their directories removed with the test.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::server::binary;

/// One node of the cluster.
struct Node {
    child: Option<Child>,
    admin: String,
    ingress: String,
}

/// The nodes a test started.
pub struct Cluster {
    nodes: Vec<Node>,
    dir: PathBuf,
    http: reqwest::Client,
}

impl Cluster {
    /// Starts `count` nodes, each in a fresh directory under the tests'
    /// temporary directory, and waits until each answers `/health`.
    /// Partitions get their leaders seconds later: call
    /// [`Cluster::wait_serving`] once a worker is registered.
    pub async fn start(test: &str, count: usize) -> Self {
        let binary = binary();
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("restate-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot make {}: {error}", dir.display()));
        // Held open until all are chosen, so that no two are the same.
        let held: Vec<TcpListener> = (0..count * 3)
            .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
            .collect();
        let ports: Vec<[u16; 3]> = held
            .chunks(3)
            .map(|three| {
                let port = |i: usize| three[i].local_addr().expect("its address").port();
                [port(0), port(1), port(2)]
            })
            .collect();
        drop(held);
        let metadata: Vec<String> = ports
            .iter()
            .map(|[fabric, ..]| format!("\"http://127.0.0.1:{fabric}/\""))
            .collect();
        let mut nodes = Vec::new();
        for (i, [fabric, admin, ingress]) in ports.iter().enumerate() {
            let name = format!("n{}", i + 1);
            // The settings measured to keep a cluster on loopback: every
            // address on 127.0.0.1, the log replicated, one node (only
            // one may) provisioning the cluster.
            let config = format!(
                r#"node-name = "{name}"
cluster-name = "tool-test"
roles = ["http-ingress", "admin", "worker", "log-server", "metadata-server"]
auto-provision = {provision}
default-replication = 2
default-num-partitions = 4
base-dir = "{base}"
bind-address = "127.0.0.1:{fabric}"
advertised-address = "http://127.0.0.1:{fabric}/"
disable-telemetry = true
rocksdb-total-memory-size = "256 MiB"
log-disable-ansi-codes = true
[metadata-client]
addresses = [{metadata}]
[bifrost]
default-provider = "replicated"
[admin]
bind-address = "127.0.0.1:{admin}"
[ingress]
bind-address = "127.0.0.1:{ingress}"
"#,
                provision = i == 0,
                base = dir.join(&name).display(),
                metadata = metadata.join(", "),
            );
            let file = dir.join(format!("{name}.toml"));
            std::fs::write(&file, config).expect("a config file");
            let log = std::fs::File::create(dir.join(format!("{name}.log"))).expect("a log");
            let child = Command::new(&binary)
                .arg("-c")
                .arg(&file)
                .args(["--no-logo", "--listen-mode", "tcp"])
                .env("RESTATE_LOG_FORMAT", "compact")
                .stdin(Stdio::null())
                .stdout(log.try_clone().expect("the log again"))
                .stderr(log)
                .spawn()
                .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()));
            nodes.push(Node {
                child: Some(child),
                admin: format!("http://127.0.0.1:{admin}"),
                ingress: format!("http://127.0.0.1:{ingress}"),
            });
        }
        let cluster = Cluster {
            nodes,
            dir,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("an HTTP client"),
        };
        for node in &cluster.nodes {
            cluster
                .wait(&format!("{}/health", node.admin), Duration::from_secs(30))
                .await;
        }
        cluster
    }

    async fn wait(&self, url: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            let reply = self.http.get(url).send().await;
            if reply.is_ok_and(|reply| reply.status().is_success()) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{url} did not answer in {limit:?}; {}",
                self.log(0)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Registers the deployment at `uri` through the first live node's
    /// admin API (the cluster shares it), retrying while the cluster is
    /// still electing its leaders.
    pub async fn register(&self, uri: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let admin = self.live().next().map(|node| node.admin.clone());
            let reply = match admin {
                Some(admin) => self
                    .http
                    .post(format!("{admin}/deployments"))
                    .json(&json!({"uri": uri, "force": true}))
                    .send()
                    .await
                    .ok(),
                None => None,
            };
            if let Some(reply) = reply {
                let status = reply.status();
                let body: Value = reply.json().await.unwrap_or(Value::Null);
                if status.is_success() {
                    return body;
                }
                assert!(
                    Instant::now() < deadline,
                    "registering {uri}: {status} {body}"
                );
            }
            assert!(Instant::now() < deadline, "registering {uri}: no answer");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Waits until a real call succeeds through every live node's ingress
    /// (`/health` answers long before partitions have leaders): `POST
    /// <ingress>/<path>` with `body`.
    pub async fn wait_serving(&self, path: &str, body: &Value) {
        self.wait_serving_each(|_| (path.to_owned(), body.clone()))
            .await;
    }

    /// As [`Cluster::wait_serving`], with attempt `n` (from 0, counted
    /// over the nodes) `POST <ingress>/<path>` with `body` where
    /// `(path, body)` is `call(n)`: for a call that is run once per path
    /// (a workflow's, by its key).
    pub async fn wait_serving_each(&self, call: impl Fn(usize) -> (String, Value)) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let ingresses: Vec<String> = self.live().map(|node| node.ingress.clone()).collect();
        let mut attempt = 0;
        for ingress in ingresses {
            loop {
                let (path, body) = call(attempt);
                attempt += 1;
                let reply = self
                    .http
                    .post(format!("{ingress}/{path}"))
                    .json(&body)
                    .send()
                    .await;
                if reply.is_ok_and(|reply| reply.status().is_success()) {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "no call through {ingress} succeeded in 60 s; {}",
                    self.log(0)
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }

    fn live(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|node| node.child.is_some())
    }

    /// Every node's ingress, `http://127.0.0.1:<port>`, dead ones too (a
    /// client learns they are dead by failing to connect).
    pub fn ingresses(&self) -> Vec<String> {
        self.nodes.iter().map(|node| node.ingress.clone()).collect()
    }

    /// Kills node `i` (SIGKILL): it does not get to close anything.
    pub fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.nodes[i].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The admin API of the first live node.
    pub fn admin(&self) -> String {
        self.live()
            .next()
            .map(|node| node.admin.clone())
            .unwrap_or_default()
    }

    /// The process ids of the live nodes.
    pub fn pids(&self) -> Vec<u32> {
        self.live()
            .filter_map(|node| node.child.as_ref().map(Child::id))
            .collect()
    }

    /// The end of node `i`'s log, for a failure's message.
    pub fn log(&self, i: usize) -> String {
        let log =
            std::fs::read_to_string(self.dir.join(format!("n{}.log", i + 1))).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!("n{}'s log ends:\n{}", i + 1, tail.join("\n"))
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill(i);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
