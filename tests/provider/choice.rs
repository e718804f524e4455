//! `tool_choice` in each provider's documented shape (docs/providers.md
//! 13.3 and 13.5: the providers' SDK types and guides), and the choices a
//! provider does not offer refused with what it takes instead.

use serde_json::json;
use tool_core::provider::{Provider, ToolChoice};

const CHAT: Provider = Provider::OpenAiChat { strict: true };
const RESPONSES: Provider = Provider::OpenAiResponses { strict: true };
const ANTHROPIC: Provider = Provider::Anthropic { strict: false };
const GEMINI: Provider = Provider::Gemini { openapi: false };

fn choice(provider: Provider, choice: &ToolChoice) -> serde_json::Value {
    provider
        .tool_choice(choice)
        .unwrap_or_else(|error| panic!("{provider}: {error}"))
        .unwrap_or_else(|| panic!("{provider}: no field"))
}

fn refused(provider: Provider, choice: &ToolChoice) -> String {
    provider
        .tool_choice(choice)
        .expect_err("refused")
        .to_string()
}

#[test]
fn openai_chat_takes_the_sdks_forms() {
    assert_eq!(choice(CHAT, &ToolChoice::Auto), json!("auto"));
    assert_eq!(choice(CHAT, &ToolChoice::Required), json!("required"));
    assert_eq!(choice(CHAT, &ToolChoice::None), json!("none"));
    assert_eq!(
        choice(CHAT, &ToolChoice::tool("my_function")),
        json!({"type": "function", "function": {"name": "my_function"}})
    );
    assert_eq!(
        choice(CHAT, &ToolChoice::allowed(["get_weather"])),
        json!({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [
            {"type": "function", "function": {"name": "get_weather"}}
        ]}})
    );
    assert_eq!(
        choice(CHAT, &ToolChoice::allowed(["get_weather"]).required())["allowed_tools"]["mode"],
        json!("required")
    );
}

#[test]
fn openai_responses_takes_the_guides_allowed_tools() {
    assert_eq!(
        choice(RESPONSES, &ToolChoice::tool("get_weather")),
        json!({"type": "function", "name": "get_weather"})
    );
    assert_eq!(
        choice(RESPONSES, &ToolChoice::allowed(["get_weather"])),
        json!({"type": "allowed_tools", "mode": "auto", "tools": [
            {"type": "function", "name": "get_weather"}
        ]})
    );
}

#[test]
fn anthropic_takes_auto_any_tool_and_none() {
    assert_eq!(
        choice(ANTHROPIC, &ToolChoice::Auto),
        json!({"type": "auto"})
    );
    assert_eq!(
        choice(ANTHROPIC, &ToolChoice::Required),
        json!({"type": "any"})
    );
    assert_eq!(
        choice(ANTHROPIC, &ToolChoice::None),
        json!({"type": "none"})
    );
    assert_eq!(
        choice(ANTHROPIC, &ToolChoice::tool("get_weather")),
        json!({"type": "tool", "name": "get_weather"})
    );
}

#[test]
fn gemini_takes_its_modes_and_the_names_only_beside_any_or_validated() {
    let config = |mode: &str| json!({"functionCallingConfig": {"mode": mode}});
    assert_eq!(choice(GEMINI, &ToolChoice::Auto), config("AUTO"));
    assert_eq!(choice(GEMINI, &ToolChoice::Required), config("ANY"));
    assert_eq!(choice(GEMINI, &ToolChoice::None), config("NONE"));
    assert_eq!(
        choice(GEMINI, &ToolChoice::tool("get_weather")),
        json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}})
    );
    assert_eq!(
        choice(GEMINI, &ToolChoice::allowed(["get_weather", "get_time"])),
        json!({"functionCallingConfig": {
            "mode": "VALIDATED", "allowedFunctionNames": ["get_weather", "get_time"]
        }})
    );
}

#[test]
fn a_choice_a_provider_does_not_offer_is_refused_with_what_it_takes() {
    let subset = ToolChoice::allowed(["get_weather"]);
    assert_eq!(
        refused(ANTHROPIC, &subset),
        "Anthropic Messages takes no such tool choice: it has no allowed subset; show the model only those tools, with a view"
    );
    for provider in [Provider::Groq, Provider::Vllm { strict: false }] {
        assert!(
            refused(provider, &subset).ends_with(
                "it has no allowed subset; show the model only those tools, with a view"
            ),
            "{provider}"
        );
        assert_eq!(choice(provider, &ToolChoice::Required), json!("required"));
    }
    assert_eq!(Provider::Ollama.tool_choice(&ToolChoice::Auto), Ok(None));
    assert_eq!(
        refused(Provider::Ollama, &ToolChoice::None),
        "Ollama takes no such tool choice: it takes no `tool_choice`; send no tools for a turn without calls"
    );
    assert_eq!(
        refused(Provider::Mcp, &ToolChoice::Auto),
        "MCP takes no such tool choice: the client's model chooses; a server offers tools, it does not pick among them"
    );
}
