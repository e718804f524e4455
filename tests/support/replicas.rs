//! The processes of a fault test: one `redis-server` of its own and three
//! replicas of the MCP server (`replica.rs`), each the test binary run
//! again; every line of the run log the replicas print, with when it was
//! heard, and everything they print to stderr, kept after they are killed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use crate::redis_server::Server;
use crate::replica::{Config, REPLICA, RUN_LOG, SERVING};

/// The lines of the run log, each with when the harness heard it.
#[derive(Clone, Default)]
pub(crate) struct RunLog(Arc<Mutex<Vec<(Instant, String)>>>);

impl RunLog {
    fn push(&self, line: String) {
        let mut lines = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        lines.push((Instant::now(), line));
    }

    /// Every line so far.
    pub(crate) fn lines(&self) -> Vec<String> {
        let lines = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        lines.iter().map(|(_, line)| line.clone()).collect()
    }

    /// The lines that start with `prefix`, in the order heard.
    pub(crate) fn starting(&self, prefix: &str) -> Vec<String> {
        let mut lines = self.lines();
        lines.retain(|line| line.starts_with(prefix));
        lines
    }

    /// When `line` was heard, waiting at most `within` for it.
    pub(crate) async fn heard(&self, line: &str, within: Duration) -> Option<Instant> {
        let until = Instant::now() + within;
        loop {
            {
                let lines = self.0.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some((at, _)) = lines.iter().find(|(_, heard)| heard == line) {
                    return Some(*at);
                }
            }
            if Instant::now() >= until {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// A replica process, killed with the test however it ends.
pub(crate) struct Replica {
    pub(crate) name: String,
    pub(crate) url: String,
    child: Child,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Replica {
    /// Kills it at once (SIGKILL): it writes nothing more, anywhere.
    pub(crate) fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// Whether the process still runs.
    pub(crate) fn runs(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// What it printed to stderr.
    pub(crate) fn stderr(&self) -> Vec<String> {
        self.stderr
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Redis and the replicas on it.
pub(crate) struct Cluster {
    pub(crate) redis: Server,
    pub(crate) replicas: Vec<Replica>,
    pub(crate) log: RunLog,
}

impl Cluster {
    /// A new Redis, and `count` replicas on it, each keeping tasks
    /// `task_ttl` when given, each answering once it says where.
    pub(crate) fn start(count: usize, task_ttl: Option<Duration>) -> Self {
        let redis = Server::start();
        let log = RunLog::default();
        let starting: Vec<_> = (0..count)
            .map(|k| {
                let config = Config {
                    name: format!("replica-{k}"),
                    redis: redis.url(),
                    pending_timeout_ms: 5_000,
                    task_ttl_ms: task_ttl.map(|ttl| ttl.as_millis() as u64),
                };
                spawn(config, &log)
            })
            .collect();
        let replicas = starting
            .into_iter()
            .map(|(mut replica, address)| {
                match address.recv_timeout(Duration::from_secs(60)) {
                    Ok(url) => replica.url = url,
                    Err(_) => {
                        let status = replica.child.try_wait();
                        panic!(
                            "{} did not say where it serves in 60 s ({status:?}); its stderr: {:#?}",
                            replica.name,
                            replica.stderr()
                        )
                    }
                }
                replica
            })
            .collect();
        Cluster {
            redis,
            replicas,
            log,
        }
    }

    pub(crate) fn urls(&self) -> Vec<String> {
        self.replicas.iter().map(|r| r.url.clone()).collect()
    }

    /// How many of the replicas' words that they live Redis holds
    /// (`owner:<id>`, a registry's and a server's tasks' per process).
    pub(crate) fn leases(&self) -> usize {
        let reply = redis_command(&self.redis, "KEYS tools:owner:*\r\n");
        let count = reply
            .lines()
            .next()
            .and_then(|first| first.strip_prefix('*'));
        count
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("KEYS answered {reply:?}"))
    }

    /// Every replica still runs, and none panicked.
    pub(crate) fn assert_all_run_and_none_panicked(&mut self) {
        for replica in &mut self.replicas {
            let name = replica.name.clone();
            assert!(replica.runs(), "{name} stopped: {:#?}", replica.stderr());
            let stderr = replica.stderr();
            assert!(
                !stderr.iter().any(|line| line.contains("panicked")),
                "{name} panicked: {stderr:#?}"
            );
        }
    }
}

/// Starts a replica as `config` says; it sends its URL once it serves.
fn spawn(config: Config, log: &RunLog) -> (Replica, mpsc::Receiver<String>) {
    let exe = std::env::current_exe().expect("this test binary");
    let mut child = Command::new(exe)
        .args([
            "replica_process",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(REPLICA, serde_json::to_string(&config).expect("JSON"))
        // Closed when the test ends, however: the replica then exits.
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("a replica starts");
    let stdout = child.stdout.take().expect("piped");
    let log = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // After whatever libtest wrote on the same line.
            if let Some((_, line)) = line.split_once(RUN_LOG) {
                log.push(line.to_owned());
            }
        }
    });
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let (told, address) = mpsc::channel();
    let lines = child.stderr.take().expect("piped");
    std::thread::spawn({
        let stderr = Arc::clone(&stderr);
        move || {
            for line in BufReader::new(lines).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix(SERVING) {
                    let _ = told.send(url.trim().to_owned());
                }
                stderr
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(line);
            }
        }
    });
    let replica = Replica {
        name: config.name,
        url: String::new(),
        child,
        stderr,
    };
    (replica, address)
}

/// One command to `redis`, its whole answer (what fits in 64 KiB).
fn redis_command(redis: &Server, command: &str) -> String {
    let address = redis.url();
    let address = address.strip_prefix("redis://").expect("a redis:// URL");
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.write_all(command.as_bytes()).expect("send");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("a timeout");
    let mut reply = vec![0; 64 * 1024];
    let read = stream.read(&mut reply).expect("read");
    String::from_utf8_lossy(&reply[..read]).into_owned()
}
