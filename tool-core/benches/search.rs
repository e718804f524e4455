//! What tool search costs, over the labelled catalog of `bench/search/`
//! (real tools of real MCP servers; copies of it, names suffixed, past its
//! size):
//!
//! - `search/query/N`: one query of the labelled set ranked against N
//!   tools (the queries taken in turn);
//! - `search/index/N`: the index of N tools built;
//! - printed first: the bytes the index keeps per tool, and the quality
//!   of the ranking on the labelled queries (recall@5, MRR);
//! - with the `tokens` feature, what the tools cost a request in context
//!   (`o200k_base` tokens): every definition (MCP's `tools/list` of them
//!   all) beside the search tool and what it found for the query, in each
//!   provider's shape, averaged over the labelled queries;
//! - the quality of the ranking on the labelled queries in other
//!   languages, per language (`search/languages.rs`).
//!
//! Run with `cargo bench -p tool-core --features search,tokens --bench
//! search`; see BENCHMARKS.md. With `-- --write`, it writes the table of
//! the queries in other languages into BENCHMARKS.md and times nothing.

use std::alloc::System;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use tool_core::search::{Bm25, Ranker};

#[path = "../tests/support/catalog.rs"]
mod catalog;
#[path = "search/languages.rs"]
mod languages;
// Its medians are for timed rounds; the table this bench writes times
// nothing.
#[allow(dead_code)]
#[path = "../../benches/support/table.rs"]
mod table;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The bytes allocated and not freed since `region` began.
fn held(region: &Region<'_, System>) -> isize {
    let change = region.change();
    change.bytes_allocated as isize - change.bytes_deallocated as isize + change.bytes_reallocated
}

const SIZES: [usize; 3] = [100, 500, 2_000];

fn report() {
    for size in SIZES {
        let registry = catalog::registry_of(4, size);
        let region = Region::new(GLOBAL);
        let index = Bm25::new(registry.tools());
        let bytes = held(&region);
        println!(
            "index of {} tools: {} KiB kept, {} bytes a tool",
            index.len(),
            bytes / 1024,
            bytes / index.len() as isize
        );
    }
    let registry = catalog::registry(1);
    let index = Bm25::new(registry.tools());
    languages::table(
        &index,
        index.len(),
        |name| registry.info(name).is_some(),
        false,
    );
    // As the quality test counts them: a query whose tools the registry
    // left out cannot be answered.
    let queries: Vec<catalog::Query> = catalog::queries()
        .into_iter()
        .filter(|query| {
            query
                .expected
                .iter()
                .any(|name| registry.info(name).is_some())
        })
        .collect();
    let (mut found, mut reciprocal) = (0, 0.0);
    for query in &queries {
        let hits = index.rank(&query.query, 10);
        let rank = hits
            .iter()
            .position(|hit| query.expected.iter().any(|name| name == hit.name));
        if rank.is_some_and(|at| at < 5) {
            found += 1;
        }
        if let Some(at) = rank {
            reciprocal += 1.0 / (at + 1) as f64;
        }
    }
    println!(
        "quality over {} queries and {} tools: recall@5 {:.3}, MRR {:.3}",
        queries.len(),
        index.len(),
        found as f64 / queries.len() as f64,
        reciprocal / queries.len() as f64
    );
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

fn search(c: &mut Criterion) {
    report();
    #[cfg(feature = "tokens")]
    context();
    let queries = catalog::queries();
    let mut group = c.benchmark_group("search");
    for size in SIZES {
        let registry = catalog::registry_of(4, size);
        let index = Bm25::new(registry.tools());
        let mut next = queries.iter().cycle();
        group.bench_with_input(BenchmarkId::new("query", size), &index, |b, index| {
            b.iter(|| {
                let query = next.next().expect("queries");
                black_box(index.rank(black_box(&query.query), 5).len())
            });
        });
        group.bench_with_input(BenchmarkId::new("index", size), &registry, |b, registry| {
            b.iter(|| black_box(Bm25::new(registry.tools()).len()));
        });
    }
    group.finish();
}

criterion_group!(benches, search);

fn main() {
    // Criterion refuses an argument it does not know: `--write` only
    // writes the table, which needs no timing.
    if std::env::args().any(|arg| arg == "--write") {
        let registry = catalog::registry(1);
        let index = Bm25::new(registry.tools());
        languages::table(
            &index,
            index.len(),
            |name| registry.info(name).is_some(),
            true,
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
