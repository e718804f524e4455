//! Search quality on requests in other languages: the labelled queries of
//! `bench/search/queries-multilingual.json` (Chinese, Spanish, German and
//! Korean, each with the catalog tools a person would pick) ranked against
//! the catalog, whose tools are all described in English; recall@5 and MRR
//! per language, on the half of each language's queries a constant may be
//! chosen on and on the half held out, beside the English set's.
//!
//! `cargo bench -p tool-core --features search,tokens --bench search -- --write`
//! writes the table into BENCHMARKS.md ("Queries in other languages").

use std::path::PathBuf;

use serde_json::Value;
use tool_core::search::Ranker;

use crate::catalog;

/// The languages of the set, as its `lang` field names them, and as the
/// table names them.
const LANGUAGES: [(&str, &str); 4] = [
    ("zh", "Chinese"),
    ("es", "Spanish"),
    ("de", "German"),
    ("ko", "Korean"),
];

/// A labelled query in another language.
struct Query {
    lang: String,
    query: String,
    expected: Vec<String>,
}

/// The labelled queries in other languages, in the file's order.
fn queries() -> Vec<Query> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/search/queries-multilingual.json");
    let text = std::fs::read_to_string(&path).expect("the queries in other languages");
    let entries: Vec<Value> = serde_json::from_str(&text).expect("a list of queries");
    entries
        .iter()
        .map(|entry| Query {
            lang: entry["lang"].as_str().unwrap_or_default().to_owned(),
            query: entry["query"].as_str().unwrap_or_default().to_owned(),
            expected: entry["expected"]
                .as_array()
                .expect("expected tools")
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        })
        .collect()
}

/// recall@5 and MRR (over the first ten found) of `ranker` on `queries`,
/// each a query and the tools a person would pick; the queries it missed.
fn quality<'a>(
    ranker: &dyn Ranker,
    queries: impl IntoIterator<Item = (&'a str, &'a [String])>,
) -> (f64, f64, Vec<String>) {
    let (mut count, mut found, mut reciprocal) = (0, 0, 0.0);
    let mut missed = Vec::new();
    for (query, expected) in queries {
        count += 1;
        let hits = ranker.rank(query, 10);
        let rank = hits
            .iter()
            .position(|hit| expected.iter().any(|name| name == hit.name));
        match rank {
            Some(at) if at < 5 => found += 1,
            _ => missed.push(format!(
                "{query:?}: expected {expected:?}, found {:?}",
                hits.iter().take(5).map(|hit| hit.name).collect::<Vec<_>>()
            )),
        }
        if let Some(at) = rank {
            reciprocal += 1.0 / (at + 1) as f64;
        }
    }
    let count = f64::from(count.max(1));
    (f64::from(found) / count, reciprocal / count, missed)
}

/// One row of the table: the queries' count, recall@5 on the tuned half,
/// on the held-out half and on all, and MRR on all. Each half alternates
/// as the English set's does: the even queries (0, 2, ...) are the ones a
/// constant may be chosen on, the odd ones are held out.
fn row(
    label: &str,
    ranker: &dyn Ranker,
    queries: &[(&str, &[String])],
    misses: &mut Vec<String>,
) -> String {
    let half = |parity: usize| {
        queries
            .iter()
            .enumerate()
            .filter(move |(at, _)| at % 2 == parity)
            .map(|(_, &query)| query)
    };
    let (tuned, _, missed) = quality(ranker, half(0));
    misses.extend(
        missed
            .into_iter()
            .map(|miss| format!("{label}, tuned half: {miss}")),
    );
    let (held_out, _, _) = quality(ranker, half(1));
    let (recall, mrr, _) = quality(ranker, queries.iter().copied());
    format!(
        "| {label} | {} | {tuned:.3} | {held_out:.3} | {recall:.3} | {mrr:.3} |",
        queries.len()
    )
}

/// Which ranker a table is of, and where it goes.
pub(crate) struct Table<'a> {
    /// The ranker, as the table's first line names it.
    pub(crate) ranker: &'a str,
    /// The markers in BENCHMARKS.md it is written between.
    pub(crate) marker: &'a str,
    /// The command that writes it.
    pub(crate) command: &'a str,
}

/// The table of recall@5 and MRR per language for `ranker` over the
/// catalog's tools (`tools` of them), printed, and written into
/// BENCHMARKS.md when `write`. The misses of each language's tuned half
/// are printed after it, to read what fails.
pub(crate) fn table(
    ranker: &dyn Ranker,
    tools: usize,
    known: impl Fn(&str) -> bool,
    write: bool,
    about: &Table<'_>,
) {
    let all = queries();
    let english: Vec<catalog::Query> = catalog::queries()
        .into_iter()
        .filter(|query| query.expected.iter().any(|name| known(name)))
        .collect();
    let mut misses = Vec::new();
    let mut rows = Vec::new();
    for (lang, label) in LANGUAGES {
        let queries: Vec<(&str, &[String])> = all
            .iter()
            .filter(|query| query.lang == lang && query.expected.iter().any(|name| known(name)))
            .map(|query| (query.query.as_str(), query.expected.as_slice()))
            .collect();
        rows.push(row(label, ranker, &queries, &mut misses));
    }
    let others: Vec<(&str, &[String])> = all
        .iter()
        .filter(|query| query.expected.iter().any(|name| known(name)))
        .map(|query| (query.query.as_str(), query.expected.as_slice()))
        .collect();
    let mut ignored = Vec::new();
    rows.push(row("all four", ranker, &others, &mut ignored));
    let english: Vec<(&str, &[String])> = english
        .iter()
        .map(|query| (query.query.as_str(), query.expected.as_slice()))
        .collect();
    rows.push(row(
        "English (`queries.json`), for comparison",
        ranker,
        &english,
        &mut ignored,
    ));
    let mut lines = vec![
        format!(
            "{} over the {tools} tools of `bench/search/catalog.json` (every one described in English), on the {} queries written for this set in `bench/search/queries-multilingual.json`. recall@5: the share of queries with a tool a person would pick among the first five; MRR: the mean reciprocal rank of the first such tool among the first ten. Each language's queries alternate between the half a constant may be chosen on (even) and the half held out (odd), as the English set's do; no constant was chosen on either.",
            about.ranker,
            others.len()
        ),
        String::new(),
        "| queries | n | recall@5, tuned half | recall@5, held out | recall@5, all | MRR, all |"
            .to_owned(),
        "|---|---:|---:|---:|---:|---:|".to_owned(),
    ];
    lines.extend(rows);
    lines.push(String::new());
    lines.push(format!(
        "{} Commit {}, {}. Command: `{}`.",
        crate::table::machine(),
        crate::table::shell("git", &["rev-parse", "--short", "HEAD"]),
        crate::table::shell("date", &["-u", "+%Y-%m-%d"]),
        about.command,
    ));
    for line in &lines {
        println!("{line}");
    }
    for miss in &misses {
        println!("missed: {miss}");
    }
    if write {
        let benchmarks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        crate::table::write_table(&benchmarks, about.marker, &lines.join("\n"));
    }
}
