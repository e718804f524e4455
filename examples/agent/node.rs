//! Restate for `--restate`: a `restate-server` of the example's own, one
//! node on free loopback ports in a fresh directory, with the turn's
//! workflow served beside it on loopback and registered with it; both
//! stopped, and the directory removed, when the node is dropped.
//!
//! The server's settings keep it on loopback alone (bind and advertised
//! addresses on 127.0.0.1, TCP only, no unix sockets): without them it
//! advertises the machine's other addresses.

use std::net::TcpListener as StdListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tool_restate::TurnWorkflow;

use super::Error;
use super::http::{chain, error_message};

/// The variable that names the server's binary.
pub(crate) const SERVER: &str = "TOOL_RESTATE_SERVER";

/// How long the server may take to answer once started (it takes well
/// under a second here).
const READY: Duration = Duration::from_secs(30);

/// A `restate-server` the example started, and the workflow it runs turns
/// on.
#[derive(Debug)]
pub(crate) struct Node {
    server: Child,
    dir: PathBuf,
    worker: JoinHandle<()>,
    /// The ingress: `http://127.0.0.1:<port>`.
    pub(crate) ingress: String,
}

impl Node {
    /// Starts the server named by [`SERVER`], serves `workflow` on a
    /// loopback port and registers it with the server's admin API.
    pub(crate) async fn start<Ctx: Send + Sync + 'static>(
        workflow: TurnWorkflow<Ctx>,
    ) -> Result<Node, Error> {
        let binary = std::env::var_os(SERVER).filter(|path| !path.is_empty()).ok_or_else(|| {
            Error::Restate(format!(
                "`--restate` starts Restate's server, and {SERVER} does not name it: set it to \
                 a restate-server 1.7 binary, as the one `scripts/test` installs \
                 (target/restate/node_modules/@restatedev/restate-server-linux-x64/bin/restate-server), \
                 or `npm install --prefix target/restate @restatedev/restate-server@1.7.12` does"
            ))
        })?;
        let [fabric, admin, ingress] = [free_port()?, free_port()?, free_port()?];
        let dir = std::env::temp_dir().join(format!("tool-agent-restate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|error| Error::Restate(format!("cannot make {}: {error}", dir.display())))?;
        let server = spawn(Path::new(&binary), &dir, [fabric, admin, ingress])?;
        // From here on, dropping the node stops what was started.
        let listener = TcpListener::bind("127.0.0.1:0").await.map_err(|error| {
            Error::Restate(format!("no loopback port for the workflow: {error}"))
        })?;
        let worker_port = listener
            .local_addr()
            .map_err(|error| Error::Restate(error.to_string()))?
            .port();
        let mut node = Node {
            server,
            dir,
            worker: tokio::spawn(async move {
                if let Err(error) = workflow.serve(listener, std::future::pending()).await {
                    eprintln!("error: the turn's workflow cannot be served: {error}");
                }
            }),
            ingress: format!("http://127.0.0.1:{ingress}"),
        };
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|error| Error::Client(chain(&error)))?;
        let admin = format!("http://127.0.0.1:{admin}");
        node.wait_ready(&http, &admin).await?;
        register(&http, &admin, &format!("http://127.0.0.1:{worker_port}")).await?;
        Ok(node)
    }

    /// Waits until the admin API and the ingress answer.
    async fn wait_ready(&mut self, http: &reqwest::Client, admin: &str) -> Result<(), Error> {
        let deadline = Instant::now() + READY;
        let up = |url: String| async move {
            let reply = http.get(url).send().await;
            reply.is_ok_and(|reply| reply.status().is_success())
        };
        loop {
            if let Ok(Some(status)) = self.server.try_wait() {
                return Err(Error::Restate(format!(
                    "restate-server stopped at start ({status}); {}",
                    self.log()
                )));
            }
            if up(format!("{admin}/health")).await
                && up(format!("{}/restate/health", self.ingress)).await
            {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(Error::Restate(format!(
                    "restate-server did not answer in {} s; {}",
                    READY.as_secs(),
                    self.log()
                )));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The end of the server's log, for an error's message.
    fn log(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!("its log ends:\n{}", tail.join("\n"))
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.worker.abort();
        let _ = self.server.kill();
        let _ = self.server.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts the server in `dir` on the ports `[fabric, admin, ingress]`,
/// its log in `dir/server.log`.
fn spawn(binary: &Path, dir: &Path, [fabric, admin, ingress]: [u16; 3]) -> Result<Child, Error> {
    let log = std::fs::File::create(dir.join("server.log"))
        .and_then(|log| Ok((log.try_clone()?, log)))
        .map_err(|error| Error::Restate(format!("cannot write the server's log: {error}")))?;
    Command::new(binary)
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
        // A block cache of 2 GiB and 24 partitions unless told: far more
        // than one conversation needs.
        .env("RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE", "256 MiB")
        .env("RESTATE_DEFAULT_NUM_PARTITIONS", "4")
        .stdin(Stdio::null())
        .stdout(log.0)
        .stderr(log.1)
        .spawn()
        .map_err(|error| Error::Restate(format!("cannot start {}: {error}", binary.display())))
}

/// Registers the deployment at `uri` with the admin API.
async fn register(http: &reqwest::Client, admin: &str, uri: &str) -> Result<(), Error> {
    let url = format!("{admin}/deployments");
    let reply = http
        .post(&url)
        .json(&json!({"uri": uri, "force": true}))
        .send()
        .await
        .map_err(|error| Error::Send {
            url: url.clone(),
            message: chain(&error.without_url()),
        })?;
    let status = reply.status();
    if status.is_success() {
        return Ok(());
    }
    let body = reply.bytes().await.unwrap_or_default();
    Err(Error::Status {
        url,
        status: status.to_string(),
        message: error_message(&body),
    })
}

/// A loopback port free now.
fn free_port() -> Result<u16, Error> {
    StdListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|error| Error::Restate(format!("no free loopback port: {error}")))
}
