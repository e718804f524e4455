//! Tool search native to the provider (`Listing::search`): the search's
//! entry in each provider's documented shape, `defer_loading` on the tools
//! that wait to be found, the cache breakpoint, what each provider refuses,
//! and the documented responses of a search read and answered as the
//! documentation says (`tests/fixtures/providers/*tool_search*`, copied
//! from Anthropic's and OpenAI's tool search guides).

use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::provider::{Listing, Provider, Search};
use tool_core::search::SearchTool;
use tool_core::{BoxFuture, Tool, ToolContext, ToolMetadata, ToolRegistry, ToolResult, tool};

use crate::payloads::{calls_of, fixture, some};

const ANTHROPIC: Provider = Provider::Anthropic { strict: false };
const RESPONSES: Provider = Provider::OpenAiResponses { strict: false };

/// The guide's deferred tool, written by hand as its schema is: a tool
/// marked `defer` in its metadata.
struct DeferredWeather;

impl Tool for DeferredWeather {
    fn name(&self) -> &str {
        "get_weather"
    }
    fn description(&self) -> &str {
        "Get current weather for a location"
    }
    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "location": {"type": "string"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}
            },
            "required": ["location"]
        })
    }
    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            defer: true,
            ..ToolMetadata::DEFAULT
        }
    }
    fn call<'a>(&'a self, _: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            ToolResult::text(format!(
                "72°F and sunny in {} ({})",
                args["location"].as_str().unwrap_or_default(),
                args["unit"].as_str().unwrap_or("celsius")
            ))
        })
    }
}

/// Search the web.
#[tool(read_only)]
fn web_search(query: String) -> String {
    format!("results for {query}")
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(DeferredWeather).with(WebSearch)
}

fn names(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| {
            tool.get("name")
                .or_else(|| tool.get("type"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

#[test]
fn anthropic_gets_its_search_first_and_the_deferred_tool_as_the_guide_shows_it() {
    let registry = registry();
    let tools = ANTHROPIC
        .definitions_with(&registry, Listing::new().search(Search::Native))
        .expect("listed");
    let list = tools.as_json();
    assert_eq!(
        list[0],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
    // The deferred tool, word for word as the guide defines it.
    assert_eq!(list[1], fixture("anthropic-tool_search-deferred-tool.json"));
    assert_eq!(list[2]["name"], "web_search");
    assert!(list[2].get("defer_loading").is_none(), "shown up front");

    let regex = ANTHROPIC
        .definitions_with(&registry, Listing::new().search(Search::NativeRegex))
        .expect("listed");
    assert_eq!(
        regex.as_json()[0],
        json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"})
    );
}

#[test]
fn without_a_search_every_tool_is_shown() {
    let registry = registry();
    for provider in [ANTHROPIC, RESPONSES] {
        let plain = provider.definitions(&registry).expect("listed");
        assert!(
            !plain.as_json().to_string().contains("defer_loading"),
            "{provider}: {}",
            plain.as_json()
        );
        assert_eq!(names(plain.as_json()), ["get_weather", "web_search"]);
    }
}

#[test]
fn every_tool_may_wait_but_the_search_itself() {
    let registry = registry();
    let tools = ANTHROPIC
        .definitions_with(&registry, Listing::new().search(Search::Native).defer_all())
        .expect("listed");
    let list = tools.as_json().as_array().expect("a list");
    assert!(
        list[0].get("defer_loading").is_none(),
        "the search is shown"
    );
    assert!(
        list[1..]
            .iter()
            .all(|tool| tool["defer_loading"] == json!(true))
    );
}

#[test]
fn the_cache_breakpoint_goes_on_the_last_tool_shown_never_on_a_deferred_one() {
    let registry = registry();
    let searched = ANTHROPIC
        .definitions_with(&registry, Listing::new().search(Search::Native).cache())
        .expect("listed");
    let list = searched.as_json();
    assert_eq!(list[2]["cache_control"], json!({"type": "ephemeral"}));
    assert!(list[1].get("cache_control").is_none());

    let all_deferred = ANTHROPIC
        .definitions_with(
            &registry,
            Listing::new().search(Search::Native).defer_all().cache(),
        )
        .expect("listed");
    let list = all_deferred.as_json();
    assert_eq!(list[0]["cache_control"], json!({"type": "ephemeral"}));
    assert_eq!(
        list.to_string().matches("cache_control").count(),
        1,
        "one breakpoint"
    );

    // Without search, on the last tool; the other providers take none.
    let plain = ANTHROPIC
        .definitions_with(&registry, Listing::new().cache())
        .expect("listed");
    assert_eq!(
        plain.as_json()[1]["cache_control"],
        json!({"type": "ephemeral"})
    );
    let chat = Provider::OpenAiChat { strict: false }
        .definitions_with(&registry, Listing::new().cache())
        .expect("listed");
    assert!(!chat.as_json().to_string().contains("cache_control"));
}

#[test]
fn openai_responses_gets_its_hosted_search_last() {
    let registry = registry();
    let tools = RESPONSES
        .definitions_with(&registry, Listing::new().search(Search::Native))
        .expect("listed");
    let list = tools.as_json();
    assert_eq!(list[2], json!({"type": "tool_search"}));
    assert_eq!(list[0]["name"], "get_weather");
    assert_eq!(list[0]["defer_loading"], json!(true));
    assert!(list[1].get("defer_loading").is_none());
}

#[test]
fn a_native_search_is_the_only_search_the_model_is_offered() {
    // The registry also holds its own search tool, for the providers
    // without a search of their own.
    let tools = registry();
    let search = SearchTool::new(tools.tools());
    let registry = tools.with(search);
    let listed = |provider: Provider, search: Search| {
        let tools = provider
            .definitions_with(&registry, Listing::new().search(search))
            .expect("listed");
        names(tools.as_json())
    };
    for strict in [false, true] {
        let anthropic = Provider::Anthropic { strict };
        assert_eq!(
            listed(anthropic, Search::Native),
            ["tool_search_tool_bm25", "get_weather", "web_search"],
            "{anthropic}"
        );
        assert_eq!(
            listed(anthropic, Search::NativeRegex),
            ["tool_search_tool_regex", "get_weather", "web_search"],
            "{anthropic}"
        );
        let responses = Provider::OpenAiResponses { strict };
        assert_eq!(
            listed(responses, Search::Native),
            ["get_weather", "web_search", "tool_search"],
            "{responses}"
        );
    }
    // Where the registry's search is the one used, it stays.
    assert_eq!(
        listed(ANTHROPIC, Search::Client),
        ["get_weather", "web_search", "search_tools"]
    );
    assert_eq!(
        names(ANTHROPIC.definitions(&registry).expect("listed").as_json()),
        ["get_weather", "web_search", "search_tools"]
    );
}

#[test]
fn a_provider_without_the_search_asked_for_refuses_the_listing() {
    let registry = registry();
    let refused = |provider: Provider, search: Search| {
        provider
            .definitions_with(&registry, Listing::new().search(search))
            .expect_err("refused")
            .to_string()
    };
    assert_eq!(
        refused(RESPONSES, Search::NativeRegex),
        "the tools cannot be listed so for OpenAI Responses: its tool search takes no regular expressions; ask for `Search::Native`"
    );
    assert_eq!(
        refused(Provider::Gemini { openapi: false }, Search::Native),
        "the tools cannot be listed so for Gemini: Gemini has no tool search of its own; show the model the tools a request needs with a view (`registry.view`)"
    );
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::Groq,
        Provider::Ollama,
        Provider::Vllm { strict: false },
        Provider::Mcp,
    ] {
        assert!(
            refused(provider, Search::Native).contains("has no tool search of its own"),
            "{provider}"
        );
    }
}

/// Named as Anthropic's search is.
#[tool(name = "tool_search_tool_bm25")]
fn impostor() -> String {
    String::new()
}

#[test]
fn a_tool_named_as_the_search_is_refused() {
    let registry: ToolRegistry = ToolRegistry::new().with(Impostor);
    let refused = ANTHROPIC
        .definitions_with(&registry, Listing::new().search(Search::Native))
        .expect_err("refused");
    assert_eq!(
        refused.to_string(),
        "the tools cannot be listed so for Anthropic Messages: a tool is named `tool_search_tool_bm25`, as the tool search is"
    );
}

#[test]
fn each_listing_is_made_once_and_kept() {
    let registry = registry();
    let listing = Listing::new().search(Search::Native);
    let first = ANTHROPIC
        .definitions_with(&registry, listing)
        .expect("listed");
    let again = ANTHROPIC
        .definitions_with(&registry, listing)
        .expect("listed");
    assert!(Arc::ptr_eq(&first, &again));
    let plain = ANTHROPIC.definitions(&registry).expect("listed");
    assert!(!Arc::ptr_eq(&first, &plain));
    assert_eq!(plain, ANTHROPIC.definitions(&registry).expect("listed"));
}

#[tokio::test]
async fn a_searched_anthropic_turn_is_answered_for_its_tool_use_alone_and_echoed_whole() {
    let registry = registry();
    let response = fixture("anthropic-tool_search-response.json");
    // The search ran on Anthropic's servers: only the `tool_use` is ours.
    assert_eq!(
        calls_of(ANTHROPIC, &response),
        [(
            some("toolu_01XYZ789"),
            "get_weather".to_owned(),
            json!({"location": "San Francisco", "unit": "fahrenheit"})
        )]
    );
    let turn = ANTHROPIC
        .respond(&registry, &ToolContext::new(()), &response)
        .await
        .expect("answered");
    // The assistant's content goes back unchanged, search blocks and all.
    assert_eq!(
        turn.model_turn(),
        [json!({"role": "assistant", "content": response["content"]})]
    );
    // One `tool_result`, for the `tool_use`; none for the `srvtoolu_` id.
    let reply = turn.reply();
    assert_eq!(reply.len(), 1);
    let results = reply[0]["content"].as_array().expect("blocks");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["tool_use_id"], "toolu_01XYZ789");
    assert_eq!(
        results[0]["content"],
        "72°F and sunny in San Francisco (fahrenheit)"
    );
}

#[tokio::test]
async fn a_hosted_openai_search_is_echoed_and_its_loaded_call_answered() {
    let registry = registry();
    let output = fixture("openai-responses-tool_search-hosted-output.json");
    let response = json!({"output": output});
    assert_eq!(
        calls_of(RESPONSES, &response),
        [(
            some("call_abc123"),
            "list_open_orders".to_owned(),
            json!("{\"customer_id\":\"CUST-12345\"}")
        )]
    );
    let turn = RESPONSES
        .respond(&registry, &ToolContext::new(()), &response)
        .await
        .expect("answered");
    assert_eq!(
        turn.model_turn(),
        output.as_array().expect("items").as_slice()
    );
    // Not one of ours: the model is told so, in the call's own output.
    assert_eq!(turn.reply().len(), 1);
    assert_eq!(turn.reply()[0]["call_id"], "call_abc123");
    assert_eq!(turn.reply()[0]["type"], "function_call_output");
}

/// Look up an order.
#[tool(defer)]
fn lookup_order(id: String) -> String {
    id
}

#[test]
fn the_macro_marks_a_tool_to_wait() {
    let registry: ToolRegistry = ToolRegistry::new().with(LookupOrder).with(WebSearch);
    assert!(
        registry
            .info("lookup_order")
            .expect("registered")
            .metadata
            .defer
    );
    assert!(
        !registry
            .info("web_search")
            .expect("registered")
            .metadata
            .defer
    );
}
