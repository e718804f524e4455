//! The agent example's loop with `--search` (`examples/agent/`): every
//! provider's loop searches first, then calls what it found, then answers;
//! a request that shows the tools before the search found them is refused.

#[path = "../examples/agent/main.rs"]
#[allow(dead_code)]
mod agent;

use agent::{Api, Endpoint, QUESTION, run_searching, scripted};

const ANSWER: &str = "In Paris it is 21.5 °C, sunny with a light breeze. \
     100 EUR is 108.00 USD; converting 5000 EUR needs a person to approve it first.";
const WEATHER: &str =
    r#"{"city":"Paris","temperature":21.5,"summary":"sunny with a light breeze"}"#;

/// With `--search`, every provider's loop searches first (the scripted
/// model refuses a request that shows the tools before they are found, or,
/// for Anthropic, does not defer them), then calls what it found, then
/// answers: three requests.
#[tokio::test]
async fn each_providers_loop_searches_first_then_calls_what_it_found() {
    for api in [Api::OpenAi, Api::Anthropic, Api::Gemini] {
        let base_url = scripted::serve(api).await.expect("a loopback port");
        let transcript = run_searching(&Endpoint::local(api, base_url), QUESTION)
            .await
            .unwrap_or_else(|error| panic!("{api}: {error}"));
        let names: Vec<&str> = transcript
            .steps
            .iter()
            .map(|step| step.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "search_tools",
                "get_weather",
                "convert_currency",
                "convert_currency"
            ],
            "{api}"
        );
        let found = &transcript.steps[0].result;
        for tool in ["`get_weather`", "`web_search`", "`convert_currency`"] {
            assert!(found.contains(tool), "{api}: {found}");
        }
        assert_eq!(transcript.steps[1].result, WEATHER, "{api}");
        assert_eq!(transcript.answer, ANSWER, "{api}");
        assert_eq!(transcript.requests, 3, "{api}");
    }
}

/// The scripted model holds a searching conversation to its shape: shown
/// the tools before the search found them, it refuses the request.
#[tokio::test]
async fn a_search_request_that_shows_what_waits_is_refused() {
    let base_url = scripted::serve(Api::OpenAi).await.expect("a loopback port");
    let endpoint = Endpoint::local(Api::OpenAi, base_url).whole();
    let body = serde_json::json!({
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": QUESTION}],
        "tools": [
            {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
            {"type": "function", "function": {"name": "search_tools", "parameters": {"type": "object"}}}
        ]
    });
    let client = endpoint.client().expect("a client");
    let refused = endpoint.post(&client, &body).await.expect_err("refused");
    assert!(
        refused
            .to_string()
            .ends_with("before the search, the tools that wait to be found must not be shown; got [\"get_weather\", \"search_tools\"]"),
        "{refused}"
    );
}
