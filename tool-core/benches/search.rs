//! What tool search costs, over the labelled catalog of `bench/search/`
//! (real tools of real MCP servers; copies of it, names suffixed, past its
//! size):
//!
//! - a query ranked against 2,000 tools, by the query's length: the
//!   labelled queries as written, their words cut into pieces of 1, 5
//!   and 20 words, and two long texts, whole (779 words) and in 100-word
//!   pieces: a pasted compiler error log (`bench/search/long/error-log.txt`,
//!   rustc's output for `error-log.rs`) and a long message
//!   (`bench/search/long/message.txt`, the opening of
//!   `docs/guide/mounts.md`); p50 and p99 of wall and of the thread's CPU
//!   time;
//! - the index of 100, 500 and 2,000 tools built, and the bytes it keeps
//!   per tool;
//! - the quality of the ranking on the labelled queries (recall@5, MRR):
//!   on the half its constants were chosen on, the half held out, all;
//! - with the `tokens` feature, what the tools cost a request in context
//!   (`o200k_base` tokens): every definition (MCP's `tools/list` of them
//!   all) beside the search tool and what it found for the query, in each
//!   provider's shape, averaged over the labelled queries;
//! - the quality of the ranking on the labelled queries in other
//!   languages, per language (`search/languages.rs`).
//!
//! Run with `cargo bench -p tool-core --features search,tokens --bench
//! search`; `-- --write` puts the tables in BENCHMARKS.md ("Tool search",
//! "Queries in other languages").

use std::alloc::System;
use std::hint::black_box;
use std::time::{Duration, Instant};

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use tool_core::search::{Bm25, Ranker};

// Shared with the tests, which read what this bench does not.
#[allow(dead_code)]
#[path = "../tests/support/catalog.rs"]
mod catalog;
#[path = "search/languages.rs"]
mod languages;
#[path = "../../benches/support/table.rs"]
mod table;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The bytes allocated and not freed since `region` began. A reallocation
/// is already in both (what it grew by allocated, what it shrank by
/// freed): `bytes_reallocated` is their sum again, not to be added.
fn held(region: &Region<'_, System>) -> isize {
    let change = region.change();
    change.bytes_allocated as isize - change.bytes_deallocated as isize
}

const SIZES: [usize; 3] = [100, 500, 2_000];

/// How many times a row's queries are ranked, at least, taken in turn.
const SAMPLES: usize = 2_000;

/// How many times an index is built, for its median.
const BUILDS: usize = 7;

/// The CPU time this thread has spent so far.
fn cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// The figure below which `share` of `sorted` lies.
fn percentile(sorted: &[f64], share: f64) -> f64 {
    let at = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len());
    sorted[at - 1]
}

/// `text`'s words (split at white space) in pieces of `words`, the last
/// piece left out when it is short.
fn pieces(text: &str, words: usize) -> Vec<String> {
    let all: Vec<&str> = text.split_whitespace().collect();
    all.chunks_exact(words)
        .map(|piece| piece.join(" "))
        .collect()
}

fn long_text(file: &str) -> String {
    let path = format!("{}/../bench/search/long/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// A row of the latency table: what its queries are, and them.
struct Row {
    words: String,
    what: &'static str,
    queries: Vec<String>,
}

fn rows() -> Vec<Row> {
    let labelled: Vec<String> = catalog::queries()
        .into_iter()
        .map(|query| query.query)
        .collect();
    let joined = labelled.join(" ");
    let counts: Vec<usize> = labelled
        .iter()
        .map(|query| query.split_whitespace().count())
        .collect();
    let error_log = long_text("error-log.txt");
    let message = long_text("message.txt");
    let mut long = pieces(&error_log, 779);
    long.extend(pieces(&message, 779));
    let mut hundred = pieces(&error_log, 100);
    hundred.extend(pieces(&message, 100));
    vec![
        Row {
            words: format!(
                "{}–{}",
                counts.iter().min().unwrap_or(&0),
                counts.iter().max().unwrap_or(&0)
            ),
            what: "the labelled queries as written",
            queries: labelled,
        },
        Row {
            words: "1".into(),
            what: "the labelled queries' words, one by one",
            queries: pieces(&joined, 1),
        },
        Row {
            words: "5".into(),
            what: "the labelled queries' words, one query after another, in pieces of 5",
            queries: pieces(&joined, 5),
        },
        Row {
            words: "20".into(),
            what: "the same, in pieces of 20",
            queries: pieces(&joined, 20),
        },
        Row {
            words: "100".into(),
            what: "the error log and the message, in pieces of 100",
            queries: hundred,
        },
        Row {
            words: "779".into(),
            what: "the error log (its first 779 words) and the message, whole",
            queries: long,
        },
    ]
}

/// The p50 and p99 of wall and CPU time, in µs, of ranking each of
/// `queries` in turn, `SAMPLES` times at least, against `index`.
fn latency(index: &Bm25, queries: &[String]) -> [f64; 4] {
    for query in queries {
        black_box(index.rank(query, 5));
    }
    let rounds = SAMPLES.div_ceil(queries.len()).max(1);
    let (mut wall, mut used) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        for query in queries {
            let (cpu_start, start) = (cpu(), Instant::now());
            black_box(index.rank(black_box(query), 5).len());
            let elapsed = start.elapsed();
            used.push((cpu() - cpu_start).as_secs_f64() * 1e6);
            wall.push(elapsed.as_secs_f64() * 1e6);
        }
    }
    wall.sort_by(f64::total_cmp);
    used.sort_by(f64::total_cmp);
    [
        percentile(&wall, 0.5),
        percentile(&wall, 0.99),
        percentile(&used, 0.5),
        percentile(&used, 0.99),
    ]
}

/// The quality table's lines: as the quality test counts them, the
/// queries' constants were chosen on the even ones, the odd ones held out.
fn quality_lines() -> Vec<String> {
    let registry = catalog::registry(1);
    let index = Bm25::new(registry.tools());
    let (tuned, held_out) = catalog::halves(&registry);
    let queries = tuned.len() + held_out.len();
    let mut lines = vec![
        format!(
            "| quality ({} tools; {} queries) | queries | recall@5 | MRR |",
            index.len(),
            queries
        ),
        "|---|---:|---:|---:|".to_owned(),
    ];
    for (which, count, quality) in [
        (
            "the half the ranker's constants were chosen on",
            tuned.len(),
            catalog::quality(&index, &tuned),
        ),
        (
            "the half held out",
            held_out.len(),
            catalog::quality(&index, &held_out),
        ),
        (
            "all",
            queries,
            catalog::quality(&index, tuned.iter().chain(&held_out)),
        ),
    ] {
        lines.push(format!(
            "| {which} | {count} | {:.3} | {:.3} |",
            quality.recall, quality.mrr
        ));
    }
    lines
}

/// The index table's lines: built at each size (median wall and CPU of
/// `BUILDS`), and the bytes it keeps per tool.
fn index_lines() -> Vec<String> {
    let mut lines = vec![
        "| index of | built, wall | built, CPU | bytes kept per tool |".to_owned(),
        "|---|---:|---:|---:|".to_owned(),
    ];
    for size in SIZES {
        let registry = catalog::registry_of(4, size);
        let region = Region::new(GLOBAL);
        let index = Bm25::new(registry.tools());
        let bytes = held(&region);
        let (mut wall, mut used) = (Vec::new(), Vec::new());
        for _ in 0..BUILDS {
            let (cpu_start, start) = (cpu(), Instant::now());
            black_box(Bm25::new(registry.tools()).len());
            wall.push(start.elapsed().as_secs_f64() * 1e3);
            used.push((cpu() - cpu_start).as_secs_f64() * 1e3);
        }
        lines.push(format!(
            "| {} tools | {:.2} ms | {:.2} ms | {} |",
            thousands(index.len()),
            table::median(wall),
            table::median(used),
            thousands(usize::try_from(bytes).unwrap_or(0) / index.len()),
        ));
    }
    lines
}

/// The latency table's lines, at 2,000 tools.
fn latency_lines() -> Vec<String> {
    let registry = catalog::registry_of(4, 2_000);
    let index = Bm25::new(registry.tools());
    let mut lines = vec![
        "| words a query | queries | what | p50 wall | p99 wall | p50 CPU | p99 CPU | target |"
            .to_owned(),
        "|---|---:|---|---:|---:|---:|---:|---|".to_owned(),
    ];
    for row in rows() {
        let [p50, p99, cpu50, cpu99] = latency(&index, &row.queries);
        let met = |p99: f64| {
            if p99 <= 1_000.0 {
                "**met**"
            } else {
                "**not met**"
            }
        };
        let target = format!("p99 ≤ 1 ms: wall {}, CPU {}", met(p99), met(cpu99));
        lines.push(format!(
            "| {} | {} | {} | {} | {} | {} | {} | {target} |",
            row.words,
            row.queries.len(),
            row.what,
            micros(p50),
            micros(p99),
            micros(cpu50),
            micros(cpu99),
        ));
    }
    lines
}

fn micros(value: f64) -> String {
    if value >= 1_000.0 {
        format!("{:.2} ms", value / 1e3)
    } else {
        format!("{value:.1} µs")
    }
}

fn thousands(value: usize) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// What the tools cost a request in context, every definition beside the
/// search and what it found.
#[cfg(feature = "tokens")]
fn context() {
    use tool_core::provider::Provider;
    use tool_core::search::SearchTool;
    use tool_core::toolset::Select;

    let queries = catalog::queries();
    for size in SIZES {
        let tools = catalog::registry_of(4, size);
        let search = SearchTool::new(tools.tools());
        let every = Provider::Mcp
            .definitions(&tools)
            .expect("listed")
            .total_tokens();
        let registry = tools.with(SearchTool::new(std::iter::empty()));
        let mut line = format!("context of {size} tools: every definition (MCP) {every} tokens;");
        for provider in [
            Provider::Mcp,
            Provider::OpenAiChat { strict: true },
            Provider::Anthropic { strict: false },
            Provider::Gemini { openapi: false },
        ] {
            let mut total = 0;
            for query in &queries {
                let found = search.search(&query.query);
                let names: Vec<&str> = found
                    .as_parts()
                    .into_iter()
                    .flatten()
                    .filter_map(|part| match part {
                        tool_core::output::Part::Tool(tool) => Some(tool.name()),
                        _ => None,
                    })
                    .collect();
                let view = registry.view(Select::all().names(["search_tools"]).names(names));
                total += provider.definitions(&view).expect("listed").total_tokens();
            }
            let mean = total as f64 / queries.len() as f64;
            line.push_str(&format!(
                " {provider} with search {mean:.0} ({:.4}x);",
                mean / every as f64
            ));
        }
        println!("{line}");
    }
}

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    #[cfg(feature = "tokens")]
    context();
    let mut lines = vec![format!(
        "A query ranked against 2,000 tools (`Bm25::rank`, the first 5), by its length in words (split at white space): each row's queries ranked in turn, {SAMPLES} times at least, each timed; wall and the thread's CPU time."
    )];
    lines.push(String::new());
    lines.extend(latency_lines());
    lines.push(String::new());
    lines.extend(index_lines());
    lines.push(String::new());
    lines.extend(quality_lines());
    lines.push(String::new());
    lines.push(format!(
        "The index of each size built {BUILDS} times, the median; its bytes are those allocated and not freed while it was built. Wall above CPU is time the thread waited for a core: the load average (1, 5, 15 minutes) when the run ended was {}. {} Command: `cargo bench -p tool-core --features search,tokens --bench search -- --write`, at `{}`, {}.",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(", "),
        table::machine(),
        table::shell("git", &["rev-parse", "--short", "HEAD"]),
        table::shell("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    ));
    for line in &lines {
        println!("{line}");
    }
    let write = std::env::args().any(|arg| arg == "--write");
    if write {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        table::write_table(&benchmarks, "search-table", &lines.join("\n"));
    }
    let registry = catalog::registry(1);
    let index = Bm25::new(registry.tools());
    languages::table(
        &index,
        index.len(),
        |name| registry.info(name).is_some(),
        write,
        &languages::Table {
            ranker: "`Bm25`",
            marker: "search-languages-table",
            command: "cargo bench -p tool-core --features search,tokens --bench search -- --write",
        },
    );
}
