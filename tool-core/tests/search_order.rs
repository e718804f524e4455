//! The built-in ranker's order is the same for the same query over the
//! same tools, built again or in another process: equal scores come in the
//! tools' registration order, and nothing in it depends on a map's
//! iteration order (each build's maps are seeded anew).

use serde_json::json;
use tool_core::ToolRegistry;
use tool_core::search::{Bm25, Hit, Ranker};

// Its queries' expected tools are the quality test's, not read here.
#[allow(dead_code)]
#[path = "support/catalog.rs"]
mod catalog;

/// A tool of a given name and description, to make twins of.
fn tool(name: &str, description: &str) -> catalog::Listed {
    catalog::Listed::new(
        name,
        description,
        json!({"type": "object", "properties": {"city": {"type": "string", "description": "The city."}}}),
    )
}

fn named(hits: &[Hit<'_>]) -> Vec<String> {
    hits.iter().map(|hit| hit.name.to_owned()).collect()
}

#[test]
fn twin_tools_come_in_the_order_they_were_registered_not_by_name() {
    const TEXT: &str = "Get the weather forecast for a city.";
    // `b_` and `a_` are words of one letter, which search leaves out: the
    // twins' words are the same, and so are their scores.
    let forward = ToolRegistry::new()
        .with(tool("b_forecast", TEXT))
        .with(tool("a_forecast", TEXT))
        .with(tool("get_time", "Get the time in a city."));
    let backward = ToolRegistry::new()
        .with(tool("a_forecast", TEXT))
        .with(tool("get_time", "Get the time in a city."))
        .with(tool("b_forecast", TEXT));
    let (forward, backward) = (Bm25::new(forward.tools()), Bm25::new(backward.tools()));
    for query in ["weather forecast", "forecast in Paris", "wether forcast"] {
        let hits = forward.rank(query, 5);
        assert_eq!(hits[0].score, hits[1].score, "{query}");
        assert_eq!(named(&hits), ["b_forecast", "a_forecast"], "{query}");
        assert_eq!(
            named(&backward.rank(query, 5)),
            ["a_forecast", "b_forecast"],
            "{query}"
        );
    }
}

/// Every labelled query's first 15 tools over the catalog three times over
/// (each copy a twin of the first, its name suffixed `_2`, `_3`), as
/// names and scores' bits.
fn answers(index: &Bm25, queries: &[catalog::Query]) -> Vec<Vec<(String, u32)>> {
    queries
        .iter()
        .map(|query| {
            index
                .rank(&query.query, 15)
                .into_iter()
                .map(|hit| (hit.name.to_owned(), hit.score.to_bits()))
                .collect()
        })
        .collect()
}

#[test]
fn the_same_query_gives_the_same_order_in_every_build_twins_in_registration_order() {
    let registry = catalog::registry(3);
    let queries = catalog::queries();
    let first = Bm25::new(registry.tools());
    let expected = answers(&first, &queries);
    // Each build's maps are seeded anew: an order that came from one
    // would change between builds.
    for _ in 0..4 {
        assert!(answers(&Bm25::new(registry.tools()), &queries) == expected);
    }
    // The first three are the first three of fifteen.
    for (query, hits) in queries.iter().zip(&expected) {
        let three: Vec<(String, u32)> = first
            .rank(&query.query, 3)
            .into_iter()
            .map(|hit| (hit.name.to_owned(), hit.score.to_bits()))
            .collect();
        assert_eq!(three[..], hits[..hits.len().min(3)], "{}", query.query);
    }
    let position = |name: &str| {
        registry
            .tools()
            .position(|tool| tool.definition.name == name)
    };
    let mut ties = 0;
    for hits in &expected {
        for pair in hits.windows(2) {
            if pair[0].1 == pair[1].1 {
                ties += 1;
                assert!(
                    position(&pair[0].0) < position(&pair[1].0),
                    "{} before {}",
                    pair[0].0,
                    pair[1].0
                );
            }
        }
    }
    // Most hits are one of three twins.
    assert!(ties > queries.len(), "{ties} ties");
}

#[test]
fn the_order_is_the_same_in_every_process() {
    // Written down from one run: any process that ranks otherwise fails.
    let registry = catalog::registry(2);
    let index = Bm25::new(registry.tools());
    let hits = index.rank("list the open pull requests in the acme/site repo", 6);
    assert_eq!(
        named(&hits),
        [
            "github_update_pull_request_state",
            "github_update_pull_request_state_2",
            "github_list_pull_requests",
            "github_list_pull_requests_2",
            "ado_repo_pull_request",
            "ado_repo_pull_request_2",
        ]
    );
}
