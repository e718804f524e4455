//! The built-in search tool in whole turns: Anthropic's client-side search
//! (`tool_reference` blocks in a `tool_result`, the found tools loaded
//! from their `defer_loading` definitions, as Anthropic's tool search guide
//! shows), and, for a provider without a search of its own, a view of the
//! tools up front and those found, turn by turn.

use serde_json::{Value, json};
use tool_core::provider::{Listing, Provider, Search};
use tool_core::search::SearchTool;
use tool_core::toolset::{Compose, Select};
use tool_core::{ToolContext, ToolRegistry, tool};

/// Open an issue in a repository's tracker.
#[tool(defer)]
fn create_issue(
    /// The repository, `owner/name`.
    repo: String,
    /// What the issue is about.
    title: String,
) -> String {
    format!("opened `{title}` in {repo}")
}

/// Get the current weather for a city.
#[tool(defer)]
fn get_weather(
    /// The city.
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// Say hello.
#[tool]
fn hello() -> String {
    "hello".into()
}

fn registry() -> ToolRegistry {
    let tools: ToolRegistry = ToolRegistry::new()
        .with(CreateIssue)
        .with(GetWeather)
        .with(Hello);
    let search = SearchTool::new(tools.tools());
    tools.with(search)
}

fn names(tools: &Value) -> Vec<&str> {
    tools
        .as_array()
        .expect("a list")
        .iter()
        .map(|tool| {
            tool.get("name")
                .or_else(|| tool.pointer("/function/name"))
                .and_then(Value::as_str)
                .expect("a name")
        })
        .collect()
}

#[tokio::test]
async fn anthropic_loads_what_the_search_found_through_tool_references() {
    let registry = registry();
    let anthropic = Provider::Anthropic { strict: false };
    let tools = anthropic
        .definitions_with(&registry, Listing::new().search(Search::Client))
        .expect("listed");
    let list = tools.as_json().as_array().expect("a list");
    // Every tool sent; those that wait deferred; the search shown.
    assert_eq!(
        names(tools.as_json()),
        ["create_issue", "get_weather", "hello", "search_tools"]
    );
    let deferred: Vec<bool> = list
        .iter()
        .map(|tool| tool.get("defer_loading") == Some(&json!(true)))
        .collect();
    assert_eq!(deferred, [true, true, false, false]);

    let ctx = ToolContext::new(());
    let searched = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "search_tools", "input": {"query": "open a bug report in a repo"}}
    ]});
    let turn = anthropic
        .respond(&registry, &ctx, &searched)
        .await
        .expect("answered");
    assert_eq!(turn.found(), ["create_issue"]);
    // The guide's shape: a `tool_result` of `tool_reference` blocks.
    assert_eq!(
        turn.reply(),
        [json!({"role": "user", "content": [{
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [{"type": "tool_reference", "tool_name": "create_issue"}]
        }]})]
    );
    // The API loads the tool; the model calls it, and it runs.
    let called = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_2", "name": "create_issue", "input": {"repo": "acme/web", "title": "Crash"}}
    ]});
    let turn = anthropic
        .respond(&registry, &ctx, &called)
        .await
        .expect("answered");
    assert_eq!(turn.results()[0].model_text(), "opened `Crash` in acme/web");
}

#[tokio::test]
async fn without_a_search_of_its_own_a_provider_is_shown_what_was_found_from_the_next_turn() {
    let registry = registry();
    let ctx = ToolContext::new(());
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::Gemini { openapi: false },
        Provider::Groq,
    ] {
        let mut found: Vec<String> = Vec::new();
        let first = registry.view(Select::all().up_front().names(found.clone()));
        let shown = provider.definitions(&first).expect("listed");
        let shown = match provider {
            Provider::Gemini { .. } => shown.as_json()[0]["functionDeclarations"].clone(),
            _ => shown.as_json().clone(),
        };
        assert_eq!(names(&shown), ["hello", "search_tools"], "{provider}");

        let response = match provider {
            Provider::Gemini { .. } => {
                json!({"candidates": [{"content": {"role": "model", "parts": [
                    {"functionCall": {"name": "search_tools", "args": {"query": "weather in a city"}}}
                ]}}]})
            }
            _ => {
                json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{
                    "id": "call_1", "type": "function",
                    "function": {"name": "search_tools", "arguments": "{\"query\": \"weather in a city\"}"}
                }]}}]})
            }
        };
        let turn = provider
            .respond_in(&first, &ctx, &response)
            .await
            .expect("answered");
        assert_eq!(turn.found(), ["get_weather"], "{provider}");
        // The model reads what it found, as text.
        let reply = serde_json::to_string(turn.reply()).expect("JSON");
        assert!(
            reply.contains("`get_weather`: Get the current weather for a city."),
            "{provider}: {reply}"
        );
        found.extend(turn.found().into_iter().map(str::to_owned));

        let next = registry.view(Select::all().up_front().names(found.clone()));
        assert_eq!(
            next.names().collect::<Vec<_>>(),
            ["get_weather", "hello", "search_tools"],
            "{provider}"
        );
    }
}

#[test]
fn a_search_that_finds_nothing_says_so() {
    let registry = registry();
    let search = SearchTool::new(registry.tools());
    assert_eq!(
        search.search("zzz qqq").model_text(),
        "No tool fits `zzz qqq`; search again with other words."
    );
    let limited = SearchTool::new(registry.tools()).limit(1);
    assert_eq!(
        limited.search("weather issue").as_parts().map(<[_]>::len),
        Some(1)
    );
}

#[test]
fn a_client_search_keeps_the_search_shown_and_needs_it() {
    let registry = registry();
    // Every tool waits, but the search: the API's rule that one is shown.
    let all = Provider::Anthropic { strict: false }
        .definitions_with(&registry, Listing::new().search(Search::Client).defer_all())
        .expect("listed");
    let shown: Vec<&str> = all
        .as_json()
        .as_array()
        .expect("a list")
        .iter()
        .filter(|tool| tool.get("defer_loading").is_none())
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(shown, ["search_tools"]);

    let without: ToolRegistry = ToolRegistry::new().with(CreateIssue);
    let refused = Provider::Anthropic { strict: false }
        .definitions_with(&without, Listing::new().search(Search::Client))
        .expect_err("refused");
    assert_eq!(
        refused.to_string(),
        "the tools cannot be listed so for Anthropic Messages: `Search::Client` needs the registry's own search tool, `search_tools` (`tool_core::search::SearchTool`)"
    );
    let chat = Provider::OpenAiChat { strict: false }
        .definitions_with(&registry, Listing::new().search(Search::Client))
        .expect_err("refused");
    assert_eq!(
        chat.to_string(),
        "the tools cannot be listed so for OpenAI Chat Completions: OpenAI Chat Completions loads no deferred tools: list those shown up front and those a search found with a view (`Select::all().up_front().names(turn.found())`)"
    );
}

#[tokio::test]
async fn openai_responses_searches_client_side_as_its_guide_shows() {
    let registry = registry();
    let responses = Provider::OpenAiResponses { strict: false };
    let tools = responses
        .definitions_with(&registry, Listing::new().search(Search::Client))
        .expect("listed");
    let list = tools.as_json().as_array().expect("a list");
    // The search tool is the client-executed `tool_search`, last.
    let search = list.last().expect("the search");
    assert_eq!(search["type"], "tool_search");
    assert_eq!(search["execution"], "client");
    assert_eq!(search["parameters"]["required"], json!(["query"]));
    assert!(!list.iter().any(|tool| tool["name"] == "search_tools"));
    assert_eq!(list[0]["name"], "create_issue");
    assert_eq!(list[0]["defer_loading"], json!(true));

    // The guide's client search call, with the search's own parameters.
    let output = json!([{
        "type": "tool_search_call",
        "execution": "client",
        "call_id": "call_abc123",
        "status": "completed",
        "arguments": {"query": "weather in a city"}
    }]);
    let turn = responses
        .respond(&registry, &ToolContext::new(()), &json!({"output": output}))
        .await
        .expect("answered");
    assert_eq!(turn.found(), ["get_weather"]);
    assert_eq!(
        turn.model_turn(),
        output.as_array().expect("items").as_slice()
    );
    assert_eq!(
        turn.reply(),
        [json!({
            "type": "tool_search_output",
            "execution": "client",
            "call_id": "call_abc123",
            "status": "completed",
            "tools": [{
                "type": "function",
                "name": "get_weather",
                "description": "Get the current weather for a city.",
                "parameters": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {"city": {"type": "string", "description": "The city."}},
                    "required": ["city"]
                },
                "strict": false,
                "defer_loading": true
            }]
        })]
    );
}

#[test]
fn a_composed_set_waits_to_be_found_whole() {
    let tools: ToolRegistry = ToolRegistry::new().with(Hello);
    let composed = Compose::new()
        .prefix("x_")
        .defer()
        .apply(tools)
        .expect("composed");
    assert!(composed.info("x_hello").expect("there").metadata.defer);
    let shown = composed.view(Select::all().up_front());
    assert!(shown.is_empty(), "nothing up front");
}
