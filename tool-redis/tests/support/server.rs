//! A real `redis-server` on a loopback port of its own, for one test:
//! started, stopped (killed, or shut down keeping its data) and started
//! again on the same port, killed with the test.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `redis-server` this test started.
pub(crate) struct Server {
    binary: PathBuf,
    port: u16,
    child: Option<Child>,
    /// Where it saves its data when [`Server::stop`]ped: its own.
    dir: PathBuf,
}

impl Server {
    /// Starts one on a free loopback port, keeping nothing on disk until
    /// it is [stopped](Server::stop).
    pub(crate) fn start() -> Self {
        let binary = binary();
        let port = free_port();
        let dir =
            std::env::temp_dir().join(format!("tool-redis-test-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot make {}: {error}", dir.display()));
        let mut server = Server {
            binary,
            port,
            child: None,
            dir,
        };
        server.start_again();
        server
    }

    /// Where it listens.
    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Stops it at once (SIGKILL): what it held is lost.
    pub(crate) fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_file(self.dump());
    }

    /// Stops it as an operator would (`SHUTDOWN SAVE`): it closes its
    /// connections and writes what it holds to disk, which it reads again
    /// when [started again](Server::start_again). Each record keeps the
    /// time it expires at: one whose time passes while it is down is gone.
    pub(crate) fn stop(&mut self) {
        let mut child = self.child.take().expect("running");
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.write_all(b"SHUTDOWN SAVE\r\n").expect("send");
        // It answers only if it cannot shut down; else the connection ends.
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        assert!(
            reply.is_empty(),
            "SHUTDOWN answered {:?}",
            String::from_utf8_lossy(&reply)
        );
        let status = child.wait().expect("reaped");
        assert!(status.success(), "redis-server shut down with {status}");
        assert!(self.dump().exists(), "redis-server saved nothing");
    }

    /// Where it saves its data.
    fn dump(&self) -> PathBuf {
        self.dir.join("dump.rdb")
    }

    /// Starts it again on the same port: empty after a [kill](Server::kill),
    /// with what it held after a [stop](Server::stop).
    pub(crate) fn start_again(&mut self) {
        assert!(self.child.is_none(), "already running");
        let child = Command::new(&self.binary)
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .arg("--dir")
            .arg(&self.dir)
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", self.binary.display()));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.answers() {
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                panic!("{} exited at start: {status}", self.binary.display());
            }
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer in 10 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// How many keys it holds (`DBSIZE`).
    pub(crate) fn keys(&self) -> u64 {
        let reply = self.command("DBSIZE\r\n");
        reply
            .trim()
            .strip_prefix(':')
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("DBSIZE answered {reply:?}"))
    }

    fn answers(&self) -> bool {
        TcpStream::connect(("127.0.0.1", self.port)).is_ok_and(|mut stream| {
            let mut reply = [0; 7];
            stream.write_all(b"PING\r\n").is_ok()
                && stream.read_exact(&mut reply).is_ok()
                && &reply == b"+PONG\r\n"
        })
    }

    fn command(&self, command: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.write_all(command.as_bytes()).expect("send");
        let mut reply = [0; 64];
        let read = stream.read(&mut reply).expect("read");
        String::from_utf8_lossy(&reply[..read]).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The `redis-server` to run: `TOOL_REDIS_SERVER`, which scripts/test
/// sets after installing Debian's under target/redis.
fn binary() -> PathBuf {
    match std::env::var_os("TOOL_REDIS_SERVER") {
        Some(path) => PathBuf::from(path),
        None => panic!(
            "these tests need a redis-server (7 or newer): run scripts/test, which installs \
             Debian's redis-tools under target/redis, or set TOOL_REDIS_SERVER to a \
             redis-server binary"
        ),
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}
