//! Search quality on the labelled set of `bench/search/`: how often a tool
//! a person would pick is among the first five the built-in ranker finds
//! (recall@5), on the queries its constants were chosen on and on those
//! held out. The floor asserted is where the ranker stands (0.82 over all
//! queries, 0.87 held out), so that a change that makes it worse fails;
//! BENCHMARKS.md has the figures.

use tool_core::search::Bm25;

#[path = "support/catalog.rs"]
mod catalog;

#[test]
fn the_ranker_finds_a_tool_a_person_would_pick_among_its_first_five() {
    let registry = catalog::registry(1);
    // The ranker's words and weights were chosen on the even queries;
    // the odd ones are held out, and must fare as well.
    let (tuned, held_out) = catalog::halves(&registry);
    assert!(
        registry.tools().len() >= 500,
        "{} tools",
        registry.tools().len()
    );
    assert!(
        tuned.len() + held_out.len() >= 200,
        "{} queries",
        tuned.len() + held_out.len()
    );
    let index = Bm25::new(registry.tools());
    let mut all = Vec::new();
    for (which, queries) in [("tuned on", &tuned), ("held out", &held_out)] {
        let quality = catalog::quality(&index, queries);
        println!(
            "{which}: recall@5 {:.3}, MRR {:.3} over {} queries and {} tools",
            quality.recall,
            quality.mrr,
            queries.len(),
            registry.tools().len()
        );
        if which == "tuned on" {
            for miss in &quality.missed {
                println!("missed: {miss}");
            }
        }
        all.push(quality.recall);
    }
    let recall = (all[0] * tuned.len() as f64 + all[1] * held_out.len() as f64)
        / (tuned.len() + held_out.len()) as f64;
    println!("all: recall@5 {recall:.3}");
    assert!(all[1] >= 0.85, "held out: recall@5 {:.3} < 0.85", all[1]);
    assert!(recall >= 0.8, "recall@5 {recall:.3} < 0.8");
}
