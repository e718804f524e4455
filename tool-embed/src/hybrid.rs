//! Words and meaning together: BM25's score and the embedding's cosine,
//! each brought to the same scale, summed with weights.

use std::collections::HashMap;
use std::sync::Arc;

use tool_core::registry::ToolInfo;
use tool_core::search::{Bm25, Hit, Ranker};

use crate::vectors::best;
use crate::{Embedder, EmbeddingRanker, Error};

/// How much BM25's words count in a hybrid score, against the model's
/// meaning (`1 - WORDS`). Chosen, with the text each tool is embedded
/// from, on half of the labelled queries of `bench/search/`; the other
/// half is held out.
pub const WORDS: f32 = 0.4;

/// The ranker to use when embeddings are on: [`Bm25`] and an
/// [`EmbeddingRanker`] over the same tools, fused. A tool's score is
/// `words × bm25 / best bm25 + (1 − words) × cosine / best cosine`: each
/// over the query's best, so 0 to 1 whatever the query's length and however
/// near the nearest tool is. Words find what the query names (`create_issue` for
/// "create an issue"), meaning what it only describes ("chargebacks" for
/// disputes); equal scores come in the tools' order.
///
/// Built once per registry or view: BM25's index and a vector a tool
/// (1,536 bytes with all-MiniLM-L6-v2; about 2.4 KB a tool in all at
/// 2,000 tools); each query is embedded at its call.
///
/// ```no_run
/// use std::sync::Arc;
///
/// use tool_core::search::Ranker;
/// use tool_core::ToolRegistry;
/// use tool_embed::{Embedder, Hybrid};
///
/// # fn main() -> Result<(), tool_embed::Error> {
/// let model = Arc::new(Embedder::from_dir("models/all-MiniLM-L6-v2")?);
/// let registry: ToolRegistry = ToolRegistry::new();
/// let ranker = Hybrid::new(model, registry.tools())?;
/// let hits = ranker.rank("refund a chargeback", 5);
/// # Ok(())
/// # }
/// ```
pub struct Hybrid {
    bm25: Bm25,
    embeddings: EmbeddingRanker,
    /// Each tool's place in the tools' order, by name.
    places: HashMap<String, usize>,
    words: f32,
}

/// Its size and weight, not its index: a map of every tool's name and
/// 384 numbers a tool would fill a log.
impl std::fmt::Debug for Hybrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hybrid")
            .field("embeddings", &self.embeddings)
            .field("words", &self.words)
            .finish_non_exhaustive()
    }
}

impl Hybrid {
    /// BM25's index and the model's vectors of `tools`.
    pub fn new<'a>(
        embedder: Arc<Embedder>,
        tools: impl IntoIterator<Item = ToolInfo<'a>>,
    ) -> Result<Self, Error> {
        let tools: Vec<ToolInfo<'a>> = tools.into_iter().collect();
        let embeddings = EmbeddingRanker::new(embedder, tools.iter().copied())?;
        let places = embeddings
            .names()
            .iter()
            .enumerate()
            .map(|(at, name)| (name.clone(), at))
            .collect();
        Ok(Self {
            bm25: Bm25::new(tools),
            embeddings,
            places,
            words: WORDS,
        })
    }

    /// The same ranker with BM25's words weighing `words` (0 to 1) and the
    /// model's meaning the rest: 1 is BM25 alone, 0 the model alone.
    /// A weight that is not a number leaves [`WORDS`].
    pub fn with_words(mut self, words: f32) -> Self {
        self.words = match words.is_nan() {
            true => WORDS,
            false => words.clamp(0.0, 1.0),
        };
        self
    }

    /// How many tools it ranks.
    pub fn len(&self) -> usize {
        self.embeddings.len()
    }

    /// Whether it ranks no tool.
    pub fn is_empty(&self) -> bool {
        self.embeddings.is_empty()
    }
}

impl Ranker for Hybrid {
    /// The tools that BM25 finds or whose meaning is nearer the query's
    /// than unrelated text, best first; if the model cannot read the query,
    /// or it has no letter or digit (an empty query finds nothing), BM25's
    /// alone.
    fn rank(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        let Ok(Some(cosines)) = self.embeddings.similarities(query) else {
            return self.bm25.rank(query, limit);
        };
        let found = self.bm25.rank(query, self.len());
        // Each brought to 0..1 over the query's best, so that neither the
        // query's length (BM25) nor how near anything is (the cosine)
        // tips the balance.
        let top_words = found.first().map_or(0.0, |hit| hit.score);
        let top_meaning = cosines.iter().copied().fold(0.0, f32::max);
        let meaning = match top_meaning > 0.0 {
            true => (1.0 - self.words) / top_meaning,
            false => 0.0,
        };
        let mut scores: Vec<f32> = cosines
            .iter()
            .map(|cosine| meaning * cosine.max(0.0))
            .collect();
        if top_words > 0.0 {
            for hit in &found {
                if let Some(&at) = self.places.get(hit.name) {
                    scores[at] += self.words * hit.score / top_words;
                }
            }
        }
        best(self.embeddings.names(), &scores, 0.0, limit)
    }
}
