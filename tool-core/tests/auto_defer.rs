//! Tools deferred without marking each (`Listing::auto_defer`,
//! `Select::auto_defer`): in each provider's shape, which tools a request
//! shows, which wait to be found and where the search is, just under and
//! just past the thresholds.

use serde_json::{Value, json};
use tool_core::provider::{Listing, Provider, Search};
use tool_core::search::SearchTool;
use tool_core::toolset::{AutoDefer, Select};
use tool_core::{BoxFuture, Tool, ToolContext, ToolMetadata, ToolRegistry, ToolResult};

/// A tool of the catalog: `tool_NN`, the fourth (`tool_03`) marked
/// `defer`.
struct Numbered {
    name: String,
    description: String,
}

impl Tool for Numbered {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]})
    }
    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            defer: self.name == "tool_03",
            ..ToolMetadata::DEFAULT
        }
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("done") })
    }
}

/// `size` tools, each described in `words` words, then the search tool.
fn catalog(size: usize, words: usize) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    for at in 0..size {
        tools = tools.with(Numbered {
            name: format!("tool_{at:02}"),
            description: vec!["word"; words].join(" "),
        });
    }
    let search = SearchTool::new(tools.tools());
    tools.with(search)
}

fn tools(range: impl IntoIterator<Item = usize>) -> Vec<String> {
    range
        .into_iter()
        .map(|at| format!("tool_{at:02}"))
        .collect()
}

/// The names of the tools shown up front and of those that wait (an entry
/// without a name is named by its type, as the providers' searches are).
fn split(tools: &Value) -> (Vec<String>, Vec<String>) {
    let (mut shown, mut waiting) = (Vec::new(), Vec::new());
    for tool in tools.as_array().expect("a list") {
        let name = tool
            .get("name")
            .or_else(|| tool.get("type"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        match tool.get("defer_loading") {
            Some(_) => waiting.push(name),
            None => shown.push(name),
        }
    }
    (shown, waiting)
}

fn listed(provider: Provider, registry: &ToolRegistry, listing: Listing) -> Value {
    provider
        .definitions_with(registry, listing)
        .expect("listed")
        .as_json()
        .clone()
}

const ANTHROPIC: Provider = Provider::Anthropic { strict: false };
const RESPONSES: Provider = Provider::OpenAiResponses { strict: false };

fn auto(search: Search) -> Listing {
    Listing::new().search(search).auto_defer(AutoDefer::new())
}

/// The tools past 5 kept, and `tool_03`, marked.
fn waiting_past(size: usize) -> Vec<String> {
    tools(std::iter::once(3).chain(6..size))
}

#[test]
fn anthropic_past_30_tools_shows_its_search_and_five() {
    let registry = catalog(31, 5);
    let (shown, waiting) = split(&listed(ANTHROPIC, &registry, auto(Search::Native)));
    let mut expected = vec!["tool_search_tool_bm25".to_owned()];
    expected.extend(tools([0, 1, 2, 4, 5]));
    assert_eq!(shown, expected);
    assert_eq!(waiting, waiting_past(31));

    let (shown, waiting) = split(&listed(ANTHROPIC, &registry, auto(Search::NativeRegex)));
    assert_eq!(shown[0], "tool_search_tool_regex");
    assert_eq!(shown.len(), 6);
    assert_eq!(waiting, waiting_past(31));

    // Client-side: the registry's own search, last, kept shown.
    let (shown, waiting) = split(&listed(ANTHROPIC, &registry, auto(Search::Client)));
    let mut expected = tools([0, 1, 2, 4, 5]);
    expected.push("search_tools".to_owned());
    assert_eq!(shown, expected);
    assert_eq!(waiting, waiting_past(31));
}

#[test]
fn openai_responses_past_30_tools_shows_five_and_its_search() {
    let registry = catalog(31, 5);
    for search in [Search::Native, Search::Client] {
        let tools_json = listed(RESPONSES, &registry, auto(search));
        let (shown, waiting) = split(&tools_json);
        let mut expected = tools([0, 1, 2, 4, 5]);
        expected.push("tool_search".to_owned());
        assert_eq!(shown, expected, "{search:?}");
        assert_eq!(waiting, waiting_past(31), "{search:?}");
        let last = tools_json.as_array().and_then(|list| list.last()).cloned();
        let execution = last.as_ref().and_then(|entry| entry.get("execution"));
        match search {
            Search::Client => assert_eq!(execution, Some(&json!("client"))),
            _ => assert_eq!(last, Some(json!({"type": "tool_search"}))),
        }
    }
}

#[test]
fn at_30_tools_only_the_marked_tool_waits() {
    let registry = catalog(30, 5);
    for (provider, search) in [
        (ANTHROPIC, Search::Native),
        (ANTHROPIC, Search::Client),
        (RESPONSES, Search::Native),
        (RESPONSES, Search::Client),
    ] {
        let (shown, waiting) = split(&listed(provider, &registry, auto(search)));
        assert_eq!(waiting, tools([3]), "{provider} {search:?}");
        assert_eq!(
            shown.len(),
            30,
            "29 tools and the search: {provider} {search:?}"
        );
    }
}

#[test]
fn without_being_asked_a_large_catalog_is_listed_as_marked() {
    let registry = catalog(40, 5);
    let (shown, waiting) = split(&listed(
        ANTHROPIC,
        &registry,
        Listing::new().search(Search::Native),
    ));
    assert_eq!(waiting, tools([3]));
    assert_eq!(shown.len(), 40);
    // Without a search, nothing waits.
    let every = listed(
        ANTHROPIC,
        &registry,
        Listing::new().auto_defer(AutoDefer::new()),
    );
    assert_eq!(split(&every).0.len(), 41);
}

#[test]
fn the_tools_named_are_kept_first_and_each_rule_is_listed_as_its_own() {
    let registry = catalog(40, 5);
    let named = AutoDefer::new()
        .keep(3)
        .named(&["tool_20", "tool_03", "no_such_tool"]);
    let listing = Listing::new().search(Search::Native).auto_defer(named);
    let (shown, _) = split(&listed(ANTHROPIC, &registry, listing));
    assert_eq!(
        shown,
        ["tool_search_tool_bm25", "tool_00", "tool_03", "tool_20"]
    );
    // Another rule on the same registry is not given the first's list.
    let (shown, _) = split(&listed(ANTHROPIC, &registry, auto(Search::Native)));
    assert_eq!(shown.len(), 6);
    let (shown, _) = split(&listed(ANTHROPIC, &registry, listing));
    assert_eq!(shown.len(), 4);
}

#[test]
fn a_few_long_definitions_past_the_tokens_are_deferred() {
    // Ten tools of 5,000 words: far past 10,000 tokens in ten tools.
    let registry = catalog(10, 5_000);
    let (shown, waiting) = split(&listed(ANTHROPIC, &registry, auto(Search::Native)));
    assert_eq!(shown.len(), 6);
    assert_eq!(waiting, waiting_past(10));
    let roomy = Listing::new()
        .search(Search::Native)
        .auto_defer(AutoDefer::new().past_tokens(1_000_000));
    assert_eq!(split(&listed(ANTHROPIC, &registry, roomy)).1, tools([3]));
}

#[test]
fn a_provider_without_a_search_is_shown_the_same_tools_through_a_view() {
    let expected_past = {
        let mut names = tools([0, 1, 2, 4, 5]);
        names.push("search_tools".to_owned());
        names
    };
    for (size, expected) in [
        (31, expected_past),
        (30, {
            let mut names = tools((0..30).filter(|at| *at != 3));
            names.push("search_tools".to_owned());
            names
        }),
    ] {
        let registry = catalog(size, 5);
        let view = registry.view(Select::all().up_front().auto_defer(AutoDefer::new()));
        assert_eq!(view.names().collect::<Vec<_>>(), expected, "{size} tools");
        for provider in [Provider::OpenAiChat { strict: true }, Provider::Ollama] {
            let listed = provider.definitions(&view).expect("listed");
            let names: Vec<&str> = listed
                .as_json()
                .as_array()
                .expect("a list")
                .iter()
                .filter_map(|tool| tool["function"]["name"].as_str())
                .collect();
            assert_eq!(names, expected, "{provider}, {size} tools");
        }
        let gemini = Provider::Gemini { openapi: false }
            .definitions(&view)
            .expect("listed");
        let names: Vec<&str> = gemini.as_json()[0]["functionDeclarations"]
            .as_array()
            .expect("declarations")
            .iter()
            .filter_map(|tool| tool["name"].as_str())
            .collect();
        assert_eq!(names, expected, "Gemini, {size} tools");
    }
    // What a search found is shown beside them, as without the rule.
    let registry = catalog(31, 5);
    let next = registry.view(
        Select::all()
            .up_front()
            .auto_defer(AutoDefer::new())
            .names(["tool_17"]),
    );
    assert!(next.contains("tool_17"));
    assert_eq!(next.len(), 7);
}
