//! A `redis-server` of the loader's own, for `--replicas`: one started
//! empty for each round on a free loopback port (nothing kept on disk),
//! killed at the round's end, and what it spent read from its `INFO`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `redis-server` to run: `TOOL_REDIS_SERVER` (as the tests read
/// it), else the repository's `target/redis/redis-server` that
/// `scripts/test` installs.
pub(crate) fn binary() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("TOOL_REDIS_SERVER").filter(|path| !path.is_empty()) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "TOOL_REDIS_SERVER names {}, which is not a file",
                path.display()
            ))
        };
    }
    let installed = crate::manifest_dir().join("../../target/redis/redis-server");
    if installed.is_file() {
        Ok(installed)
    } else {
        Err(format!(
            "--replicas needs a redis-server (7 or newer) and found none at {}: run scripts/test \
             first (it installs Debian's redis-server under target/redis), or set \
             TOOL_REDIS_SERVER to a redis-server binary",
            installed.display()
        ))
    }
}

/// A `redis-server` this loader started; killed when dropped.
pub(crate) struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Starts `binary` on a free loopback port, empty, keeping nothing on
    /// disk, and waits until it answers `PING`.
    pub(crate) fn start(binary: &std::path::Path) -> Result<Self, String> {
        let port = crate::free_port();
        let child = Command::new(binary)
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", binary.display()))?;
        let mut server = RedisServer { child, port };
        let start = Instant::now();
        while !server.answers() {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("{} exited at start: {status}", binary.display()));
            }
            if start.elapsed() > Duration::from_secs(10) {
                return Err("redis-server did not answer PING in 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(server)
    }

    /// Where it listens.
    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn answers(&self) -> bool {
        TcpStream::connect(("127.0.0.1", self.port)).is_ok_and(|mut stream| {
            let mut reply = [0; 7];
            stream.write_all(b"PING\r\n").is_ok()
                && stream.read_exact(&mut reply).is_ok()
                && &reply == b"+PONG\r\n"
        })
    }

    /// The text of `INFO <sections>`.
    fn info(&self, sections: &str) -> Result<String, String> {
        let error = |e: std::io::Error| format!("INFO {sections}: {e}");
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(error)?;
        stream
            .write_all(format!("INFO {sections}\r\n").as_bytes())
            .map_err(error)?;
        let mut reply = Vec::new();
        let mut buffer = [0; 16384];
        loop {
            let read = stream.read(&mut buffer).map_err(error)?;
            if read == 0 {
                return Err(format!("INFO {sections}: closed after {reply:?}"));
            }
            reply.extend_from_slice(&buffer[..read]);
            // A bulk string: `$<len>\r\n<body>\r\n`.
            let Some(head) = reply.iter().position(|&b| b == b'\n') else {
                continue;
            };
            let len: usize = std::str::from_utf8(&reply[1..head])
                .ok()
                .and_then(|len| len.trim().parse().ok())
                .ok_or_else(|| format!("INFO {sections}: {}", String::from_utf8_lossy(&reply)))?;
            if reply.len() >= head + 1 + len {
                return Ok(String::from_utf8_lossy(&reply[head + 1..head + 1 + len]).into_owned());
            }
        }
    }

    /// What it has spent so far: CPU and commands.
    pub(crate) fn snapshot(&self) -> Result<Snapshot, String> {
        let info = self.info("cpu commandstats")?;
        let field = |key: &str| -> f64 {
            info.lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
                .and_then(|value| value.trim().parse().ok())
                .unwrap_or(0.0)
        };
        let cpu_s = field("used_cpu_sys") + field("used_cpu_user");
        // `cmdstat_<name>:calls=<n>,usec=...`; this loader's own `INFO`s
        // left out.
        let commands = info
            .lines()
            .filter_map(|line| {
                let (name, rest) = line.strip_prefix("cmdstat_")?.split_once(':')?;
                let calls = rest
                    .strip_prefix("calls=")?
                    .split(',')
                    .next()?
                    .parse()
                    .ok()?;
                Some((name.to_owned(), calls))
            })
            .filter(|(name, _)| name != "info")
            .collect();
        Ok(Snapshot { cpu_s, commands })
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Redis's CPU time (`used_cpu_sys` + `used_cpu_user`, s) and the calls of
/// each command (`INFO commandstats`) at one moment.
pub(crate) struct Snapshot {
    cpu_s: f64,
    commands: Vec<(String, u64)>,
}

/// What Redis spent per call between two snapshots.
#[derive(Clone, Default)]
pub(crate) struct RedisUse {
    /// CPU time, µs per call.
    pub(crate) cpu_us: f64,
    /// Commands run, per call: those scripts run counted too (Redis counts
    /// each under its own name as well as the script's `EVALSHA`).
    pub(crate) commands: f64,
    /// Commands per call, by name, most first.
    pub(crate) by_name: Vec<(String, f64)>,
}

impl Snapshot {
    /// What Redis spent from `self` to `after`, per call of `calls`.
    pub(crate) fn until(&self, after: &Snapshot, calls: usize) -> RedisUse {
        let calls = calls as f64;
        let mut by_name: Vec<(String, f64)> = after
            .commands
            .iter()
            .map(|(name, count)| {
                let was = self
                    .commands
                    .iter()
                    .find(|(before, _)| before == name)
                    .map_or(0, |(_, count)| *count);
                (name.clone(), count.saturating_sub(was) as f64 / calls)
            })
            .filter(|(_, per_call)| *per_call > 0.0)
            .collect();
        by_name.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        RedisUse {
            cpu_us: (after.cpu_s - self.cpu_s) * 1e6 / calls,
            commands: by_name
                .iter()
                .fold(0.0, |sum, (_, per_call)| sum + per_call),
            by_name,
        }
    }
}
