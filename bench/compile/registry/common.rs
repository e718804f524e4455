// What holding the 100 tools costs, measured in-process. `run.py
// --registry` writes this file, followed by the framework's part (`build`,
// `list`, `parts`), as `examples/registry.rs` of each generated workspace,
// and runs it in release mode:
//
//   registry time REPS   timings (medians of REPS) and heap, as `key\tvalue` lines
//   registry rss empty   VmHWM of a process that builds nothing
//   registry rss build   VmHWM after building the collection once (and
//                        how long that first build of the process took)
//   registry rss list    VmHWM after building it (timed too) and its MCP
//                        list once
//   registry rss PART    VmHWM after one piece of registration alone
//                        (`rss_part`; tool-core: `meta`)

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// The system allocator, counting live bytes, allocations, and live blocks
/// and bytes by size class (powers of two from 8 bytes).
struct Counting;

const CLASSES: usize = 24;
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static CLASS_BLOCKS: [AtomicIsize; CLASSES] = [const { AtomicIsize::new(0) }; CLASSES];
static CLASS_BYTES: [AtomicIsize; CLASSES] = [const { AtomicIsize::new(0) }; CLASSES];

fn class(size: usize) -> usize {
    let bits = (usize::BITS - size.max(1).saturating_sub(1).leading_zeros()) as usize;
    bits.saturating_sub(3).min(CLASSES - 1)
}

fn count(size: usize, sign: isize) {
    let live = LIVE.fetch_add(sign * size as isize, Relaxed) + sign * size as isize;
    PEAK.fetch_max(live, Relaxed);
    CLASS_BLOCKS[class(size)].fetch_add(sign, Relaxed);
    CLASS_BYTES[class(size)].fetch_add(sign * size as isize, Relaxed);
    if sign > 0 {
        ALLOCS.fetch_add(1, Relaxed);
    }
}

// SAFETY: every call goes to the system allocator unchanged; the counters
// only record the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 1);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 1);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(layout.size(), -1);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(layout.size(), -1);
        count(new_size, 1);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What the heap holds and how often it was asked, at one moment.
#[derive(Clone, Copy)]
struct Heap {
    live: isize,
    allocs: usize,
    blocks: [isize; CLASSES],
    bytes: [isize; CLASSES],
}

impl Heap {
    fn now() -> Self {
        Self {
            live: LIVE.load(Relaxed),
            allocs: ALLOCS.load(Relaxed),
            blocks: std::array::from_fn(|i| CLASS_BLOCKS[i].load(Relaxed)),
            bytes: std::array::from_fn(|i| CLASS_BYTES[i].load(Relaxed)),
        }
    }

    /// Prints what was made since `self`, as `prefix_*` lines.
    fn report_since(self, prefix: &str) {
        let now = Heap::now();
        println!("{prefix}_bytes\t{}", now.live - self.live);
        println!("{prefix}_allocs\t{}", now.allocs - self.allocs);
        for i in 0..CLASSES {
            let blocks = now.blocks[i] - self.blocks[i];
            if blocks != 0 {
                let upper = 8usize << i;
                println!("{prefix}_class_{upper}_blocks\t{blocks}");
                println!(
                    "{prefix}_class_{upper}_bytes\t{}",
                    now.bytes[i] - self.bytes[i]
                );
            }
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn micros(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e6
}

/// How long `make` takes, in µs; what it made is dropped once the clock
/// has stopped (a closure that drops it itself times the drop too).
fn timed<T>(make: impl FnOnce() -> T) -> f64 {
    let start = Instant::now();
    let made = make();
    let us = micros(start);
    drop(black_box(made));
    us
}

/// `f`'s median time in µs over `reps` runs, each on a fresh thread (whose
/// thread-local caches start empty), timed inside it.
fn median_on_fresh_threads(reps: usize, f: impl Fn() -> f64 + Sync) -> f64 {
    median(
        (0..reps)
            .map(|_| std::thread::scope(|s| s.spawn(&f).join().unwrap()))
            .collect(),
    )
}

fn vm_status() {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for line in status.lines() {
        for key in ["VmHWM", "VmRSS"] {
            if let Some(rest) = line.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
                let kb = rest.trim().trim_end_matches("kB").trim();
                println!("{}_kb\t{kb}", key.to_lowercase());
            }
        }
    }
}

/// The resident set now, by what is mapped: the binary's code (`r-x`),
/// read-only data (`r--`: constants, and what relocation wrote at start)
/// and writable data, shared libraries, the heap (`[heap]` and anonymous
/// mappings), the stack and the rest, from /proc/self/smaps.
fn rss_by_mapping() {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap_or_default();
    let mut sums: Vec<(&'static str, u64)> = Vec::new();
    let mut kind = "other";
    for line in smaps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let Some(rss) = line.strip_prefix("Rss:") {
            let kb: u64 = rss
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .unwrap_or(0);
            match sums.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, total)) => *total += kb,
                None => sums.push((kind, kb)),
            }
        } else if fields.len() >= 5 && fields[0].contains('-') && !fields[0].ends_with(':') {
            let perms = fields[1];
            let path = fields.get(5).copied().unwrap_or("");
            kind = if exe
                .as_deref()
                .is_some_and(|e| e == std::path::Path::new(path))
            {
                match perms.get(..3) {
                    Some("r-x") => "exe_code",
                    Some("r--") => "exe_readonly",
                    _ => "exe_data",
                }
            } else if path.contains(".so") {
                "libraries"
            } else if path.is_empty() || path == "[heap]" {
                "heap"
            } else if path == "[stack]" {
                "stack"
            } else {
                "other"
            };
        }
    }
    for (kind, kb) in sums {
        println!("smaps_{kind}_kb\t{kb}");
    }
}

fn time(reps: usize) {
    // The first build of the process, with whatever is made once per
    // process (schema generators' settings, meta-schemas) in it.
    println!("build_first_in_process_us\t{:.1}", timed(build));
    drop(black_box(list(&build())));

    // Warm: built again and again on this thread.
    let warm = (0..reps).map(|_| timed(build));
    println!("build_warm_us\t{:.1}", median(warm.collect()));
    // Cold: each on a new thread, so that no thread-local cache helps, and
    // with what is kept per process for the tools forgotten.
    let cold = median_on_fresh_threads(reps, || {
        forget();
        timed(build)
    });
    println!("build_cold_us\t{cold:.1}");

    // The MCP list: first on a fresh collection, then again.
    let (mut first, mut again) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let collection = build();
        first.push(timed(|| drop(black_box(list(&collection)))));
        again.push(timed(|| (0..10).for_each(|_| drop(black_box(list(&collection))))) / 10.0);
    }
    println!("list_first_us\t{:.2}", median(first));
    println!("list_again_us\t{:.3}", median(again));

    // The heap a collection holds, built on a fresh thread (so that a
    // thread-local cache is not left holding part of it) after the warm-up,
    // with what is kept per process for the tools forgotten (and so
    // counted: made again by this build and kept).
    forget();
    let before = Heap::now();
    let collection = std::thread::scope(|s| s.spawn(build).join().unwrap());
    before.report_since("heap");
    let listed = list(&collection);
    before.report_since("heap_with_list");
    drop(black_box(listed));
    // A second collection of the same tools, on this (warm) thread while
    // the first lives: what it holds beyond what the two can share.
    let before = Heap::now();
    let again = build();
    before.report_since("heap_again");
    drop(black_box(again));
    drop(black_box(collection));

    parts(reps);
}

/// The process's peak RSS, and the heap's live and peak bytes, with the
/// collection (and its list) alive; then the heap still live once they are
/// dropped (what the process made once and keeps: caches, meta-schemas).
fn rss(what: &str) {
    let held: Option<Box<dyn std::any::Any>> = match what {
        "empty" => None,
        // Timed too: the first build of a new process, as `time`'s first.
        "build" => {
            let start = Instant::now();
            let collection = build();
            println!("build_first_us\t{:.1}", micros(start));
            Some(Box::new(collection))
        }
        "list" => {
            let start = Instant::now();
            let collection = build();
            println!("build_first_us\t{:.1}", micros(start));
            let listed = list(&collection);
            Some(Box::new((listed, collection)))
        }
        other => Some(rss_part(other).unwrap_or_else(|| panic!("rss: unknown `{other}`"))),
    };
    vm_status();
    rss_by_mapping();
    println!("heap_live_bytes\t{}", LIVE.load(Relaxed));
    println!("heap_peak_bytes\t{}", PEAK.load(Relaxed));
    drop(black_box(held));
    println!("heap_retained_bytes\t{}", LIVE.load(Relaxed));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("time") => time(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(101)),
        Some("rss") => rss(args.get(1).map_or("empty", String::as_str)),
        _ => {
            eprintln!("usage: registry time [REPS] | registry rss empty|build|list");
            std::process::exit(2);
        }
    }
}
