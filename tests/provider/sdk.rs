//! Every provider's definitions of the corpus, held to the providers' own
//! SDK models (google-genai, mcp, openai, anthropic, groq; vLLM's to
//! openai's) by `tests/sdk/check_definitions.py`, which says what each
//! check proves and why Ollama's are held to its server's fields instead.
//!
//! The SDKs are Python packages: `scripts/test` installs
//! `tests/sdk/requirements.txt` into a venv and names its interpreter in
//! `TOOL_SDK_PYTHON`. Without that variable (a plain `cargo test`) these
//! tests fail, saying to run `scripts/test`; with it, an interpreter that
//! cannot run or a package that is missing is a failure too.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value, json};
use tool_core::provider::{Listing, Provider, Search, ToolChoice};

use crate::corpus;

#[path = "../support/sdk_python.rs"]
mod sdk_python;

use sdk_python::PYTHON;

/// Whether the checker holds `provider`'s definitions to an SDK model: all
/// but Ollama's, whose Python client lags behind its server (see
/// `tests/sdk/check_definitions.py`).
fn has_sdk_model(provider: &Provider) -> bool {
    *provider != Provider::Ollama
}

/// The interpreter of the SDKs' venv.
fn sdk_python(test: &str) -> PathBuf {
    sdk_python::sdk_python(test, "checking the definitions with the providers' SDKs")
}

/// What the checker printed and how it ended.
struct Checked {
    /// Its exit code.
    code: i32,
    /// Its `refused: ..` lines.
    refused: Vec<String>,
    /// Its `checked: {..}` line: tools checked by provider.
    checked: Map<String, Value>,
}

/// Runs the checker with `python` on `definitions` (provider name to
/// `tools` value), written to a file named `file`.
fn check(python: &Path, definitions: &Value, file: &str) -> Checked {
    check_with(python, definitions, file, &[])
}

/// [`check`], with the checker's options first.
fn check_with(python: &Path, definitions: &Value, file: &str, options: &[&str]) -> Checked {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sdk");
    std::fs::create_dir_all(&dir).expect("create the definitions' directory");
    let path = dir.join(file);
    let text = serde_json::to_string_pretty(definitions).expect("serialize");
    std::fs::write(&path, text).expect("write the definitions");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/check_definitions.py");
    let output = Command::new(python)
        .arg(&script)
        .args(options)
        .arg(&path)
        .output()
        .unwrap_or_else(|error| panic!("{PYTHON}={}: cannot run: {error}", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let code = output.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "the checker could not check (exit {code}):\n{stderr}{stdout}"
    );
    let refused = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("refused: "))
        .map(str::to_owned)
        .collect();
    let checked = stdout
        .lines()
        .find_map(|line| line.strip_prefix("checked: "))
        .and_then(|counts| serde_json::from_str(counts).ok())
        .unwrap_or_else(|| panic!("no `checked:` line in:\n{stdout}{stderr}"));
    Checked {
        code,
        refused,
        checked,
    }
}

#[test]
fn every_definition_passes_the_providers_own_sdk_models() {
    let python = sdk_python("every_definition_passes_the_providers_own_sdk_models");
    let registry = corpus::registry();
    let definitions: Map<String, Value> = Provider::ALL
        .into_iter()
        .filter(has_sdk_model)
        .map(|provider| {
            let tools = provider.definitions(&registry).expect("definitions");
            (provider.name().to_owned(), tools.as_json().clone())
        })
        .collect();
    let checked = check(&python, &Value::Object(definitions), "corpus.json");
    assert_eq!(
        checked.refused,
        Vec::<String>::new(),
        "refused by the providers' SDKs"
    );
    assert_eq!(checked.code, 0);
    // Every tool of every provider was looked at: a checker that saw
    // nothing would pass too.
    let expected: Map<String, Value> = Provider::ALL
        .into_iter()
        .filter(has_sdk_model)
        .map(|provider| (provider.name().to_owned(), json!(corpus::TOOLS)))
        .collect();
    assert_eq!(checked.checked, expected);
}

#[test]
fn a_listing_with_search_passes_the_providers_own_sdk_models() {
    let python = sdk_python("a_listing_with_search_passes_the_providers_own_sdk_models");
    let registry = corpus::registry();
    // Every tool deferred, the search's entry, the breakpoint: each shape a
    // listing adds, on every tool of the corpus.
    let listed = |provider: Provider, search: Search| {
        let listing = Listing::new().search(search).defer_all().cache();
        let tools = provider
            .definitions_with(&registry, listing)
            .expect("definitions");
        tools.as_json().clone()
    };
    let anthropic = Provider::Anthropic { strict: true };
    let responses = Provider::OpenAiResponses { strict: true };
    let definitions = json!({
        "anthropic-strict": listed(anthropic, Search::Native),
        "anthropic": listed(Provider::Anthropic { strict: false }, Search::NativeRegex),
        "openai-responses": listed(responses, Search::Native),
    });
    let checked = check(&python, &definitions, "listing.json");
    assert_eq!(
        checked.refused,
        Vec::<String>::new(),
        "refused by the providers' SDKs"
    );
    assert_eq!(checked.code, 0);
    let with_search = json!(corpus::TOOLS + 1);
    assert_eq!(
        checked.checked,
        *json!({"anthropic-strict": with_search, "anthropic": with_search, "openai-responses": with_search})
            .as_object()
            .expect("an object")
    );
}

#[test]
fn every_extra_passes_the_providers_own_sdk_models() {
    let python = sdk_python("every_extra_passes_the_providers_own_sdk_models");
    let registry = crate::extras::registry();
    let definitions: Map<String, Value> = [
        Provider::Anthropic { strict: true },
        Provider::Anthropic { strict: false },
        Provider::OpenAiResponses { strict: true },
    ]
    .into_iter()
    .map(|provider| {
        let tools = provider.definitions(&registry).expect("definitions");
        (provider.name().to_owned(), tools.as_json().clone())
    })
    .collect();
    let checked = check(&python, &Value::Object(definitions), "extras.json");
    assert_eq!(
        checked.refused,
        Vec::<String>::new(),
        "refused by the providers' SDKs"
    );
    assert_eq!(checked.code, 0);
    assert_eq!(
        checked.checked,
        *json!({"anthropic-strict": 4, "anthropic": 4, "openai-responses": 4})
            .as_object()
            .expect("an object")
    );
}

#[test]
fn every_tool_choice_passes_the_providers_own_sdk_types() {
    let python = sdk_python("every_tool_choice_passes_the_providers_own_sdk_types");
    let choices = [
        ToolChoice::Auto,
        ToolChoice::Required,
        ToolChoice::None,
        ToolChoice::tool("get_weather"),
        ToolChoice::allowed(["get_weather", "get_time"]),
        ToolChoice::allowed(["get_weather"]).required(),
    ];
    let mut taken = Map::new();
    for provider in Provider::ALL.into_iter().filter(has_sdk_model) {
        let values: Vec<Value> = choices
            .iter()
            .filter_map(|choice| provider.tool_choice(choice).ok().flatten())
            .collect();
        if !values.is_empty() {
            taken.insert(provider.name().to_owned(), Value::Array(values));
        }
    }
    let counts: Map<String, Value> = taken
        .iter()
        .map(|(name, values)| (name.clone(), json!(values.as_array().map_or(0, Vec::len))))
        .collect();
    let checked = check_with(
        &python,
        &Value::Object(taken),
        "choices.json",
        &["--tool-choice"],
    );
    assert_eq!(
        checked.refused,
        Vec::<String>::new(),
        "refused by the providers' SDKs"
    );
    assert_eq!(checked.code, 0);
    assert_eq!(checked.checked, counts);
    // Each of these takes every choice but what it refuses.
    assert_eq!(counts["openai-strict"], json!(6));
    assert_eq!(counts["openai-responses"], json!(6));
    assert_eq!(counts["gemini"], json!(6));
    assert_eq!(counts["anthropic"], json!(4));
    assert_eq!(counts["groq"], json!(4));
}

#[test]
fn the_sdk_checker_names_every_refusal() {
    let python = sdk_python("the_sdk_checker_names_every_refusal");
    // One refusal of each kind the checker proves, per provider.
    let object = json!({"type": "object", "properties": {}});
    let bad = json!({
        // A coerced value and an ignored key.
        "openai": [{"type": "function", "function": {
            "name": "a", "description": "A.", "parameters": object, "strict": "yes"
        }, "extra": 1}],
        // Groq's own model: a key its function does not have.
        "groq": [{"type": "function", "function": {
            "name": "a", "description": "A.", "parameters": object, "title": "A"
        }}],
        // A required field missing.
        "openai-responses": [{"type": "function", "name": "a", "description": "A.", "parameters": object}],
        // A schema that is not an object.
        "anthropic": [{"name": "a", "description": "A.", "input_schema": {"type": "array"}}],
        // The refusal of issue 9: a tuple in `parametersJsonSchema`.
        "gemini": [{"functionDeclarations": [{"name": "a", "description": "A.", "parametersJsonSchema": {
            "type": "object",
            "properties": {"p": {"type": "array", "prefixItems": [{"type": "string"}]}}
        }}]}],
        // A field the OpenAPI `Schema` does not have.
        "gemini-openapi": [{"functionDeclarations": [{"name": "a", "description": "A.", "parameters": {
            "type": "OBJECT", "$schema": "https://json-schema.org/draft/2020-12/schema"
        }}]}],
        // Keys MCP's `Tool` and its annotations ignore.
        "mcp": [{"name": "a", "description": "A.", "inputSchema": object, "strict": true,
                 "annotations": {"readOnlyHint": true, "readonly": true}}],
        // A provider the checker has no model for.
        "grok": []
    });
    let checked = check(&python, &bad, "refused.json");
    assert_eq!(checked.code, 1);
    assert_eq!(
        checked.refused,
        [
            "openai a: ChatCompletionToolParam: /function/strict: \"yes\" read as true",
            "openai a: ChatCompletionToolParam: /extra: ignored (not a field of the model)",
            "groq a: groq ChatCompletionToolParam: /function/title: ignored (not a field of the model)",
            "openai-responses a: FunctionToolParam: /strict: Field required",
            "anthropic a: InputSchemaTyped: /type: Input should be 'object'",
            "gemini a: JSONSchema: /properties/p/prefixItems: Extra inputs are not permitted",
            "gemini-openapi a: FunctionDeclaration: /parameters/$schema: Extra inputs are not permitted",
            "mcp a: Tool: /strict: ignored (not a field of the model)",
            "mcp a: Tool: /annotations/readonly: ignored (not a field of the model)",
            "grok -: -: /: no SDK model known for this provider",
        ]
    );
}

#[test]
fn googles_sdk_checks_no_property_name_in_either_form() {
    let python = sdk_python("googles_sdk_checks_no_property_name_in_either_form");
    // The names the `parameters` documentation forbids (docs/providers.md
    // 3.1), in both forms: google-genai's models take them all, so the
    // rule the OpenAPI form applies is the documentation's, not the SDK's.
    let properties = |string: &str, object: &str| {
        json!({
            "Content-Type": {"type": string},
            "User-Agent": {"type": string},
            "vehicle": {"type": object, "properties": {"año_vehiculo": {"type": string}}}
        })
    };
    let definitions = json!({
        "gemini": [{"functionDeclarations": [{"name": "a", "description": "A.", "parametersJsonSchema": {
            "type": "object", "properties": properties("string", "object")
        }}]}],
        "gemini-openapi": [{"functionDeclarations": [{"name": "a", "description": "A.", "parameters": {
            "type": "OBJECT", "properties": properties("STRING", "OBJECT")
        }}]}]
    });
    let checked = check(&python, &definitions, "names.json");
    assert_eq!(checked.refused, Vec::<String>::new());
    assert_eq!(checked.code, 0);
    assert_eq!(
        checked.checked,
        *json!({"gemini": 1, "gemini-openapi": 1})
            .as_object()
            .unwrap()
    );
}
