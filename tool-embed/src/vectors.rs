//! Tools ranked by meaning: each tool's vector made once, when the ranker
//! is built, and each query's at every call; a tool's score is the cosine
//! of the two.

use std::sync::Arc;

use tool_core::registry::ToolInfo;
use tool_core::search::{Hit, Ranker};

use crate::{Embedder, Error};

/// Tools ranked by how near a query's meaning their name, title and
/// description are, by a sentence-embedding model: it finds "chargebacks"
/// in a tool about disputes, which no word of the query names.
///
/// Each tool's vector is made once, by [`new`](Self::new), and kept:
/// 4 bytes a dimension, 1,536 bytes a tool with all-MiniLM-L6-v2. Build it
/// once per registry or view, as [`Bm25`](tool_core::search::Bm25) is;
/// the model keeps the vectors it made ([`Embedder::embed_kept`]), so that
/// the index of a view, or of the registry once a tool is added, makes
/// only those of the tools it has not seen.
///
/// ```no_run
/// use std::sync::Arc;
///
/// use tool_core::search::Ranker;
/// use tool_core::ToolRegistry;
/// use tool_embed::{Embedder, EmbeddingRanker};
///
/// # fn main() -> Result<(), tool_embed::Error> {
/// let model = Arc::new(Embedder::from_dir("models/all-MiniLM-L6-v2")?);
/// let registry: ToolRegistry = ToolRegistry::new();
/// let ranker = EmbeddingRanker::new(model, registry.tools())?;
/// let hits = ranker.rank("how much money is in my account", 5);
/// # Ok(())
/// # }
/// ```
pub struct EmbeddingRanker {
    embedder: Arc<Embedder>,
    names: Vec<String>,
    /// The tools' unit vectors, one after another, in the tools' order.
    vectors: Vec<f32>,
}

/// What of a tool the model reads: its name as words, its title and its
/// description (the model cuts what is past its length).
pub(crate) fn text_of(tool: &ToolInfo<'_>) -> String {
    let definition = tool.definition;
    let mut text: String = definition
        .name
        .chars()
        .map(|c| if c == '_' || c == '-' { ' ' } else { c })
        .collect();
    if let Some(title) = &tool.metadata.title {
        text.push_str(". ");
        text.push_str(title);
    }
    text.push_str(": ");
    text.push_str(&definition.description);
    text
}

/// Its size, not its vectors: 384 numbers a tool would fill a log.
impl std::fmt::Debug for EmbeddingRanker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddingRanker")
            .field("tools", &self.names.len())
            .field("dimensions", &self.embedder.dimensions())
            .finish_non_exhaustive()
    }
}

impl EmbeddingRanker {
    /// The vectors of `tools`, made by `embedder`.
    pub fn new<'a>(
        embedder: Arc<Embedder>,
        tools: impl IntoIterator<Item = ToolInfo<'a>>,
    ) -> Result<Self, Error> {
        let (names, texts): (Vec<String>, Vec<String>) = tools
            .into_iter()
            .map(|tool| (tool.definition.name.clone(), text_of(&tool)))
            .unzip();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let vectors = embedder.embed_kept(&texts)?.concat();
        Ok(Self {
            embedder,
            names,
            vectors,
        })
    }

    /// How many tools it ranks.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether it ranks no tool.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The tools' names, in the order they were given.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// The cosine of `query` with each tool, in the tools' order; none for
    /// a query without a letter or a digit (empty, spaces, punctuation),
    /// which means nothing the model could match, though it would give it
    /// a vector.
    pub(crate) fn similarities(&self, query: &str) -> Result<Option<Vec<f32>>, Error> {
        if !query.chars().any(char::is_alphanumeric) {
            return Ok(None);
        }
        let query = self.embedder.embed_query(query)?;
        let dimensions = self.embedder.dimensions();
        Ok(Some(
            self.vectors
                .chunks_exact(dimensions)
                .map(|tool| dot(tool, &query))
                .collect(),
        ))
    }
}

/// The dot product of `a` and `b`, summed in 16 lanes: a sum in one
/// running total waits on each addition before the next (the compiler may
/// not reorder floating-point sums), and 2,000 tools' 384 numbers take a
/// millisecond so; in lanes, the additions run side by side, in vector
/// registers.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 16;
    debug_assert_eq!(a.len(), b.len());
    let mut sums = [0.0f32; LANES];
    let (a_lanes, b_lanes) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_lanes
        .remainder()
        .iter()
        .zip(b_lanes.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_lanes.zip(b_lanes) {
        for lane in 0..LANES {
            sums[lane] += x[lane] * y[lane];
        }
    }
    sums.iter().sum::<f32>() + tail
}

/// The `limit` best of `scores` (one a tool, in the tools' order) above
/// `floor`, best first; equal scores in the tools' order, so that the same
/// query always gives the same order.
pub(crate) fn best<'a>(
    names: &'a [String],
    scores: &[f32],
    floor: f32,
    limit: usize,
) -> Vec<Hit<'a>> {
    let mut ranked: Vec<usize> = (0..scores.len()).filter(|&at| scores[at] > floor).collect();
    ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    ranked.truncate(limit);
    ranked
        .into_iter()
        .map(|at| Hit {
            name: &names[at],
            score: scores[at],
        })
        .collect()
}

impl Ranker for EmbeddingRanker {
    /// The tools whose meaning is nearer the query's than unrelated text
    /// (a cosine above 0), best first; a query the model cannot read finds
    /// nothing.
    fn rank(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        match self.similarities(query) {
            Ok(Some(scores)) => best(&self.names, &scores, 0.0, limit),
            Ok(None) | Err(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::dot;

    #[test]
    fn a_dot_product_in_lanes_is_the_plain_one() {
        for length in [0, 1, 15, 16, 17, 384, 385] {
            let a: Vec<f32> = (0..length).map(|at| (at as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..length).map(|at| (at as f32 * 0.11).cos()).collect();
            let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-4, "{length}");
        }
    }
}
