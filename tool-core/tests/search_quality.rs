//! Search quality on the labelled set of `bench/search/`: for at least 90%
//! of the queries, a tool a person would pick is among the first five the
//! built-in ranker finds.

use tool_core::search::{Bm25, Ranker};

#[path = "support/catalog.rs"]
mod catalog;

/// The share of queries with a tool a person would pick among the first
/// `k` found, and the mean reciprocal rank of the first such tool.
fn recall_and_mrr(index: &Bm25, queries: &[catalog::Query], k: usize) -> (f64, f64, Vec<String>) {
    let mut found = 0;
    let mut reciprocal = 0.0;
    let mut missed = Vec::new();
    for query in queries {
        let hits = index.rank(&query.query, k.max(10));
        let rank = hits
            .iter()
            .position(|hit| query.expected.iter().any(|name| name == hit.name));
        match rank {
            Some(at) if at < k => found += 1,
            _ => missed.push(format!(
                "{:?}: expected {:?}, found {:?}",
                query.query,
                query.expected,
                hits.iter().take(k).map(|hit| hit.name).collect::<Vec<_>>()
            )),
        }
        if let Some(at) = rank {
            reciprocal += 1.0 / (at + 1) as f64;
        }
    }
    let count = queries.len() as f64;
    (found as f64 / count, reciprocal / count, missed)
}

#[test]
fn a_tool_a_person_would_pick_is_in_the_first_five_for_nine_queries_in_ten() {
    let registry = catalog::registry(1);
    let queries = catalog::queries();
    assert!(registry.len() >= 500, "{} tools", registry.len());
    assert!(queries.len() >= 200, "{} queries", queries.len());
    let index = Bm25::new(registry.tools());
    let (recall, mrr, missed) = recall_and_mrr(&index, &queries, 5);
    println!(
        "recall@5 {recall:.3}, MRR {mrr:.3} over {} queries and {} tools",
        queries.len(),
        registry.len()
    );
    for miss in &missed {
        println!("missed: {miss}");
    }
    assert!(recall >= 0.9, "recall@5 {recall:.3} < 0.9");
}
