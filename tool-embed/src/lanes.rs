//! The threads a single text is embedded on: one text's few tokens are
//! done sooner on one core than with each product spread over several
//! (BENCHMARKS.md, "Tool search by meaning"), so each query runs on a
//! thread of its own, and as many queries run at once as there are cores.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError, TryLockError};

use rayon::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

/// One pool of one thread per core. candle's products run on rayon's
/// current pool, so a closure installed on a pool of one runs on that one
/// thread, whatever the process's other pools hold.
pub(crate) struct Lanes {
    lanes: Vec<Mutex<ThreadPool>>,
    /// Where a caller that finds every lane busy waits: each in turn.
    next: AtomicUsize,
}

impl Lanes {
    pub(crate) fn new() -> Result<Self, ThreadPoolBuildError> {
        let count = std::thread::available_parallelism().map_or(1, usize::from);
        let lanes = (0..count)
            .map(|lane| {
                ThreadPoolBuilder::new()
                    .num_threads(1)
                    .thread_name(move |_| format!("tool-embed-{lane}"))
                    .build()
                    .map(Mutex::new)
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            lanes,
            next: AtomicUsize::new(0),
        })
    }

    /// `work` run on a free lane, or, if every lane is busy, on the next
    /// one in turn once it is free. It blocks the calling thread meanwhile.
    pub(crate) fn run<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        // A lane whose work panicked is as free as any other: the panic
        // went to that work's caller, and the pool's thread lives on.
        let free = self.lanes.iter().find_map(|lane| match lane.try_lock() {
            Ok(lane) => Some(lane),
            Err(TryLockError::Poisoned(lane)) => Some(lane.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        });
        let lane = match free {
            Some(lane) => lane,
            None => {
                let at = self.next.fetch_add(1, Ordering::Relaxed) % self.lanes.len();
                self.lanes[at]
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
            }
        };
        lane.install(work)
    }
}
