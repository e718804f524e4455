//! Finding the few tools a request needs among many (feature `search`): a
//! [`Ranker`] orders tools by how well they fit a request in words, and
//! [`Bm25`] is the one built in, over each tool's name, title, description
//! and parameters. Bring your own (embeddings, say) by implementing
//! [`Ranker`]. [`SearchTool`] is the tool a model calls to search, for
//! the providers without a search of their own, and for Anthropic's
//! client-side search.

pub(crate) mod bm25;
pub(crate) mod tool;
pub(crate) mod vocabulary;
pub(crate) mod words;

pub use bm25::Bm25;
pub use tool::{DEFAULT_SEARCH_LIMIT, SearchTool};

/// A tool found for a query, and how well it fits: higher is better, and
/// only comparable within one ranker's answer to one query. Hits of equal
/// score come in the ranker's own stable order ([`Ranker::rank`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// How well it fits the query.
    pub score: f32,
}

/// Orders a set of tools by how well each fits a request in words.
///
/// ```
/// use tool_core::search::{Hit, Ranker};
///
/// /// Tools ranked by how many of the query's words their names hold.
/// struct ByName(Vec<String>);
///
/// impl Ranker for ByName {
///     fn rank(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
///         let mut hits: Vec<Hit<'_>> = self
///             .0
///             .iter()
///             .map(|name| Hit {
///                 name,
///                 score: query.split(' ').filter(|word| name.contains(word)).count() as f32,
///             })
///             .filter(|hit| hit.score > 0.0)
///             .collect();
///         hits.sort_by(|a, b| b.score.total_cmp(&a.score));
///         hits.truncate(limit);
///         hits
///     }
/// }
///
/// let ranker = ByName(vec!["get_weather".into(), "create_issue".into()]);
/// assert_eq!(ranker.rank("weather", 5)[0].name, "get_weather");
/// ```
pub trait Ranker: Send + Sync {
    /// The tools that fit `query`, best first, at most `limit`; none that
    /// do not fit at all. Tools of equal score come in an order the same
    /// query over the same tools always gives, in every run and process
    /// (never a hash map's iteration order), and one a user can tell:
    /// [`Bm25`]'s is the order the tools were given in, a registry's
    /// registration order.
    fn rank(&self, query: &str, limit: usize) -> Vec<Hit<'_>>;
}
