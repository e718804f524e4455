//! The registry's side of the providers: definitions cached until a tool is
//! added, tools a provider rejects refused at registration, tools strict
//! mode cannot hold named with the reason, and the `definitions` example
//! printing exactly what the registry gives.

use std::collections::HashMap;
use std::process::Command;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::registry::RegistryError;
use tool_core::{ToolRegistry, tool};

#[path = "../../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

/// Say hello.
#[tool(tier = Observe)]
fn hello(
    /// Who to greet.
    name: String,
) -> String {
    format!("hello {name}")
}

/// Count words.
#[tool(tier = Observe)]
fn count(
    /// Words and how often they were seen.
    seen: HashMap<String, u32>,
) -> usize {
    seen.len()
}

/// Arguments with a name Gemini's OpenAPI form cannot carry.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Kebab {
    /// How many.
    #[serde(rename = "max-results")]
    max_results: u8,
}

/// Search with kebab-case arguments.
#[tool(tier = Observe)]
fn kebab_search(
    /// The query.
    query: Kebab,
) -> u8 {
    query.max_results
}

#[test]
fn definitions_are_cached_until_a_tool_is_added() {
    let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    let provider = Provider::OpenAiChat { strict: true };
    let first = provider.definitions(&registry).unwrap();
    let again = provider.definitions(&registry).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &again), "made once");
    assert_eq!(first.as_json().as_array().unwrap().len(), 1);

    registry.register(Count).unwrap();
    let after = provider.definitions(&registry).unwrap();
    assert_eq!(after.as_json().as_array().unwrap().len(), 2);
    assert_eq!(
        first.as_json().as_array().unwrap().len(),
        1,
        "what was handed out stays"
    );
}

#[test]
fn a_tool_strict_mode_cannot_hold_goes_without_it_and_is_named() {
    let registry: ToolRegistry = ToolRegistry::new().with(Hello).with(Count);
    let definitions = Provider::OpenAiChat { strict: true }
        .definitions(&registry)
        .unwrap();
    let strict: Vec<(&str, &Value)> = definitions
        .as_json()
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            (
                tool["function"]["name"].as_str().unwrap(),
                &tool["function"]["strict"],
            )
        })
        .collect();
    assert_eq!(strict, [("hello", &json!(true)), ("count", &json!(false))]);
    assert_eq!(definitions.not_strict().len(), 1);
    assert_eq!(
        definitions.not_strict()[0].to_string(),
        "tool `count` is sent with `strict: false`: its input schema cannot be made strict \
         (at `/properties/seen`: a map (`additionalProperties` is a schema): strict mode closes every object)"
    );
    // Without strict mode asked for, nothing to say; `strict: false` is
    // still said, since Responses would otherwise decide on its own.
    let loose = Provider::OpenAiResponses { strict: false }
        .definitions(&registry)
        .unwrap();
    assert!(loose.not_strict().is_empty());
    assert_eq!(loose.as_json()[1]["strict"], json!(false));
}

#[test]
fn a_provider_named_up_front_refuses_what_it_would_reject_at_registration() {
    let mut registry: ToolRegistry = ToolRegistry::builder()
        .check([Provider::Gemini { openapi: true }])
        .build();
    registry.register(Hello).unwrap();
    let error = registry.register(KebabSearch).unwrap_err();
    assert!(matches!(error, RegistryError::SchemaRejected { .. }));
    assert_eq!(
        error.to_string(),
        "the input schema of tool `kebab_search` cannot be written for Gemini: at `/properties/query`: \
         property `max-results`: Gemini's `parameters` take names of letters, digits and `_`, \
         starting with a letter or `_`, at most 64"
    );
    assert_eq!(registry.tools().len(), 1, "the refused tool is not added");

    // Without naming the provider, the tool is taken and the definitions
    // say what is wrong when asked for.
    let registry: ToolRegistry = ToolRegistry::new().with(KebabSearch);
    assert_eq!(
        Provider::Gemini { openapi: true }
            .definitions(&registry)
            .unwrap_err(),
        error
    );
    assert!(
        Provider::Gemini { openapi: false }
            .definitions(&registry)
            .is_ok()
    );
}

#[test]
#[should_panic(expected = "tool name `1st_hit` is rejected by Gemini")]
fn naming_a_provider_that_rejects_a_registered_tool_panics_like_with() {
    /// The first hit.
    #[tool(name = "1st_hit", tier = Observe)]
    fn first_hit(query: String) -> String {
        query
    }
    let _ = ToolRegistry::<()>::builder()
        .with(FirstHit)
        .check([
            Provider::OpenAiChat { strict: true },
            Provider::Gemini { openapi: false },
        ])
        .build();
}

/// The `definitions` example's binary, which `cargo test` builds beside the
/// test binaries.
fn definitions_example() -> Option<std::path::PathBuf> {
    let deps = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let example = deps.parent()?.join("examples").join("definitions");
    example.exists().then_some(example)
}

#[test]
fn the_definitions_example_prints_what_the_registry_gives() {
    let Some(example) = definitions_example() else {
        panic!("the `definitions` example was not built beside this test");
    };
    let registry = quickstart::registry();
    for name in [
        "openai",
        "openai-strict",
        "openai-responses",
        "anthropic",
        "gemini",
        "mcp",
        "groq",
        "ollama",
        "vllm",
    ] {
        let output = Command::new(&example).arg(name).output().unwrap();
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
        let provider: Provider = name.parse().unwrap();
        assert_eq!(
            &printed,
            provider.definitions(&registry).unwrap().as_json(),
            "{name}"
        );
    }
    let output = Command::new(&example).arg("openai-turbo").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with(
        "error: unknown provider `openai-turbo`; the providers are `openai`, `openai-strict`,"
    ));
}
