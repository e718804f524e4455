//! How a request lists its tools beyond their definitions: the tool search
//! the model gets, the tools that wait for it to find them, and where the
//! prompt cache breaks.

use crate::toolset::auto_defer::AutoDefer;
pub(crate) use crate::toolset::auto_defer::SEARCH_TOOL;

/// A tool search that runs on the provider's servers: the model searches
/// the tools that wait to be found ([`ToolMetadata::defer`]) and the
/// provider loads those it finds.
///
/// With [`Search::Native`] or [`Search::NativeRegex`], a registry's own
/// search tool (`search_tools`, kept for the providers without a search)
/// is left out of the listing, so that the model is offered one search.
///
/// [`ToolMetadata::defer`]: crate::ToolMetadata::defer
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Search {
    /// The provider's own: for Anthropic, BM25 over the tools' names,
    /// descriptions and arguments (`tool_search_tool_bm25_20251119`, the
    /// model searches in natural language); for OpenAI Responses, its
    /// hosted `tool_search` (gpt-5.4 and later).
    Native,
    /// Anthropic's search by regular expression
    /// (`tool_search_tool_regex_20251119`: the model writes Python
    /// `re.search` patterns).
    NativeRegex,
    /// The registry's own search tool, `search_tools`, run here
    /// (`tool_core::search::SearchTool`, feature `search`), which answers
    /// with the tools it found ([`Part::Tool`](crate::output::Part::Tool)) and is
    /// never deferred. Anthropic loads the found tools from their
    /// `defer_loading` definitions through the `tool_reference` blocks they
    /// become; OpenAI Responses gets the search as its client-executed
    /// `tool_search` and the found tools' definitions in a
    /// `tool_search_output`. The other providers have no deferred
    /// definitions to load: list the tools shown up front and those found
    /// instead, with a view (`Select::all().up_front().names(turn.found())`).
    Client,
}

/// How a request lists its tools: the definitions of
/// [`Provider::definitions`](crate::provider::Provider::definitions), and, asked for here, a tool search for the
/// tools that wait to be found and a prompt cache breakpoint after the
/// tools shown up front. [`Provider::definitions_with`](crate::provider::Provider::definitions_with) makes the list.
///
/// A tool waits to be found when the listing has a search and the tool is
/// [`defer`](crate::ToolMetadata::defer)red (`#[tool(defer)]`), or every
/// tool does ([`Listing::defer_all`]), or the catalog is large and the
/// listing defers on its own ([`Listing::auto_defer`]); without a search,
/// every tool is shown. The search's own entry is never deferred, so a
/// request always shows at least one tool, as the providers require.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::{Listing, Provider, Search};
/// use tool_core::{tool, ToolRegistry};
///
/// /// Get the weather for a city.
/// #[tool(defer)]
/// fn get_weather(
///     /// The city.
///     city: String,
/// ) -> String {
///     format!("sunny in {city}")
/// }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(GetWeather);
/// let listing = Listing::new().search(Search::Native);
/// let tools = Provider::Anthropic { strict: false }
///     .definitions_with(&registry, listing)
///     .unwrap();
/// assert_eq!(
///     tools.as_json()[0],
///     json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
/// );
/// assert_eq!(tools.as_json()[1]["defer_loading"], json!(true));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Listing {
    search: Option<Search>,
    defer_all: bool,
    cache: bool,
    auto: Option<AutoDefer<'static>>,
}

impl Listing {
    /// Every tool shown, no search, no breakpoint: what
    /// [`Provider::definitions`](crate::provider::Provider::definitions) lists.
    pub const fn new() -> Self {
        Self {
            search: None,
            defer_all: false,
            cache: false,
            auto: None,
        }
    }

    /// Gives the model the provider's tool search; the
    /// [`defer`](crate::ToolMetadata::defer)red tools wait for it to find
    /// them. A provider without a search of its own refuses the listing.
    #[must_use]
    pub const fn search(mut self, search: Search) -> Self {
        self.search = Some(search);
        self
    }

    /// Every tool waits to be found, not only the deferred ones (with a
    /// search; without one, every tool is shown).
    #[must_use]
    pub const fn defer_all(mut self) -> Self {
        self.defer_all = true;
        self
    }

    /// Defers tools without marking each, once the catalog is large: past
    /// 30 tools or 10,000 tokens of definitions ([`AutoDefer::new`]),
    /// every tool but the search and five kept waits to be found (with a
    /// search; without one, every tool is shown). [`AutoDefer`] says the
    /// rule, and sets its thresholds and the tools kept.
    ///
    /// Asked for, not on by default: an application that lists more than
    /// 30 tools beside a search today chose which wait
    /// ([`defer`](crate::ToolMetadata::defer)), and its requests do not
    /// change unless it asks. A catalog that is not large is listed as
    /// without it.
    ///
    /// Its names are `'static`, so that a listing stays a plain `Copy`
    /// value: names known when the program is written, or read once at
    /// start and leaked (`Box::leak`). A view's rule
    /// ([`Select::auto_defer`](crate::toolset::Select::auto_defer)) takes
    /// names of any lifetime.
    ///
    /// The registry keeps the definitions of one automatic deferral per
    /// provider and search, as it keeps a listing's; a listing whose rule
    /// differs from the one kept (other names, other thresholds) is made
    /// anew each time.
    ///
    /// ```
    /// use tool_core::provider::{Listing, Provider, Search};
    /// use tool_core::toolset::AutoDefer;
    /// use tool_core::{tool, ToolRegistry};
    ///
    /// /// Add two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// /// Subtract `b` from `a`.
    /// #[tool]
    /// fn sub(a: i64, b: i64) -> i64 { a - b }
    ///
    /// /// Get the weather for a city.
    /// #[tool]
    /// fn get_weather(city: String) -> String { format!("sunny in {city}") }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(Add).with(Sub).with(GetWeather);
    /// // Past two tools (30 unless set), one kept: the one named.
    /// let auto = AutoDefer::new().past_tools(2).keep(1).named(&["get_weather"]);
    /// let listing = Listing::new().search(Search::Native).auto_defer(auto);
    /// let tools = Provider::Anthropic { strict: false }
    ///     .definitions_with(&registry, listing)
    ///     .unwrap();
    /// let (waiting, shown): (Vec<_>, Vec<_>) = tools
    ///     .as_json()
    ///     .as_array()
    ///     .unwrap()
    ///     .iter()
    ///     .partition(|tool| tool.get("defer_loading").is_some());
    /// assert_eq!(shown[0]["name"], "tool_search_tool_bm25");
    /// assert_eq!(shown[1]["name"], "get_weather");
    /// assert_eq!(shown.len(), 2);
    /// assert_eq!(waiting.len(), 2, "add and sub");
    /// ```
    #[must_use]
    pub const fn auto_defer(mut self, auto: AutoDefer<'static>) -> Self {
        self.auto = Some(auto);
        self
    }

    /// A prompt cache breakpoint after the last tool shown up front
    /// (Anthropic's `cache_control: {"type": "ephemeral"}`; a deferred
    /// tool cannot carry one). The other providers cache a request's
    /// unchanged prefix on their own and take no breakpoint: for them this
    /// changes nothing.
    #[must_use]
    pub const fn cache(mut self) -> Self {
        self.cache = true;
        self
    }

    /// This listing in a byte, to tell its cached definitions apart.
    pub(crate) const fn key(self) -> u8 {
        let search = match self.search {
            None => 0,
            Some(Search::Native) => 1,
            Some(Search::NativeRegex) => 2,
            Some(Search::Client) => 3,
        };
        search
            | (self.defer_all as u8) << 2
            | (self.cache as u8) << 3
            | (self.auto.is_some() as u8) << 4
    }

    /// The automatic deferral asked for, if any, with a search (without
    /// one, nothing waits).
    pub(crate) const fn auto_asked(self) -> Option<AutoDefer<'static>> {
        match self.search {
            Some(_) if !self.defer_all => self.auto,
            _ => None,
        }
    }

    /// Whether a tool so marked waits to be found.
    pub(crate) const fn defers(self, deferred: bool) -> bool {
        self.search.is_some() && (deferred || self.defer_all)
    }

    /// The search asked for, if any.
    pub(crate) const fn search_asked(self) -> Option<Search> {
        self.search
    }

    /// Whether a prompt cache breakpoint was asked for.
    pub(crate) const fn cache_asked(self) -> bool {
        self.cache
    }
}
