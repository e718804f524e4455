//! The CPU time a process has spent, for the benchmarks that give CPU
//! beside wall time (their own process's, and a server's they started).

use std::time::Duration;

/// The CPU time process `pid` (`"self"` for this one) has spent so far,
/// every thread's, from /proc (the first field of each thread's
/// `schedstat`, in ns); nothing for a process that is not there.
pub(crate) fn of(pid: &str) -> Duration {
    let mut total = 0;
    if let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for thread in threads.flatten() {
            let stat = std::fs::read_to_string(thread.path().join("schedstat")).unwrap_or_default();
            total += stat
                .split_whitespace()
                .next()
                .and_then(|ns| ns.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    Duration::from_nanos(total)
}
