//! Okapi BM25 over tools, each field of a tool weighted by how much it
//! says about what the tool is for (BM25F, simplified: the weights scale
//! each word's count before saturation).

use std::collections::HashMap;

use serde_json::Value;

use super::words::stems;
use super::{Hit, Ranker};
use crate::ToolInfo;

/// How fast a word's repeats stop counting.
const K1: f32 = 1.2;
/// How much a long definition's words count for less.
const B: f32 = 0.75;

/// How much a word counts in each field: a tool's name is what it does,
/// its description says so at length, its parameters say what it acts on.
const NAME: f32 = 3.0;
const TITLE: f32 = 2.0;
const DESCRIPTION: f32 = 1.0;
const PARAMETER: f32 = 1.5;
const PARAMETER_TEXT: f32 = 0.5;

/// How deep into nested objects a schema's parameters are read.
const DEPTH: usize = 3;

/// A BM25 index of tools' names, titles, descriptions, and parameters'
/// names, descriptions and allowed values: the default [`Ranker`].
///
/// ```
/// use tool_core::search::{Bm25, Ranker};
/// use tool_core::{tool, ToolRegistry};
///
/// /// Open an issue in a repository's tracker.
/// #[tool]
/// fn create_issue(
///     /// The repository, `owner/name`.
///     repo: String,
///     /// What the issue says.
///     title: String,
/// ) -> String {
///     format!("opened `{title}` in {repo}")
/// }
///
/// /// Get the weather for a city.
/// #[tool]
/// fn get_weather(
///     /// The city.
///     city: String,
/// ) -> String {
///     format!("sunny in {city}")
/// }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(CreateIssue).with(GetWeather);
/// let index = Bm25::new(registry.tools());
/// let hits = index.rank("file a bug in the acme/site repo", 5);
/// assert_eq!(hits[0].name, "create_issue");
/// ```
#[derive(Debug, Default)]
pub struct Bm25 {
    names: Vec<String>,
    /// Each word's postings: the tools it is in, and its weighted count in
    /// each.
    postings: HashMap<String, Vec<(u32, f32)>>,
    /// Each tool's length: its words' weighted counts summed.
    lengths: Vec<f32>,
    average_length: f32,
}

impl Bm25 {
    /// The index of `tools`.
    pub fn new<'a>(tools: impl IntoIterator<Item = ToolInfo<'a>>) -> Self {
        let mut index = Bm25::default();
        let mut counts: HashMap<String, f32> = HashMap::new();
        for (at, tool) in tools.into_iter().enumerate() {
            let mut add = |text: &str, weight: f32| {
                stems(text, |stem| *counts.entry(stem).or_default() += weight);
            };
            let definition = tool.definition;
            add(&definition.name, NAME);
            if let Some(title) = &tool.metadata.title {
                add(title, TITLE);
            }
            add(&definition.description, DESCRIPTION);
            parameters(&definition.input_schema, DEPTH, &mut add);
            let doc = u32::try_from(at).unwrap_or(u32::MAX);
            let mut length = 0.0;
            for (stem, count) in counts.drain() {
                length += count;
                index.postings.entry(stem).or_default().push((doc, count));
            }
            index.names.push(definition.name.clone());
            index.lengths.push(length);
        }
        let total: f32 = index.lengths.iter().sum();
        index.average_length = total / index.lengths.len().max(1) as f32;
        index.postings.shrink_to_fit();
        index
    }

    /// How many tools the index holds.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the index holds no tool.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl Ranker for Bm25 {
    fn rank(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        let count = self.names.len() as f32;
        let mut scores = vec![0.0_f32; self.names.len()];
        let mut seen: Vec<String> = Vec::new();
        stems(query, |stem| {
            if !seen.contains(&stem) {
                seen.push(stem);
            }
        });
        for stem in &seen {
            let Some(postings) = self.postings.get(stem) else {
                continue;
            };
            let holding = postings.len() as f32;
            let idf = (1.0 + (count - holding + 0.5) / (holding + 0.5)).ln();
            for &(doc, frequency) in postings {
                let length = self.lengths[doc as usize] / self.average_length;
                let saturated = frequency * (K1 + 1.0) / (frequency + K1 * (1.0 - B + B * length));
                scores[doc as usize] += idf * saturated;
            }
        }
        let mut hits: Vec<Hit<'_>> = scores
            .into_iter()
            .enumerate()
            .filter(|&(_, score)| score > 0.0)
            .map(|(doc, score)| Hit {
                name: &self.names[doc],
                score,
            })
            .collect();
        // Best first; a tie goes to the tool listed first.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(limit);
        hits
    }
}

/// The parameters of a schema, as words to index: each property's name,
/// description and allowed string values, and those of the objects inside
/// it, `depth` levels down.
fn parameters(schema: &Value, depth: usize, add: &mut impl FnMut(&str, f32)) {
    if depth == 0 {
        return;
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, property) in properties {
            add(name, PARAMETER);
            described(property, add);
            parameters(property, depth - 1, add);
        }
    }
    if let Some(items) = schema.get("items") {
        described(items, add);
        parameters(items, depth - 1, add);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            for branch in branches {
                parameters(branch, depth - 1, add);
            }
        }
    }
}

/// A property's description and allowed string values.
fn described(property: &Value, add: &mut impl FnMut(&str, f32)) {
    if let Some(Value::String(description)) = property.get("description") {
        add(description, PARAMETER_TEXT);
    }
    if let Some(Value::Array(values)) = property.get("enum") {
        for value in values.iter().filter_map(Value::as_str) {
            add(value, PARAMETER_TEXT);
        }
    }
}
