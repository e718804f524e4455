//! What a request costs in context when its tools are deferred without
//! being marked (`Listing::auto_defer`, `Select::auto_defer`,
//! `McpConfig::with_auto_defer`), beside listing every definition, over
//! the labelled catalog of `bench/search/` at 50, 500 and 2,000 tools, in
//! `o200k_base` tokens:
//!
//! - every definition, in each provider's shape (what a request without
//!   search sends, all of it in context);
//! - with the automatic deferral's defaults, a request before any search:
//!   what the model reads up front (the search's entry and the five tools
//!   kept; the definitions that wait with `defer_loading` are sent but not
//!   put in context until found);
//! - the same after one search, the tools it found (at most five) loaded
//!   beside them, averaged over the labelled queries;
//! - how good the size estimate is that the threshold is read in (bytes
//!   of JSON ÷ 4) beside the tokens counted, and what the rule costs in
//!   time: the view an MCP server makes per `tools/list`, and the listing
//!   made (then cached) for a provider.
//!
//! `cargo bench -p tool-core --features search,tokens --bench auto_defer
//! -- --write` writes the table into BENCHMARKS.md.

use std::time::Instant;

use tool_core::ToolRegistry;
use tool_core::output::Part;
use tool_core::provider::{Definitions, Listing, Provider, Search};
use tool_core::search::SearchTool;
use tool_core::toolset::{AutoDefer, BYTES_PER_TOKEN, Select};

// Shared with the tests, which read what this bench does not.
#[allow(dead_code)]
#[path = "../tests/support/catalog.rs"]
mod catalog;
#[path = "../../benches/support/table.rs"]
mod table;

const SIZES: [usize; 3] = [50, 500, 2_000];

/// The tokens of the definitions a model reads up front: those not
/// waiting with `defer_loading`.
fn shown_tokens(definitions: &Definitions) -> usize {
    let list = definitions
        .as_json()
        .as_array()
        .cloned()
        .unwrap_or_default();
    let counts = definitions.token_counts();
    if list.len() != counts.len() {
        // Gemini's one entry: every declaration is shown.
        return definitions.total_tokens();
    }
    list.iter()
        .zip(counts)
        .filter(|(definition, _)| definition.get("defer_loading").is_none())
        .map(|(_, count)| count.tokens)
        .sum()
}

/// The tokens of each tool's definition in `definitions`, by name.
fn by_name(definitions: &Definitions) -> std::collections::HashMap<String, usize> {
    definitions
        .token_counts()
        .into_iter()
        .map(|count| (count.name, count.tokens))
        .collect()
}

/// The names of the tools a search found for `query`.
fn found(search: &SearchTool, query: &str) -> Vec<String> {
    search
        .search(query)
        .as_parts()
        .into_iter()
        .flatten()
        .filter_map(|part| match part {
            Part::Tool(tool) => Some(tool.name().to_owned()),
            _ => None,
        })
        .collect()
}

/// The median of `rounds` timings of `work`, in microseconds.
fn micros(rounds: usize, mut work: impl FnMut()) -> f64 {
    let times = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    table::median(times)
}

struct Row {
    cells: Vec<String>,
}

/// One size's figures: for each provider, every definition, before a
/// search, after one.
fn measure(size: usize, queries: &[catalog::Query]) -> (Vec<Row>, String) {
    let tools: ToolRegistry = catalog::registry_of(4, size);
    let search = SearchTool::new(tools.tools());
    let registry = catalog::registry_of(4, size).with(SearchTool::new(std::iter::empty()));
    let auto = AutoDefer::new();
    let mut rows = Vec::new();
    // Providers with a search of their own: the listing.
    for (provider, search_kind) in [
        (Provider::Anthropic { strict: false }, Search::Native),
        (Provider::OpenAiResponses { strict: true }, Search::Native),
    ] {
        let every = provider.definitions(&registry).expect("listed");
        let each = by_name(&every);
        let listing = Listing::new().search(search_kind).auto_defer(auto);
        let listed = provider
            .definitions_with(&registry, listing)
            .expect("listed");
        let before = shown_tokens(&listed);
        let after: usize = queries
            .iter()
            .map(|query| {
                before
                    + found(&search, &query.query)
                        .iter()
                        .filter_map(|name| each.get(name))
                        .sum::<usize>()
            })
            .sum();
        rows.push(row(
            size,
            &format!("{provider} (its own search)"),
            every.total_tokens(),
            before,
            after as f64 / queries.len() as f64,
        ));
    }
    // The others, and MCP: a view of the search, the tools kept and those
    // found.
    for provider in [
        Provider::Mcp,
        Provider::OpenAiChat { strict: true },
        Provider::Gemini { openapi: false },
    ] {
        let every = provider.definitions(&tools).expect("listed").total_tokens();
        let up_front = registry.view(Select::all().up_front().auto_defer(auto));
        let before = provider
            .definitions(&up_front)
            .expect("listed")
            .total_tokens();
        let after: usize = queries
            .iter()
            .map(|query| {
                let names = found(&search, &query.query);
                let view = registry.view(Select::all().up_front().auto_defer(auto).names(names));
                provider.definitions(&view).expect("listed").total_tokens()
            })
            .sum();
        rows.push(row(
            size,
            &format!("{provider} (`search_tools`)"),
            every,
            before,
            after as f64 / queries.len() as f64,
        ));
    }
    // The estimate the threshold reads, beside the tokens counted.
    let bytes: usize = tools
        .tool_definitions()
        .iter()
        .map(|definition| serde_json::to_vec(&**definition).map_or(0, |json| json.len()))
        .sum();
    let counted = Provider::Mcp
        .definitions(&tools)
        .expect("listed")
        .total_tokens();
    let view = micros(200, || {
        std::hint::black_box(
            registry
                .view(Select::all().up_front().auto_defer(auto))
                .len(),
        );
    });
    let anthropic = Provider::Anthropic { strict: false };
    // A provider's listing made on a registry of its own each round, so
    // that nothing is cached: with the rule, and with the search alone.
    let made = |listing: Listing| {
        table::median(
            (0..5)
                .map(|_| {
                    let fresh =
                        catalog::registry_of(4, size).with(SearchTool::new(std::iter::empty()));
                    let start = Instant::now();
                    let listed = anthropic.definitions_with(&fresh, listing).expect("listed");
                    let micros = start.elapsed().as_secs_f64() * 1e6;
                    std::hint::black_box(listed);
                    micros
                })
                .collect(),
        )
    };
    let listing = made(Listing::new().search(Search::Native).auto_defer(auto));
    let plain = made(Listing::new().search(Search::Native));
    let cost = format!(
        "| {size} | {} | {counted} | {:.2} | {view:.1} µs | {:.1} ms | {:.1} ms |",
        bytes / BYTES_PER_TOKEN,
        bytes as f64 / counted as f64,
        listing / 1e3,
        plain / 1e3,
    );
    (rows, cost)
}

fn row(size: usize, provider: &str, every: usize, before: usize, after: f64) -> Row {
    Row {
        cells: vec![
            size.to_string(),
            provider.to_owned(),
            every.to_string(),
            format!("{before} ({:.4}x)", before as f64 / every as f64),
            format!("{after:.0} ({:.4}x)", after / every as f64),
        ],
    }
}

fn main() {
    let queries = catalog::queries();
    let mut lines = vec![
        "| tools | provider (search) | every definition | deferred, before a search | after one search (mean of the labelled queries) |".to_owned(),
        "|---:|---|---:|---:|---:|".to_owned(),
    ];
    let mut costs = vec![
        String::new(),
        "| tools | estimated tokens (bytes ÷ 4) | `o200k_base` tokens (MCP) | bytes a token | the view an MCP `tools/list` makes (median of 200) | Anthropic's listing made, uncached, with the rule (median of 5) | the same, search alone |".to_owned(),
        "|---:|---:|---:|---:|---:|---:|---:|".to_owned(),
    ];
    for size in SIZES {
        let (rows, cost) = measure(size, &queries);
        for row in rows {
            lines.push(format!("| {} |", row.cells.join(" | ")));
        }
        costs.push(cost);
    }
    lines.extend(costs);
    lines.push(String::new());
    lines.push(format!(
        "`AutoDefer::new()`: past 30 tools or 10,000 tokens, the search and five tools kept; {} labelled queries; tool-core at `{}`, {}. {} Command: `cargo bench -p tool-core --features search,tokens --bench auto_defer -- --write`.",
        queries.len(),
        table::shell("git", &["rev-parse", "--short", "HEAD"]),
        table::shell("date", &["-u", "+%Y-%m-%d"]),
        table::machine()
    ));
    for line in &lines {
        println!("{line}");
    }
    if std::env::args().any(|arg| arg == "--write") {
        let benchmarks = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        table::write_table(&benchmarks, "auto-defer-table", &lines.join("\n"));
    }
}
