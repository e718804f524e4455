//! The labelled tool catalog of `bench/search/` (real tools of real MCP
//! servers, see its PROVENANCE.md), as registry tools, and its queries.

use std::path::PathBuf;

use serde_json::Value;
use tool_core::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult};

/// One tool of the catalog: its definition as its server lists it.
pub(crate) struct Listed {
    name: String,
    description: String,
    schema: Value,
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
            let added = registry.register(Listed {
                name,
                description: text(entry, "description"),
                schema: entry["input_schema"].clone(),
            });
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
