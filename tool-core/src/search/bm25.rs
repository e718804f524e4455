//! Okapi BM25 over tools, each field of a tool weighted by how much it
//! says about what the tool is for and normalized by its own length
//! (BM25F); a query's words also search for what they stand for and, for a
//! word no tool holds, for its nearest spelling; and a tool whose name the
//! query holds whole ranks higher.

use std::collections::HashMap;

use serde_json::Value;

use crate::search::words::stems;
use crate::search::{Hit, Ranker};
use crate::tool::ToolInfo;

/// How fast a word's repeats stop counting.
const K1: f32 = 1.2;
/// How much a long definition's words count for less.
const B: f32 = 0.75;

/// How much a word counts in each field, whose lengths are normalized
/// apart: a tool's name is what it does, its description says so at
/// length, its parameters say what it acts on. Chosen, with the other
/// constants here, on half of the labelled queries of `bench/search/`;
/// the other half is held out.
const NAME: f32 = 3.0;
const TITLE: f32 = 2.0;
const DESCRIPTION: f32 = 1.0;
const PARAMETER: f32 = 1.5;
const PARAMETER_TEXT: f32 = 0.5;

/// What a query that holds all of a tool's name adds to its score.
const NAME_COVERAGE: f32 = 4.0;

/// How much a word found only by its spelling's nearness counts.
const NEAR_SPELLING: f32 = 0.7;

/// How much a word a query's word stands for counts (`repo` for
/// `repository`, `remove` for `delete`).
const STANDS_FOR: f32 = 0.6;

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
    /// The stems of each tool's name, for how much of it a query covers.
    name_stems: Vec<Vec<String>>,
    /// Each word's postings: the tools it is in, and its count in each,
    /// each field's count weighted and normalized by the field's length.
    postings: HashMap<String, Vec<(u32, f32)>>,
}

/// The fields of a tool, each indexed with its own weight and its own
/// length normalization (BM25F).
const FIELDS: usize = 5;

/// One tool's words, counted per field, and its fields' lengths.
type Counted = (HashMap<String, [f32; FIELDS]>, [f32; FIELDS]);

impl Bm25 {
    /// The index of `tools`.
    pub fn new<'a>(tools: impl IntoIterator<Item = ToolInfo<'a>>) -> Self {
        let mut index = Bm25::default();
        let mut docs: Vec<Counted> = Vec::new();
        for tool in tools {
            let mut counts: HashMap<String, [f32; FIELDS]> = HashMap::new();
            let mut lengths = [0.0; FIELDS];
            let mut add = |text: &str, field: usize| {
                stems(text, |stem| {
                    counts.entry(stem).or_default()[field] += 1.0;
                    lengths[field] += 1.0;
                });
            };
            let definition = tool.definition;
            let mut name_stems = Vec::new();
            stems(&definition.name, |stem| {
                if !name_stems.contains(&stem) {
                    name_stems.push(stem);
                }
            });
            index.name_stems.push(name_stems);
            add(&definition.name, 0);
            if let Some(title) = &tool.metadata.title {
                add(title, 1);
            }
            add(&definition.description, 2);
            parameters(&definition.input_schema, DEPTH, &mut add);
            index.names.push(definition.name.clone());
            docs.push((counts, lengths));
        }
        let mut averages = [0.0_f32; FIELDS];
        for (_, lengths) in &docs {
            for (average, length) in averages.iter_mut().zip(lengths) {
                *average += length;
            }
        }
        for average in &mut averages {
            *average = (*average / docs.len().max(1) as f32).max(1.0);
        }
        let weights = [NAME, TITLE, DESCRIPTION, PARAMETER, PARAMETER_TEXT];
        for (at, (counts, lengths)) in docs.into_iter().enumerate() {
            let doc = u32::try_from(at).unwrap_or(u32::MAX);
            for (stem, count) in counts {
                let mut frequency = 0.0;
                for field in 0..FIELDS {
                    if count[field] > 0.0 {
                        let norm = 1.0 - B + B * lengths[field] / averages[field];
                        frequency += weights[field] * count[field] / norm;
                    }
                }
                index
                    .postings
                    .entry(stem)
                    .or_default()
                    .push((doc, frequency));
            }
        }
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
        let seen = self.query_terms(query);
        for (stem, weight) in &seen {
            let Some(postings) = self.postings.get(stem) else {
                continue;
            };
            let holding = postings.len() as f32;
            let idf = (1.0 + (count - holding + 0.5) / (holding + 0.5)).ln();
            for &(doc, frequency) in postings {
                let saturated = frequency * (K1 + 1.0) / (frequency + K1);
                scores[doc as usize] += weight * idf * saturated;
            }
        }
        // A tool's name says what it does in a few words: the more of them
        // the query holds, the better the tool fits.
        for (doc, name) in self.name_stems.iter().enumerate() {
            if scores[doc] <= 0.0 || name.is_empty() {
                continue;
            }
            let held = name
                .iter()
                .filter(|stem| seen.iter().any(|(term, _)| term == *stem))
                .count();
            let covered = held as f32 / name.len() as f32;
            scores[doc] += NAME_COVERAGE * covered * covered;
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

impl Bm25 {
    /// The stems a query searches for, each with its weight: its own words
    /// (1), the words they stand for ([`STANDS_FOR`]), and for a word no
    /// tool holds, the indexed word nearest in spelling, a typo's fix
    /// ([`NEAR_SPELLING`]).
    fn query_terms(&self, query: &str) -> Vec<(String, f32)> {
        let mut terms: Vec<(String, f32)> = Vec::new();
        let mut add = |stem: String, weight: f32| match terms.iter_mut().find(|(t, _)| *t == stem) {
            Some((_, held)) => *held = held.max(weight),
            None => terms.push((stem, weight)),
        };
        stems(query, |stem| {
            for &(word, stands_for) in super::words::STANDS_FOR {
                if word == stem {
                    for meant in stands_for {
                        add((*meant).to_owned(), STANDS_FOR);
                    }
                }
            }
            if !self.postings.contains_key(&stem)
                && let Some(near) = self.nearest(&stem)
            {
                add(near, NEAR_SPELLING);
            }
            add(stem, 1.0);
        });
        terms
    }

    /// The indexed word nearest `stem` in spelling (edits counted with
    /// transpositions, as typos are): one edit away (two for a word of
    /// eight letters or more), with the same first letter (a typo rarely
    /// changes it), the commonest of those nearest. Numbers and names with
    /// digits are no typos.
    fn nearest(&self, stem: &str) -> Option<String> {
        let length = stem.chars().count();
        let first = stem.chars().next()?;
        if length < 4 || stem.chars().any(|c| c.is_ascii_digit()) {
            return None;
        }
        let allowed = if length >= 8 { 2 } else { 1 };
        self.postings
            .iter()
            .filter(|(word, _)| {
                word.starts_with(first) && word.len().abs_diff(stem.len()) <= allowed
            })
            .map(|(word, postings)| (strsim::osa_distance(word, stem), postings.len(), word))
            .filter(|&(distance, _, _)| distance <= allowed)
            .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)))
            .map(|(_, _, word)| word.clone())
    }
}

/// The parameters of a schema, as words to index: each property's name,
/// description and allowed string values, and those of the objects inside
/// it, `depth` levels down.
fn parameters(schema: &Value, depth: usize, add: &mut impl FnMut(&str, usize)) {
    if depth == 0 {
        return;
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, property) in properties {
            add(name, 3);
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
fn described(property: &Value, add: &mut impl FnMut(&str, usize)) {
    if let Some(Value::String(description)) = property.get("description") {
        add(description, 4);
    }
    if let Some(Value::Array(values)) = property.get("enum") {
        for value in values.iter().filter_map(Value::as_str) {
            add(value, 4);
        }
    }
}
