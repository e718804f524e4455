//! The search tool: a tool the model calls to find, among many tools it is
//! not shown, those a task needs; it answers with them as
//! [`Part::Tool`]s, which [`Turn::found`](crate::provider::Turn::found)
//! gives back to the application.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::BoxFuture;
use crate::output::media::Part;
use crate::output::media::ToolRef;
use crate::output::result::ToolResult;
use crate::search::Ranker;
use crate::search::bm25::Bm25;
use crate::tool::context::ToolContext;
use crate::tool::metadata::ToolMetadata;
use crate::tool::{Tool, ToolInfo};

/// How many tools one search finds at most, by default: as many as
/// Anthropic's own search returns.
pub const DEFAULT_SEARCH_LIMIT: usize = 5;

/// What the model reads about the search tool.
const DESCRIPTION: &str = "Find the tools for a task among many tools that are not shown to you. \
Say what you want to do in a few words; the tools found can be called from your next turn.";

/// A tool that searches a set of tools for the model: `search_tools`,
/// which takes a `query` and answers with the tools that fit it, best
/// first, each as a [`Part::Tool`] (its name and description; for
/// Anthropic, a `tool_reference` that loads its definition).
///
/// Register it beside the tools it searches, and mark those that wait to
/// be found ([`ToolMetadata::defer`], `#[tool(defer)]`,
/// `Compose::defer`). Then each request shows the model the tools up
/// front and those found so far:
///
/// - Anthropic:
///   `Provider::Anthropic { .. }.definitions_with(&registry,
///   Listing::new().search(Search::Client))`, every tool sent, those that
///   wait with `defer_loading`, which the search's `tool_reference`s load;
/// - any other provider: a view,
///   `registry.view(Select::all().up_front().names(found))`, where `found`
///   gathers [`Turn::found`](crate::provider::Turn::found) turn by turn.
///
/// The tools are indexed when the search is made: make it again when the
/// tools change.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::provider::Provider;
/// use tool_core::search::SearchTool;
/// use tool_core::toolset::Select;
/// use tool_core::{tool, ToolContext, ToolRegistry};
///
/// /// Open an issue in a repository's tracker.
/// #[tool(defer)]
/// fn create_issue(repo: String, title: String) -> String {
///     format!("opened `{title}` in {repo}")
/// }
///
/// /// Get the weather for a city.
/// #[tool(defer)]
/// fn get_weather(city: String) -> String {
///     format!("sunny in {city}")
/// }
///
/// let tools: ToolRegistry = ToolRegistry::new().with(CreateIssue).with(GetWeather);
/// let search = SearchTool::new(tools.tools());
/// let registry = tools.with(search);
///
/// // First, the model is shown the search alone.
/// let shown = registry.view(Select::all().up_front());
/// assert_eq!(shown.names().collect::<Vec<_>>(), ["search_tools"]);
///
/// // It searches...
/// let provider = Provider::OpenAiChat { strict: false };
/// let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
///     "id": "call_1", "type": "function",
///     "function": {"name": "search_tools", "arguments": "{\"query\": \"open an issue\"}"}
/// }]}}]});
/// let turn = provider.respond_in(&shown, &ToolContext::new(()), &response).await.unwrap();
/// assert_eq!(turn.found()[0], "create_issue");
///
/// // ...and from its next turn, it is shown what it found.
/// let next = registry.view(Select::all().up_front().names(turn.found()));
/// assert!(next.contains("create_issue"));
/// # });
/// ```
pub struct SearchTool<R = Bm25> {
    ranker: R,
    /// Each tool's description and input schema, by its name.
    described: HashMap<String, (String, Value)>,
    limit: usize,
}

impl SearchTool<Bm25> {
    /// A search of `tools` with the built-in ranker ([`Bm25`]).
    pub fn new<'a>(tools: impl IntoIterator<Item = ToolInfo<'a>>) -> Self {
        let tools: Vec<ToolInfo<'a>> = tools.into_iter().collect();
        SearchTool::with_ranker(Bm25::new(tools.iter().copied()), tools)
    }
}

impl<R: Ranker> SearchTool<R> {
    /// A search of `tools` with a ranker of your own, made over the same
    /// tools: the search answers with those of them the ranker finds.
    pub fn with_ranker<'a>(ranker: R, tools: impl IntoIterator<Item = ToolInfo<'a>>) -> Self {
        let described = tools
            .into_iter()
            .map(|tool| {
                let definition = tool.definition;
                (
                    definition.name.clone(),
                    (
                        definition.description.clone(),
                        definition.input_schema.clone(),
                    ),
                )
            })
            .collect();
        Self {
            ranker,
            described,
            limit: DEFAULT_SEARCH_LIMIT,
        }
    }

    /// Finds at most `limit` tools a search ([`DEFAULT_SEARCH_LIMIT`]
    /// unless set).
    #[must_use]
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit.max(1);
        self
    }

    /// The tools that fit `query`, best first, as the model reads them.
    pub fn search(&self, query: &str) -> ToolResult {
        let found: Vec<Part> = self
            .ranker
            .rank(query, self.limit)
            .into_iter()
            .filter_map(|hit| {
                let (description, schema) = self.described.get(hit.name)?;
                let tool = ToolRef::new(hit.name, description.clone());
                Some(Part::Tool(tool.with_input_schema(schema.clone())))
            })
            .collect();
        if found.is_empty() {
            return ToolResult::text(format!(
                "No tool fits `{query}`; search again with other words."
            ));
        }
        ToolResult::parts(found)
    }
}

impl<R> std::fmt::Debug for SearchTool<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchTool")
            .field("tools", &self.described.len())
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl<Ctx: Send + Sync + 'static, R: Ranker + 'static> Tool<Ctx> for SearchTool<R> {
    fn name(&self) -> &str {
        crate::provider::listing::SEARCH_TOOL
    }

    fn description(&self) -> &str {
        DESCRIPTION
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What you want to do, in a few words."
                }
            },
            "required": ["query"]
        })
    }

    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
            concurrency_safe: true,
            ..ToolMetadata::DEFAULT
        }
    }

    fn call<'a>(&'a self, _: &'a ToolContext<Ctx>, args: Value) -> BoxFuture<'a, ToolResult> {
        // The schema was checked: `query` is a string.
        let query = args["query"].as_str().unwrap_or_default().to_owned();
        Box::pin(async move { self.search(&query) })
    }
}
