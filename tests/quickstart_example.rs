//! The quickstart example (`examples/quickstart.rs`) as `cargo run
//! --example quickstart` prints it: the tools as one provider is given
//! them, then calls a model might make and what it reads back.

use serde_json::Value;
use tool_core::provider::Provider;

#[path = "../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

/// The printed transcript cut at its second heading: the definitions'
/// part and the calls' part.
async fn parts() -> (String, String) {
    let transcript = quickstart::transcript().await;
    let (definitions, calls) = transcript
        .split_once("== Calls, and what the model receives back ==\n")
        .unwrap_or_else(|| panic!("no calls' heading in:\n{transcript}"));
    (definitions.to_owned(), calls.to_owned())
}

#[tokio::test]
async fn the_quickstart_prints_what_anthropic_is_given_and_says_how_to_get_the_others() {
    let (definitions, _) = parts().await;
    let mut lines = definitions.splitn(3, '\n');
    assert_eq!(
        lines.next(),
        Some("== The tool definitions Anthropic's Messages API is given ==")
    );
    assert_eq!(
        lines.next(),
        Some(
            "(another provider's: `cargo run --example definitions -- <provider>`, <provider> one of \
             openai, openai-strict, openai-responses, openai-responses-loose, anthropic-strict, gemini, \
             gemini-openapi, mcp, groq, ollama, vllm, vllm-strict)"
        )
    );
    let printed: Value = serde_json::from_str(lines.next().unwrap_or_default()).expect("JSON");
    let sent = Provider::Anthropic { strict: false }
        .definitions(&quickstart::registry())
        .expect("definitions");
    assert_eq!(&printed, sent.as_json());

    // What only the registry's own schema says, and no provider is sent as
    // it is, is not shown as what a model is given.
    let text = printed.to_string();
    for registry_only in ["\"format\"", "uint8", "$schema", "$defs", "$ref"] {
        assert!(!text.contains(registry_only), "{registry_only} in {text}");
    }
    assert_eq!(
        printed[1]["input_schema"]["properties"]["max_results"],
        serde_json::json!({
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "description": "Maximum results to return.",
            "default": 5
        })
    );
}

#[tokio::test]
async fn the_quickstart_prints_each_call_and_what_the_model_reads_back() {
    let (_, calls) = parts().await;
    assert_eq!(
        calls,
        r#"get_weather({"city":"Paris","units":"fahrenheit"})
  -> [ok] {"city":"Paris","temperature":70.7,"summary":"sunny with a light breeze"}

web_search("{\"query\": \"rust tool calling\"}")
  -> [ok] ["result 1 for \"rust tool calling\"","result 2 for \"rust tool calling\"","result 3 for \"rust tool calling\""]

convert_currency({"amount":10,"from":"EUR","to":"USD"})
  -> [ok] 10 EUR = 10.80 USD

convert_currency({"amount":5000,"from":"EUR","to":"USD"})
  -> [error] the call to tool `convert_currency` was denied: amounts over 1000 need a person to approve them

get_weather({"city":"Paris","units":"kelvin"})
  -> [error] invalid arguments for tool `get_weather`: argument `units` at `/units`: expected one of `celsius`, `fahrenheit`, got `kelvin`. Correct the arguments and call the tool again.

web_search({"query":42,"max_results":50})
  -> [error] invalid arguments for tool `web_search`: argument `query` at `/query`: expected a string, got an integer `42`; argument `max_results` at `/max_results`: must be at most 20, got 50. Correct the arguments and call the tool again.

get_wether({"city":"Paris"})
  -> [error] unknown tool `get_wether`. Did you mean `get_weather`? Available tools: `get_weather`, `web_search`, `convert_currency`.

"#
    );
}
