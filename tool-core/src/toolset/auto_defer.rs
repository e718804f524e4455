//! Tools deferred without marking each: past a number of tools or a size,
//! a request with a search shows the model a few and lets it find the rest.

/// The name of the registry's own search tool (`SearchTool`, feature
/// `search`), which OpenAI Responses' client-executed search stands in for,
/// and which the rule never defers.
pub(crate) const SEARCH_TOOL: &str = "search_tools";

/// Bytes of compact JSON a token stands for, in the size a catalog is
/// weighed at ([`AutoDefer::past_tokens`]): `o200k_base` reads the
/// labelled catalog's definitions at 4.4 to 4.6 bytes a token
/// (BENCHMARKS.md, "Deferred without being asked"), so the estimate errs
/// about a tenth high, toward deferring; and a weight that needs no
/// tokenizer is the same in every build.
pub const BYTES_PER_TOKEN: usize = 4;

/// When a request with a tool search defers the tools it was not told to
/// ([`Listing::auto_defer`](crate::provider::Listing::auto_defer),
/// [`Select::auto_defer`](crate::toolset::Select::auto_defer), tool-mcp's
/// `McpConfig::with_auto_defer`), and which it keeps shown.
///
/// The rule, the same for every provider and every request:
///
/// 1. The catalog is every tool listed but the search itself: it is
///    *large* when it holds more than [`past_tools`](AutoDefer::past_tools)
///    tools (30 unless set, where clients start deferring), or its
///    definitions weigh more than [`past_tokens`](AutoDefer::past_tokens)
///    tokens (10,000 unless set), weighed as their name, description and
///    input schema in compact JSON, [`BYTES_PER_TOKEN`] bytes a token.
/// 2. A catalog that is not large is listed as it was: only the tools
///    marked [`defer`](crate::ToolMetadata::defer) wait.
/// 3. In a large one, every tool waits to be found but the search and
///    the tools kept: those [`named`](AutoDefer::named) (marked `defer` or
///    not), then the first tools in the registry's order not marked
///    `defer`, until [`keep`](AutoDefer::keep) tools are kept (5 unless
///    set, as Anthropic's guide advises keeping the three to five used
///    most).
///
/// The registry counts no calls: a count in one process is lost when it
/// stops and differs from one replica to the next, and a list that moves
/// as the counts do would change each request's prefix and spoil the
/// provider's prompt cache. An application that knows which tools are used
/// most (from its own logs, say) names them, most used first; otherwise
/// the tools it registered first are kept, so register your own before
/// the servers you mount.
///
/// ```
/// use tool_core::toolset::AutoDefer;
///
/// // Past 50 tools, `get_weather` and the first two others stay shown.
/// let auto = AutoDefer::new().past_tools(50).keep(3).named(&["get_weather"]);
/// assert_ne!(auto, AutoDefer::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AutoDefer<'a> {
    past_tools: usize,
    past_tokens: usize,
    keep: usize,
    named: &'a [&'a str],
}

impl Default for AutoDefer<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> AutoDefer<'a> {
    /// Past 30 tools or 10,000 tokens, every tool but the first five not
    /// marked `defer` waits to be found.
    pub const fn new() -> Self {
        Self {
            past_tools: 30,
            past_tokens: 10_000,
            keep: 5,
            named: &[],
        }
    }

    /// A catalog of more than `tools` tools (the search not counted) is
    /// large.
    #[must_use]
    pub const fn past_tools(mut self, tools: usize) -> Self {
        self.past_tools = tools;
        self
    }

    /// A catalog whose definitions weigh more than `tokens` tokens
    /// (estimated at [`BYTES_PER_TOKEN`] bytes a token) is large.
    #[must_use]
    pub const fn past_tokens(mut self, tokens: usize) -> Self {
        self.past_tokens = tokens;
        self
    }

    /// In a large catalog, `tools` tools are kept shown (more when more
    /// are [`named`](AutoDefer::named)).
    #[must_use]
    pub const fn keep(mut self, tools: usize) -> Self {
        self.keep = tools;
        self
    }

    /// These tools are kept shown in a large catalog, before any other (a
    /// name that is no tool's is skipped): the ones the application knows
    /// are used most, say.
    #[must_use]
    pub const fn named(mut self, names: &'a [&'a str]) -> Self {
        self.named = names;
        self
    }

    /// Which of `tools` wait to be found, one flag each, in their order:
    /// the rule of [`AutoDefer`]. `search` is the name of the search tool,
    /// which never waits and is not counted.
    pub(crate) fn waiting(&self, tools: &[Weighed<'_>], search: &str) -> Vec<bool> {
        let catalog = || tools.iter().filter(|tool| tool.name != search);
        let bytes: usize = catalog().map(|tool| tool.bytes).sum();
        let large =
            catalog().count() > self.past_tools || bytes / BYTES_PER_TOKEN > self.past_tokens;
        if !large {
            return tools
                .iter()
                .map(|tool| tool.marked && tool.name != search)
                .collect();
        }
        let mut kept = vec![false; tools.len()];
        let mut count = 0;
        for name in self.named {
            if let Some(at) = tools.iter().position(|tool| tool.name == *name)
                && !kept[at]
                && tools[at].name != search
            {
                kept[at] = true;
                count += 1;
            }
        }
        for (at, tool) in tools.iter().enumerate() {
            if count >= self.keep {
                break;
            }
            if !kept[at] && !tool.marked && tool.name != search {
                kept[at] = true;
                count += 1;
            }
        }
        tools
            .iter()
            .zip(kept)
            .map(|(tool, kept)| tool.name != search && !kept)
            .collect()
    }
}

/// An [`AutoDefer`] that owns its names: what definitions made with one
/// keep, to be told apart from those another would make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AutoKey {
    past_tools: usize,
    past_tokens: usize,
    keep: usize,
    named: Vec<String>,
}

impl AutoDefer<'_> {
    /// This rule with its names owned.
    pub(crate) fn key(&self) -> AutoKey {
        AutoKey {
            past_tools: self.past_tools,
            past_tokens: self.past_tokens,
            keep: self.keep,
            named: self.named.iter().map(|name| (*name).to_owned()).collect(),
        }
    }

    /// Whether `key` is this rule.
    pub(crate) fn is(&self, key: &AutoKey) -> bool {
        self.past_tools == key.past_tools
            && self.past_tokens == key.past_tokens
            && self.keep == key.keep
            && self.named.iter().eq(key.named.iter())
    }
}

/// One tool as [`AutoDefer`] reads it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weighed<'t> {
    /// Its name.
    pub(crate) name: &'t str,
    /// Whether it is marked [`defer`](crate::ToolMetadata::defer).
    pub(crate) marked: bool,
    /// Its name, description and input schema in compact JSON, in bytes.
    pub(crate) bytes: usize,
}

impl<'t> Weighed<'t> {
    /// A tool's name, mark and weight.
    pub(crate) fn of(tool: &crate::tool::ToolInfo<'t>) -> Self {
        Self {
            name: &tool.definition.name,
            marked: tool.metadata.defer,
            bytes: bytes_of(tool.definition),
        }
    }
}

/// The bytes of a tool's definition (name, description, input schema) in
/// compact JSON, counted as written rather than kept.
pub(crate) fn bytes_of(definition: &crate::tool::ToolDefinition) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a count cannot fail, nor can a definition's JSON.
    let _ = serde_json::to_writer(&mut count, definition);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(size: usize) -> Vec<(String, bool)> {
        (0..size)
            .map(|at| (format!("tool_{at}"), at == 1))
            .collect()
    }

    fn waiting(auto: AutoDefer<'_>, tools: &[(String, bool)]) -> Vec<String> {
        let weighed: Vec<Weighed<'_>> = tools
            .iter()
            .map(|(name, marked)| Weighed {
                name,
                marked: *marked,
                bytes: 100,
            })
            .collect();
        auto.waiting(&weighed, "tool_0")
            .into_iter()
            .zip(tools)
            .filter(|(waits, _)| *waits)
            .map(|(_, (name, _))| name.clone())
            .collect()
    }

    #[test]
    fn a_small_catalog_waits_as_marked() {
        // 30 tools besides the search: not past 30.
        assert_eq!(waiting(AutoDefer::new(), &catalog(31)), ["tool_1"]);
    }

    #[test]
    fn a_large_catalog_keeps_the_first_not_marked_and_the_search() {
        let waits = waiting(AutoDefer::new(), &catalog(32));
        // tool_0 is the search; tool_1 is marked; 2..=6 are kept.
        let expected: Vec<String> = std::iter::once(1)
            .chain(7..32)
            .map(|at| format!("tool_{at}"))
            .collect();
        assert_eq!(waits, expected);
    }

    #[test]
    fn named_tools_are_kept_first_even_when_marked() {
        let auto = AutoDefer::new()
            .keep(2)
            .named(&["tool_9", "tool_1", "nothing"]);
        let waits = waiting(auto, &catalog(40));
        assert!(!waits.contains(&"tool_9".to_owned()));
        assert!(!waits.contains(&"tool_1".to_owned()));
        assert!(
            waits.contains(&"tool_2".to_owned()),
            "two named fill `keep`"
        );
        assert_eq!(waits.len(), 40 - 3);
    }

    #[test]
    fn a_catalog_past_its_tokens_is_large() {
        // 9 tools of 100 bytes besides the search: 225 tokens.
        let auto = AutoDefer::new().past_tokens(200).keep(1);
        assert_eq!(waiting(auto, &catalog(10)).len(), 8);
        assert_eq!(waiting(auto.past_tokens(250), &catalog(10)), ["tool_1"]);
    }
}
