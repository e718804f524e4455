//! The shape of one provider's tool entry: its keys and the types of its
//! fields (docs/providers.md 0, 1 to 3, 11).

use std::collections::BTreeSet;

use serde_json::Value;
use tool_core::provider::Provider;

/// The keys of the provider's tool entry, and the types of its fields.
pub(crate) fn check_shape(
    provider: Provider,
    definition: &Value,
    say: &mut impl FnMut(&str, String),
) {
    match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
            check_chat(provider, definition, say);
        }
        Provider::OpenAiResponses { .. } => check_responses(definition, say),
        Provider::Anthropic { strict } => check_anthropic(strict, definition, say),
        Provider::Gemini { openapi } => check_gemini(openapi, definition, say),
        Provider::Mcp => check_mcp(definition, say),
        other => say("", format!("no definition shape known for {other}")),
    }
}

/// The keys of an object; none for anything else.
fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .map(|map| map.keys().cloned().collect())
        .unwrap_or_default()
}

/// A set of key names.
fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// Whether `holder` has a string `description`.
fn described(holder: &Value) -> bool {
    holder.get("description").is_some_and(Value::is_string)
}

/// The OpenAI Chat family: `{"type": "function", "function": {..}}`.
fn check_chat(provider: Provider, definition: &Value, say: &mut impl FnMut(&str, String)) {
    let function = definition.get("function").unwrap_or(&Value::Null);
    if keys(definition) != set(&["type", "function"]) || definition["type"] != "function" {
        say(
            "",
            "not `{\"type\": \"function\", \"function\": {..}}`".into(),
        );
    }
    // Groq and Ollama document no `strict` for a tool (11.1, 11.2).
    let with_strict = !matches!(provider, Provider::Groq | Provider::Ollama);
    let mut expected = set(&["name", "description", "parameters"]);
    if with_strict {
        expected.insert("strict".into());
    }
    if keys(function) != expected
        || !described(function)
        || (with_strict && !function["strict"].is_boolean())
    {
        say("", format!("`function` is not {expected:?}"));
    }
}

/// OpenAI Responses: a flat function tool.
fn check_responses(definition: &Value, say: &mut impl FnMut(&str, String)) {
    let expected = set(&["type", "name", "description", "parameters", "strict"]);
    if keys(definition) != expected
        || definition["type"] != "function"
        || !described(definition)
        || !definition["strict"].is_boolean()
    {
        say(
            "",
            "not a flat function tool {type, name, description, parameters, strict}".into(),
        );
    }
}

/// Anthropic: `input_schema`, and `strict` in strict mode.
fn check_anthropic(strict: bool, definition: &Value, say: &mut impl FnMut(&str, String)) {
    let mut expected = set(&["name", "description", "input_schema"]);
    if strict {
        expected.insert("strict".into());
    }
    if keys(definition) != expected || !described(definition) {
        say("", format!("not {expected:?}"));
    }
    if strict && !definition["strict"].is_boolean() {
        say("", "`strict` is not a boolean".into());
    }
}

/// Gemini: a function declaration, with `parametersJsonSchema` or (the
/// OpenAPI form) `parameters`.
fn check_gemini(openapi: bool, definition: &Value, say: &mut impl FnMut(&str, String)) {
    let field = if openapi {
        "parameters"
    } else {
        "parametersJsonSchema"
    };
    // The OpenAPI form refuses an object without properties: a
    // tool without arguments has no `parameters`.
    let no_arguments = openapi && keys(definition) == set(&["name", "description"]);
    if (keys(definition) != set(&["name", "description", field]) && !no_arguments)
        || !described(definition)
    {
        say("", format!("not {{name, description, {field}}}"));
    }
}

/// MCP: a `Tool`, whose annotations are only the hints that differ from
/// MCP's defaults.
fn check_mcp(definition: &Value, say: &mut impl FnMut(&str, String)) {
    let allowed = set(&[
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    ]);
    let have = keys(definition);
    if !have.is_subset(&allowed) || !have.contains("inputSchema") || !described(definition) {
        say("", "not an MCP `Tool`".into());
    }
    // Only the hints that differ from MCP's defaults, as booleans.
    let defaults = [
        ("readOnlyHint", false),
        ("destructiveHint", true),
        ("idempotentHint", false),
        ("openWorldHint", true),
    ];
    if let Some(annotations) = definition.get("annotations") {
        let fits = annotations.as_object().is_some_and(|a| {
            !a.is_empty()
                && a.iter().all(|(key, value)| {
                    (key == "title" && value.is_string())
                        || defaults
                            .iter()
                            .any(|(hint, default)| key == hint && value.as_bool() == Some(!default))
                })
        });
        if !fits {
            say(
                "/annotations",
                "not a title and the hints that differ from MCP's defaults".into(),
            );
        }
    }
}
