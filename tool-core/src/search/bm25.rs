//! Okapi BM25 over tools, each field of a tool weighted by how much it
//! says about what the tool is for and normalized by its own length
//! (BM25F); a query's words also search for what they stand for and, for a
//! word no tool holds, for its nearest spelling; and a tool whose name the
//! query holds whole ranks higher.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::search::vocabulary::{Vocabulary, could_be_a_typo};
use crate::search::words::{lowered, pieces, stands_for, stem, stems};
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

/// How many of a query's words no tool holds are looked up by their
/// spelling, the first met that could be typos: a typo is a short
/// request's, and a long text (a pasted log) holds many words no tool
/// does, whose lookups would cost more than all the rest of the search.
const NEAR_SPELLING_LOOKUPS: usize = 8;

/// How much a word a query's word stands for counts (`repo` for
/// `repository`, `remove` for `delete`).
const STANDS_FOR: f32 = 0.6;

/// How deep into nested objects a schema's parameters are read.
const DEPTH: usize = 3;

/// A BM25 index of tools' names, titles, descriptions, and parameters'
/// names, descriptions and allowed values: the default [`Ranker`].
///
/// Tools of equal score come in the order they were given to
/// [`Bm25::new`] (a registry's, the order they were registered in), so
/// that the same query over the same tools gives the same order, in
/// every run and every process.
///
/// What a query costs is bounded whatever its length: each of its words
/// is looked up once however often it repeats, and of the words no tool
/// holds that could be typos, the first eight at most are looked up by
/// their spelling.
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
    /// The words of each tool's name, by number, for how much of it a
    /// query covers.
    name_words: Vec<Box<[u32]>>,
    /// Every word the tools hold, numbered.
    vocabulary: Vocabulary,
    /// Each word's inverse document frequency, by its number.
    idf: Vec<f32>,
    /// Where each word's postings start in `postings`, by its number; the
    /// last entry is where the last word's end.
    starts: Vec<u32>,
    /// Each word's postings, one after the other: the tools it is in, in
    /// the tools' order, and its saturated count in each, each field's
    /// count weighted and normalized by the field's length.
    postings: Vec<(u32, f32)>,
}

/// The fields of a tool, each indexed with its own weight and its own
/// length normalization (BM25F).
const FIELDS: usize = 5;

/// One tool's words, counted per field, and its fields' lengths.
type Counted = (HashMap<String, [f32; FIELDS]>, [f32; FIELDS]);

impl Bm25 {
    /// The index of `tools`.
    pub fn new<'a>(tools: impl IntoIterator<Item = ToolInfo<'a>>) -> Self {
        let mut names = Vec::new();
        let mut name_stems: Vec<Vec<String>> = Vec::new();
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
            let mut own = Vec::new();
            stems(&definition.name, |stem| {
                if !own.contains(&stem) {
                    own.push(stem);
                }
            });
            name_stems.push(own);
            add(&definition.name, 0);
            if let Some(title) = &tool.metadata.title {
                add(title, 1);
            }
            add(&definition.description, 2);
            parameters(&definition.input_schema, DEPTH, &mut add);
            names.push(definition.name.clone());
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
        // By word, in byte order, so that a word's number is the same
        // whatever order a map gave the words in.
        let mut by_word: BTreeMap<String, Vec<(u32, f32)>> = BTreeMap::new();
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
                let saturated = frequency * (K1 + 1.0) / (frequency + K1);
                by_word.entry(stem).or_default().push((doc, saturated));
            }
        }
        let count = names.len() as f32;
        let mut words = Vec::with_capacity(by_word.len());
        let mut idf = Vec::with_capacity(by_word.len());
        let mut starts = Vec::with_capacity(by_word.len() + 1);
        let mut postings = Vec::with_capacity(by_word.values().map(Vec::len).sum());
        for (word, held) in by_word {
            let holding = held.len() as f32;
            idf.push((1.0 + (count - holding + 0.5) / (holding + 0.5)).ln());
            starts.push(u32::try_from(postings.len()).unwrap_or(u32::MAX));
            postings.extend(held);
            words.push(word.into_boxed_str());
        }
        starts.push(u32::try_from(postings.len()).unwrap_or(u32::MAX));
        let vocabulary = Vocabulary::new(words);
        let name_words = name_stems
            .iter()
            .map(|stems| {
                stems
                    .iter()
                    .filter_map(|stem| vocabulary.find(stem))
                    .collect()
            })
            .collect();
        Bm25 {
            names,
            name_words,
            vocabulary,
            idf,
            starts,
            postings,
        }
    }

    /// How many tools the index holds.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the index holds no tool.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The postings of the word numbered `word`.
    fn postings(&self, word: u32) -> &[(u32, f32)] {
        let at = word as usize;
        match (self.starts.get(at), self.starts.get(at + 1)) {
            (Some(&start), Some(&end)) => &self.postings[start as usize..end as usize],
            _ => &[],
        }
    }
}

impl Ranker for Bm25 {
    fn rank(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        if limit == 0 {
            return Vec::new();
        }
        let mut scores = vec![0.0_f32; self.names.len()];
        let (terms, held) = self.query_terms(query);
        for &(word, weight) in &terms {
            let weighted = weight * self.idf[word as usize];
            for &(doc, saturated) in self.postings(word) {
                scores[doc as usize] += weighted * saturated;
            }
        }
        // A tool's name says what it does in a few words: the more of them
        // the query holds, the better the tool fits.
        for (doc, name) in self.name_words.iter().enumerate() {
            if scores[doc] <= 0.0 || name.is_empty() {
                continue;
            }
            let covered =
                name.iter().filter(|&&word| holds(&held, word)).count() as f32 / name.len() as f32;
            scores[doc] += NAME_COVERAGE * covered * covered;
        }
        let mut found: Vec<(usize, f32)> = scores
            .into_iter()
            .enumerate()
            .filter(|&(_, score)| score > 0.0)
            .collect();
        // Best first; of equal scores, the tool given first.
        let order = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if found.len() > limit {
            found.select_nth_unstable_by(limit - 1, order);
            found.truncate(limit);
        }
        found.sort_unstable_by(order);
        found
            .into_iter()
            .map(|(doc, score)| Hit {
                name: &self.names[doc],
                score,
            })
            .collect()
    }
}

impl Bm25 {
    /// The words a query searches for, by number, each once with its
    /// weight, in the order the query first holds them: its own words (1),
    /// the words they stand for ([`STANDS_FOR`]), and for a word no tool
    /// holds, the indexed word nearest in spelling, a typo's fix
    /// ([`NEAR_SPELLING`]; for the first [`NEAR_SPELLING_LOOKUPS`] such
    /// words). A word no tool holds adds nothing and is left out.
    /// The words also come as a set of their numbers ([`holds`]).
    fn query_terms(&self, query: &str) -> (Vec<(u32, f32)>, Vec<u64>) {
        let mut terms: Vec<(u32, f32)> = Vec::new();
        let mut held = vec![0_u64; self.vocabulary.len().div_ceil(64)];
        let mut add = |word: Option<u32>, weight: f32| {
            let Some(word) = word else {
                return;
            };
            let (slot, bit) = (word as usize / 64, 1_u64 << (word % 64));
            if held[slot] & bit == 0 {
                held[slot] |= bit;
                terms.push((word, weight));
            } else if let Some((_, was)) = terms.iter_mut().find(|(held, _)| *held == word) {
                *was = was.max(weight);
            }
        };
        // Each word and each stem once: a long text repeats most of its.
        let mut seen_pieces: HashSet<&str> = HashSet::new();
        let mut seen_stems: HashSet<String> = HashSet::new();
        let mut lower = String::new();
        let mut lookups = 0;
        pieces(query, |piece| {
            if !seen_pieces.insert(piece) || !lowered(piece, &mut lower) {
                return;
            }
            let stem = stem(&lower);
            if seen_stems.contains(&stem) {
                return;
            }
            for meant in stands_for(&stem) {
                add(self.vocabulary.find(meant), STANDS_FOR);
            }
            let own = self.vocabulary.find(&stem);
            if own.is_none() && lookups < NEAR_SPELLING_LOOKUPS && could_be_a_typo(&stem) {
                lookups += 1;
                let near = self
                    .vocabulary
                    .nearest(&stem, |word| self.postings(word).len());
                add(near, NEAR_SPELLING);
            }
            add(own, 1.0);
            seen_stems.insert(stem);
        });
        (terms, held)
    }
}

/// Whether the set of word numbers `held` holds `word`.
fn holds(held: &[u64], word: u32) -> bool {
    held.get(word as usize / 64)
        .is_some_and(|slot| slot & (1_u64 << (word % 64)) != 0)
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult};

    struct Named(&'static str, &'static str);

    impl Tool for Named {
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            self.1
        }
        fn input_schema(&self) -> Value {
            json!({"type": "object", "properties": {}})
        }
        fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
            Box::pin(async { ToolResult::text("") })
        }
    }

    fn index() -> Bm25 {
        let registry = ToolRegistry::new()
            .with(Named("deploy_service", "Deploy a service to production."))
            .with(Named("get_weather", "Get the weather for a city."));
        Bm25::new(registry.tools())
    }

    fn answer(index: &Bm25, query: &str) -> Vec<(String, u32)> {
        index
            .rank(query, 5)
            .into_iter()
            .map(|hit| (hit.name.to_owned(), hit.score.to_bits()))
            .collect()
    }

    #[test]
    fn a_word_counts_once_however_often_and_however_written() {
        let index = index();
        let once = answer(&index, "deploy the service");
        assert_eq!(once.len(), 1);
        assert_eq!(
            once,
            answer(
                &index,
                "deploy deploy DEPLOY the Service, deploying service"
            )
        );
    }

    #[test]
    fn the_first_eight_words_no_tool_holds_are_looked_up_by_spelling() {
        let index = index();
        assert_eq!(answer(&index, "wether")[0].0, "get_weather");
        // Seven words no tool holds, then a typo: it is fixed.
        let seven = "blorp florp glorp klorp plorp slorp trorp wether";
        assert_eq!(answer(&index, seven)[0].0, "get_weather");
        // Eight, then the typo: it is not looked up.
        let eight = "blorp florp glorp klorp plorp slorp trorp vlorp wether";
        assert_eq!(answer(&index, eight), []);
        // Numbers, names with digits and short words cost no lookup.
        let cheap =
            "1837 4921 ec2 k8s abc xyz zq ww blorp florp glorp klorp plorp slorp trorp wether";
        assert_eq!(answer(&index, cheap)[0].0, "get_weather");
        // A word repeated is looked up once.
        let repeated = "blorp blorp blorp blorp blorp blorp blorp blorp blorp wether";
        assert_eq!(answer(&index, repeated)[0].0, "get_weather");
    }

    #[test]
    fn no_limit_finds_nothing() {
        let index = index();
        assert_eq!(index.rank("weather", 5).len(), 1);
        assert!(index.rank("weather", 0).is_empty());
    }
}
