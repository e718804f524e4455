//! The hybrid ranker on the labelled catalog of `bench/search/` (real
//! tools of real MCP servers): it finds what a query only describes, which
//! BM25's words miss; it answers a query the same way every time; and it
//! keeps its quality on the held-out half of the labelled queries.

use std::sync::{Arc, OnceLock};

use tool_core::ToolRegistry;
use tool_core::search::{Bm25, Hit, Ranker};
use tool_embed::{EmbeddingRanker, Hybrid};

#[path = "support/model.rs"]
mod support;

#[allow(dead_code)]
#[path = "../../tool-core/tests/support/catalog.rs"]
mod catalog;

/// The catalog's tools and the hybrid ranker over them, made once.
fn catalog() -> &'static (ToolRegistry, Hybrid) {
    static CATALOG: OnceLock<(ToolRegistry, Hybrid)> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let registry = catalog::registry(1);
        let hybrid = Hybrid::new(support::model(), registry.tools()).expect("the tools' vectors");
        (registry, hybrid)
    })
}

fn names<'a>(hits: &[Hit<'a>]) -> Vec<&'a str> {
    hits.iter().map(|hit| hit.name).collect()
}

#[test]
fn meaning_finds_what_the_query_only_describes() {
    let (registry, hybrid) = catalog();
    let bm25 = Bm25::new(registry.tools());
    // "Chargebacks" is a word no tool holds: BM25 finds no dispute, the
    // hybrid ranker does.
    let query = "did we get any chargebacks this month?";
    let by_words = names(&bm25.rank(query, 5));
    let by_both = names(&hybrid.rank(query, 5));
    println!("{query:?}: BM25 {by_words:?}, hybrid {by_both:?}");
    let dispute = |names: &[&str]| names.iter().any(|name| name.contains("dispute"));
    assert!(!dispute(&by_words), "{by_words:?}");
    assert!(dispute(&by_both), "{by_both:?}");
}

#[test]
fn the_model_alone_ranks_by_meaning() {
    let registry = catalog::registry(1);
    let tools: Vec<_> = registry
        .tools()
        .filter(|tool| tool.definition.name.starts_with("stripe_"))
        .collect();
    let ranker = EmbeddingRanker::new(support::model(), tools).expect("the tools' vectors");
    assert_eq!(ranker.len(), 22);
    let hits = ranker.rank("customers contesting a payment with their bank", 3);
    assert!(
        names(&hits).iter().any(|name| name.contains("dispute")),
        "{:?}",
        names(&hits)
    );
    assert!(hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
}

#[test]
fn the_same_query_always_gives_the_same_order() {
    let (_, hybrid) = catalog();
    for query in [
        "list",
        "did we get any chargebacks this month?",
        "take a screenshot of the page",
        "",
    ] {
        let first: Vec<(String, f32)> = hybrid
            .rank(query, 20)
            .iter()
            .map(|hit| (hit.name.to_owned(), hit.score))
            .collect();
        for _ in 0..3 {
            let again: Vec<(String, f32)> = hybrid
                .rank(query, 20)
                .iter()
                .map(|hit| (hit.name.to_owned(), hit.score))
                .collect();
            assert_eq!(first, again, "{query:?}");
        }
    }
}

#[test]
fn equal_scores_come_in_the_tools_order() {
    // Copies of one tool under other names: every score the same.
    let registry = catalog::registry_of(3, usize::MAX);
    let copies: Vec<_> = registry
        .tools()
        .filter(|tool| {
            let name = &tool.definition.name;
            name == "stripe_list_disputes" || name.starts_with("stripe_list_disputes_")
        })
        .collect();
    assert_eq!(copies.len(), 3);
    let ranker = EmbeddingRanker::new(support::model(), copies.iter().rev().copied())
        .expect("the tools' vectors");
    let hits = ranker.rank("disputes", 5);
    assert_eq!(
        names(&hits),
        [
            "stripe_list_disputes_3",
            "stripe_list_disputes_2",
            "stripe_list_disputes"
        ]
    );
}

#[test]
fn the_hybrid_ranker_keeps_its_quality_on_the_held_out_queries() {
    let (registry, hybrid) = catalog();
    // As tool-core's quality test splits them: the queries whose tools
    // the registry holds, the even ones tuned on, the odd ones held out.
    let (_, held_out) = catalog::halves(registry);
    let bm25 = Bm25::new(registry.tools());
    let by_words = catalog::quality(&bm25, &held_out);
    let (bm25_recall, bm25_mrr) = (by_words.recall, by_words.mrr);
    let both = catalog::quality(hybrid, &held_out);
    let (recall, mrr) = (both.recall, both.mrr);
    println!(
        "held out, {} queries: BM25 recall@5 {bm25_recall:.3}, MRR {bm25_mrr:.3}; \
         hybrid recall@5 {recall:.3}, MRR {mrr:.3}",
        held_out.len()
    );
    // Where the ranker stands (0.892 and 0.791 when `WORDS` was chosen),
    // so that a change that makes it worse fails; BENCHMARKS.md has the
    // figures, and the aim of 0.92 it does not reach.
    assert!(recall >= 0.88, "hybrid recall@5 {recall:.3} < 0.88");
    assert!(mrr >= 0.75, "hybrid MRR {mrr:.3} < 0.75");
    assert!(
        recall >= bm25_recall,
        "{recall:.3} < BM25's {bm25_recall:.3}"
    );
}

/// The model is shared: rankers of several views make their vectors with
/// one copy of its weights.
#[test]
fn rankers_share_one_model() {
    let model = support::model();
    let before = Arc::strong_count(&model);
    let registry = catalog::registry_of(1, 3);
    let ranker = Hybrid::new(model.clone(), registry.tools()).expect("the tools' vectors");
    assert_eq!(ranker.len(), 3);
    assert!(Arc::strong_count(&model) > before);
}

#[test]
fn a_query_without_a_letter_or_a_digit_finds_nothing() {
    let (_, hybrid) = catalog();
    for query in ["", "   ", "?!", "— … ¿"] {
        assert!(hybrid.rank(query, 5).is_empty(), "{query:?}");
    }
    let ranker = EmbeddingRanker::new(support::model(), catalog::registry_of(1, 3).tools())
        .expect("the tools' vectors");
    assert!(ranker.rank("", 5).is_empty());
}

#[test]
fn a_ranker_debugs_as_its_size_not_its_vectors() {
    let (_, hybrid) = catalog();
    let printed = format!("{hybrid:?}");
    assert_eq!(
        printed,
        "Hybrid { embeddings: EmbeddingRanker { tools: 836, dimensions: 384, .. }, words: 0.4, .. }"
    );
}
