//! The labelled tool catalog of `bench/search/` (real tools of real MCP
//! servers, see its PROVENANCE.md), as registry tools, and its queries.

use std::path::PathBuf;

use serde_json::Value;
use tool_core::search::Ranker;
use tool_core::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult};

/// One tool of the catalog: its definition as its server lists it.
pub(crate) struct Listed {
    name: String,
    description: String,
    schema: Value,
}

impl Listed {
    /// A tool of `name`, `description` and input `schema`.
    pub(crate) fn new(name: &str, description: &str, schema: Value) -> Self {
        Self {
            name: name.to_owned(),
            description: description.to_owned(),
            schema,
        }
    }
}

impl Tool for Listed {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn input_schema(&self) -> Value {
        self.schema.clone()
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("") })
    }
}

/// A query and the tools a person would pick for it.
pub(crate) struct Query {
    pub(crate) query: String,
    pub(crate) expected: Vec<String>,
}

fn read(file: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../bench/search")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn text(entry: &Value, key: &str) -> String {
    entry[key].as_str().unwrap_or_default().to_owned()
}

/// The catalog's tools, `copies` times over (each copy after the first
/// with its names suffixed `_2`, `_3`...), in a registry; a tool whose
/// schema the registry refuses (a draft-07 tuple `items`, say) is left
/// out, as a mount leaves it out.
pub(crate) fn registry(copies: usize) -> ToolRegistry {
    registry_of(copies, usize::MAX)
}

/// The first `count` tools of [`registry`]`(copies)`.
pub(crate) fn registry_of(copies: usize, count: usize) -> ToolRegistry {
    let catalog = read("catalog.json");
    let entries = catalog.as_array().expect("the catalog is a list");
    let mut registry = ToolRegistry::new();
    for copy in 1..=copies {
        for entry in entries {
            let name = match copy {
                1 => text(entry, "name"),
                _ => format!("{}_{copy}", text(entry, "name")),
            };
            if registry.tools().len() == count {
                return registry;
            }
            let added = registry.register(Listed::new(
                &name,
                &text(entry, "description"),
                entry["input_schema"].clone(),
            ));
            if let Err(error) = added
                && copy == 1
            {
                println!("left out: {error}");
            }
        }
    }
    registry
}

/// The labelled queries.
pub(crate) fn queries() -> Vec<Query> {
    let queries = read("queries.json");
    queries
        .as_array()
        .expect("the queries are a list")
        .iter()
        .map(|entry| Query {
            query: text(entry, "query"),
            expected: entry["expected"]
                .as_array()
                .expect("expected tools")
                .iter()
                .map(|name| name.as_str().expect("a name").to_owned())
                .collect(),
        })
        .collect()
}

/// The labelled queries `registry` can answer (a query whose tools it left
/// out cannot be), split as every figure of the set is: the even ones, the
/// half a ranker's constants are chosen on, and the odd ones, held out.
pub(crate) fn halves(registry: &ToolRegistry) -> (Vec<Query>, Vec<Query>) {
    let (tuned, held_out): (Vec<_>, Vec<_>) = queries()
        .into_iter()
        .filter(|query| {
            query
                .expected
                .iter()
                .any(|name| registry.info(name).is_some())
        })
        .enumerate()
        .partition(|(at, _)| at % 2 == 0);
    let strip = |half: Vec<(usize, Query)>| half.into_iter().map(|(_, query)| query).collect();
    (strip(tuned), strip(held_out))
}

/// How a ranker fares on labelled queries.
pub(crate) struct Quality {
    /// The share of the queries with a tool a person would pick among the
    /// first five found (recall@5).
    pub(crate) recall: f64,
    /// The mean reciprocal rank of the first such tool among the first ten
    /// (MRR).
    pub(crate) mrr: f64,
    /// The queries with none among the first five: each with the tools
    /// expected and those found.
    pub(crate) missed: Vec<String>,
}

/// How `ranker` fares on `queries`.
pub(crate) fn quality<'a>(
    ranker: &dyn Ranker,
    queries: impl IntoIterator<Item = &'a Query>,
) -> Quality {
    let (mut count, mut found, mut reciprocal) = (0, 0, 0.0);
    let mut missed = Vec::new();
    for query in queries {
        count += 1;
        let hits = ranker.rank(&query.query, 10);
        let rank = hits
            .iter()
            .position(|hit| query.expected.iter().any(|name| name == hit.name));
        match rank {
            Some(at) if at < 5 => found += 1,
            _ => missed.push(format!(
                "{:?}: expected {:?}, found {:?}",
                query.query,
                query.expected,
                hits.iter().take(5).map(|hit| hit.name).collect::<Vec<_>>()
            )),
        }
        if let Some(at) = rank {
            reciprocal += 1.0 / f64::from(at as u32 + 1);
        }
    }
    let count = f64::from(count.max(1));
    Quality {
        recall: f64::from(found) / count,
        mrr: reciprocal / count,
        missed,
    }
}
