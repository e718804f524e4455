//! A real `restate-server`, one node on loopback ports of its own, for one
//! test: started in a fresh directory, ready once its admin API and ingress
//! answer, killed and its directory removed with the test.
//!
//! The settings are the ones measured to keep a node on loopback alone
//! (bind and advertised addresses on 127.0.0.1, TCP only, no unix
//! sockets): without them it advertises the machine's other addresses.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A `restate-server` this test started.
pub struct Server {
    child: Child,
    dir: PathBuf,
    ports: [u16; 3],
    admin: String,
    ingress: String,
    http: reqwest::Client,
}

impl Server {
    /// Starts a node in a fresh directory under the tests' temporary
    /// directory, and waits until it answers.
    pub async fn start(test: &str) -> Self {
        let ports = [free_port(), free_port(), free_port()];
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("restate-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot make {}: {error}", dir.display()));
        let [_, admin, ingress] = ports;
        let mut server = Server {
            child: spawn(&dir, ports),
            dir,
            ports,
            admin: format!("http://127.0.0.1:{admin}"),
            ingress: format!("http://127.0.0.1:{ingress}"),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .expect("an HTTP client"),
        };
        server.wait_ready().await;
        server
    }

    /// Stops the node (SIGKILL), then starts it again on the same
    /// directory and ports: what it had stored, it has again.
    pub async fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.child = spawn(&self.dir, self.ports);
        self.wait_ready().await;
    }

    async fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("restate-server exited at start: {status}; {}", self.log());
            }
            let admin = self.http.get(format!("{}/health", self.admin)).send().await;
            let ingress = self
                .http
                .get(format!("{}/restate/health", self.ingress))
                .send()
                .await;
            if admin.is_ok_and(|reply| reply.status().is_success())
                && ingress.is_ok_and(|reply| reply.status().is_success())
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "restate-server did not answer in 30 s; {}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Registers the deployment at `uri` (a worker serving its services),
    /// again if it was (`force`), and gives the server's answer.
    pub async fn register(&self, uri: &str) -> Value {
        let reply = self
            .http
            .post(format!("{}/deployments", self.admin))
            .json(&json!({"uri": uri, "force": true}))
            .send()
            .await
            .expect("the admin API answers");
        let status = reply.status();
        let body: Value = reply.json().await.unwrap_or(Value::Null);
        assert!(status.is_success(), "registering {uri}: {status} {body}");
        body
    }

    /// The ingress's address, `http://127.0.0.1:<port>`.
    pub fn ingress(&self) -> &str {
        &self.ingress
    }

    /// The admin API's address.
    pub fn admin(&self) -> &str {
        &self.admin
    }

    /// An HTTP client for the test, with a timeout.
    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// The row of `sys_invocation` of the invocation `id`: its `status`,
    /// `completion_result`, `completion_failure`, `retry_count`.
    pub async fn invocation(&self, id: &str) -> Value {
        let query = format!(
            "SELECT id, status, completion_result, completion_failure, retry_count \
             FROM sys_invocation WHERE id = '{id}'"
        );
        let reply: Value = self
            .http
            .post(format!("{}/query", self.admin))
            .header("accept", "application/json")
            .json(&json!({ "query": query }))
            .send()
            .await
            .expect("the admin API answers")
            .json()
            .await
            .expect("rows");
        reply["rows"][0].clone()
    }

    /// Sends `path` (`<service>/<handler>`, or a workflow's
    /// `<workflow>/<key>/<handler>`) `body` on the ingress, not waiting
    /// for it: the invocation's id.
    pub async fn send(&self, path: &str, body: Value) -> String {
        let reply: Value = self
            .http
            .post(format!("{}/{path}/send", self.ingress))
            .json(&body)
            .send()
            .await
            .expect("the ingress answers")
            .json()
            .await
            .expect("an invocation");
        reply["invocationId"]
            .as_str()
            .unwrap_or_else(|| panic!("sent {path}: {reply}"))
            .to_owned()
    }

    /// Waits for the invocation `id` to end: its HTTP status and body.
    pub async fn attach(&self, id: &str) -> (u16, String) {
        let reply = self
            .http
            .get(format!("{}/restate/attach/{id}", self.ingress))
            .send()
            .await
            .expect("the ingress answers");
        let status = reply.status().as_u16();
        (status, reply.text().await.expect("a body"))
    }

    /// Cancels the invocation `id` through the admin API.
    pub async fn cancel(&self, id: &str) {
        let reply = self
            .http
            .patch(format!("{}/invocations/{id}/cancel", self.admin))
            .send()
            .await
            .expect("the admin API answers");
        assert!(reply.status().is_success(), "{}", reply.status());
    }

    /// The service `service` as the admin API publishes it (its
    /// handlers, their schemas and timeouts).
    pub async fn published(&self, service: &str) -> Value {
        self.http
            .get(format!("{}/services/{service}", self.admin))
            .send()
            .await
            .expect("the admin API answers")
            .json()
            .await
            .expect("a service")
    }

    /// Serves `services` from this process on a free port, and registers
    /// them.
    pub async fn serve(&self, services: Vec<restate_sdk::service::ServiceDefinition>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let address = listener.local_addr().expect("its address");
        let mut endpoint = restate_sdk::endpoint::Endpoint::builder();
        for service in services {
            endpoint = endpoint.bind(service);
        }
        tokio::spawn(
            restate_sdk::http_server::HttpServer::new(endpoint.build())
                .serve_with_cancel(listener, std::future::pending::<()>()),
        );
        self.register(&format!("http://{address}")).await;
    }

    /// Its process id, to read the CPU time it spends.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The end of the server's log, for a failure's message.
    pub fn log(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!("its log ends:\n{}", tail.join("\n"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts a node in `dir` on the ports `[fabric, admin, ingress]`,
/// appending to its log there.
fn spawn(dir: &Path, [fabric, admin, ingress]: [u16; 3]) -> Child {
    let binary = binary();
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("server.log"))
        .expect("a log file");
    Command::new(&binary)
        .arg("--base-dir")
        .arg(dir)
        .args(["--node-name", "n1", "--listen-mode", "tcp", "--no-logo"])
        .args(["--log-disable-ansi-codes", "true"])
        .env("RESTATE_BIND_ADDRESS", format!("127.0.0.1:{fabric}"))
        .env(
            "RESTATE_ADVERTISED_ADDRESS",
            format!("http://127.0.0.1:{fabric}/"),
        )
        .env("RESTATE_ADMIN__BIND_ADDRESS", format!("127.0.0.1:{admin}"))
        .env(
            "RESTATE_INGRESS__BIND_ADDRESS",
            format!("127.0.0.1:{ingress}"),
        )
        .env("RESTATE_DISABLE_TELEMETRY", "true")
        .env("RESTATE_LOG_FORMAT", "compact")
        // Its block cache takes 2 GiB unless told; a test needs little,
        // and several run at once.
        .env("RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE", "256 MiB")
        // Fewer partitions (24 unless told): less to start and keep.
        .env("RESTATE_DEFAULT_NUM_PARTITIONS", "4")
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("the log again"))
        .stderr(log)
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary.display()))
}

/// The `restate-server` to run: `TOOL_RESTATE_SERVER`, which scripts/test
/// sets after installing it under target/restate.
pub fn binary() -> PathBuf {
    match std::env::var_os("TOOL_RESTATE_SERVER") {
        Some(path) => PathBuf::from(path),
        None => panic!(
            "these tests need Restate's server: run scripts/test, which installs \
             @restatedev/restate-server 1.7.12 (tests/restate) under target/restate, or set \
             TOOL_RESTATE_SERVER to a restate-server 1.7 binary"
        ),
    }
}

/// A loopback port free now.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}
