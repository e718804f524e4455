//! The worker processes a test starts: the test's own binary, started
//! again with [`WORKER`] set to `<port> <what it is told>` (a test's
//! worker, the counter's URL; the benchmark's, its service's name), which
//! its `main` reads to serve instead of testing (`harness::main`). Each worker keeps its port, so that one killed
//! (SIGKILL) and started again is the same deployment to Restate; it is
//! killed with the test.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::server::free_port;

/// Set in a worker process: `<port> <what it is told>`.
pub const WORKER: &str = "TOOL_RESTATE_TEST_WORKER";

/// A worker process on a port of its own.
pub struct Worker {
    port: u16,
    current: Killer,
}

/// What kills a worker, from wherever (a counter's request, say).
#[derive(Clone, Default)]
pub struct Killer(Arc<Mutex<Option<Child>>>);

impl Killer {
    /// Kills the worker (SIGKILL), if one runs: whether one did.
    pub fn kill(&self) -> bool {
        let worker = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        match worker {
            Some(mut worker) => {
                worker.kill().expect("SIGKILL");
                let _ = worker.wait();
                true
            }
            None => false,
        }
    }
}

impl Worker {
    /// A worker on a free port, not started yet.
    pub fn new() -> Self {
        Worker {
            port: free_port(),
            current: Killer::default(),
        }
    }

    /// A worker started, told `told`.
    pub fn started(told: &str) -> Self {
        let worker = Worker::new();
        worker.start(told);
        worker
    }

    /// Starts the worker (again) on its port, telling it `told`, and
    /// waits until it listens.
    pub fn start(&self, told: &str) {
        let child = Command::new(std::env::current_exe().expect("this binary"))
            .env(WORKER, format!("{} {told}", self.port))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("a worker");
        *self
            .current
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the worker did not listen in 10 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Its URI, to register: `http://127.0.0.1:<port>`.
    pub fn uri(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The process id of the worker running now, if one runs.
    pub fn pid(&self) -> Option<u32> {
        self.current
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(Child::id)
    }

    /// Kills it (SIGKILL), if it runs: whether it did.
    pub fn kill(&self) -> bool {
        self.current.kill()
    }

    /// What kills it, to hand to a counter.
    pub fn killer(&self) -> Killer {
        self.current.clone()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let worker = self
            .current
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(mut worker) = worker {
            let _ = worker.kill();
            let _ = worker.wait();
        }
    }
}
