//! A checker of tool definitions: it holds what tool-core sends each
//! provider to that provider's own rules, as docs/providers.md states them
//! from the providers' documentation and SDKs (section 0 for names and the
//! shape of a tool entry, sections 1 to 3 and 11 for each provider, section
//! 7 for the schema dialects). For one tool entry ([`check_tool`]): its
//! keys and the types of its fields, its name, and every subschema, walked
//! by keyword, against the dialect's keywords, formats and strict-mode
//! rules; for a whole tool list ([`check_definitions`]): its wrapping, and
//! the agreement of the `strict` flags with the list of tools that fell
//! back from strict mode. `catches.rs` feeds it bad definitions, so that it
//! cannot pass by seeing nothing.

mod budget;
mod catches;
mod dialects;
mod shape;
mod walk;

pub(crate) use budget::AnthropicBudget;
pub(crate) use walk::{nodes, required_names};

use serde_json::Value;
use tool_core::provider::{Blocker, NotStrict, Provider};

use dialects::{
    check_anthropic_strict, check_common, check_gemini, check_gemini_openapi, check_mcp,
    check_ollama, check_openai_strict,
};
use shape::check_shape;

/// The tool entries of a provider's `tools` value.
pub(crate) fn tool_list(provider: Provider, tools: &Value) -> Vec<&Value> {
    let list = match provider {
        Provider::Gemini { .. } => tools.get(0).and_then(|t| t.get("functionDeclarations")),
        _ => Some(tools),
    };
    list.and_then(Value::as_array)
        .map(|list| list.iter().collect())
        .unwrap_or_default()
}

/// A tool entry's name.
pub(crate) fn name_of(provider: Provider, definition: &Value) -> Option<&str> {
    let holder = match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
            definition.get("function")?
        }
        _ => definition,
    };
    holder.get("name")?.as_str()
}

/// A tool entry's input schema.
pub(crate) fn schema_of(provider: Provider, definition: &Value) -> Option<&Value> {
    match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
            definition.get("function")?.get("parameters")
        }
        Provider::OpenAiResponses { .. } => definition.get("parameters"),
        Provider::Anthropic { .. } => definition.get("input_schema"),
        Provider::Gemini { openapi: false } => definition.get("parametersJsonSchema"),
        Provider::Gemini { openapi: true } => definition.get("parameters"),
        Provider::Mcp => definition.get("inputSchema"),
        other => panic!("no schema location known for {other}"),
    }
}

/// A tool entry's `strict` flag, where it has one.
pub(crate) fn strict_of(provider: Provider, definition: &Value) -> Option<bool> {
    match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
            definition.get("function")?.get("strict")?.as_bool()
        }
        _ => definition.get("strict")?.as_bool(),
    }
}

/// Whether the provider's schemas are JSON Schema (all but the OpenAPI
/// subset of Gemini's legacy `parameters`).
pub(crate) fn is_json_schema(provider: Provider) -> bool {
    provider != Provider::Gemini { openapi: true }
}

/// Whether a tool name follows the provider's rule (docs/providers.md 0): 1 to
/// 64 of `a-zA-Z0-9_-` for OpenAI and Anthropic, and for Groq, Ollama and
/// vLLM (Groq states OpenAI's rule, 11.1; the others state none and take
/// OpenAI's requests); for Gemini a letter or `_`
/// first, then `a-zA-Z0-9_.:-`, at most 128; for MCP 1 to 128 of
/// `A-Za-z0-9_.-`.
fn name_follows_the_rule(provider: Provider, name: &str) -> bool {
    let all = |ok: &dyn Fn(char) -> bool| name.chars().all(ok);
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    match provider {
        Provider::OpenAiChat { .. }
        | Provider::OpenAiResponses { .. }
        | Provider::Anthropic { .. }
        | Provider::Groq
        | Provider::Ollama
        | Provider::Vllm { .. } => (1..=64).contains(&name.len()) && all(&word),
        Provider::Gemini { .. } => {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.len() <= 128
                && all(&|c| word(c) || c == '.' || c == ':')
        }
        Provider::Mcp => (1..=128).contains(&name.len()) && all(&|c| word(c) || c == '.'),
        other => panic!("no name rule known for {other}"),
    }
}

/// What is wrong with one tool entry of `provider`'s definitions: its
/// shape, its name, and its schema against the dialect's rules. Empty when
/// nothing is.
pub(crate) fn check_tool(provider: Provider, definition: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let name = name_of(provider, definition).unwrap_or("<no name>");
    let mut say = |at: &str, what: String| {
        problems.push(format!("{provider} `{name}` at `{at}`: {what}"));
    };
    check_shape(provider, definition, &mut say);
    if !name_follows_the_rule(provider, name) {
        say("", format!("the name `{name}` breaks the provider's rule"));
    }
    let Some(schema) = schema_of(provider, definition) else {
        if provider != (Provider::Gemini { openapi: true }) {
            say("", "no input schema".into());
        }
        return problems;
    };
    let root_type = if provider == (Provider::Gemini { openapi: true }) {
        "OBJECT"
    } else {
        "object"
    };
    if schema.get("type") != Some(&Value::from(root_type)) {
        say("", format!("the root's `type` is not `{root_type}`"));
    }
    if schema.get("anyOf").is_some() || schema.get("oneOf").is_some() {
        say("", "the root is a choice".into());
    }
    let strict = strict_of(provider, definition) == Some(true);
    for node in nodes(schema) {
        let at = node.at.as_str();
        let map = match node.schema {
            Value::Object(map) => map,
            Value::Bool(false) if node.keyword == Some("additionalProperties") => continue,
            other => {
                say(
                    at,
                    format!("a boolean schema `{other}` (docs/providers.md 7.0.4: `{{}}`)"),
                );
                continue;
            }
        };
        check_common(schema, map, &mut |what| say(at, what));
        match provider {
            Provider::OpenAiChat { .. }
            | Provider::OpenAiResponses { .. }
            | Provider::Vllm { .. }
                if strict =>
            {
                check_openai_strict(map, &mut |what| say(at, what));
            }
            Provider::Anthropic { .. } if strict => {
                check_anthropic_strict(map, &mut |what| say(at, what));
            }
            Provider::Gemini { openapi: false } => check_gemini(map, &mut |what| say(at, what)),
            Provider::Gemini { openapi: true } => {
                check_gemini_openapi(map, &mut |what| say(at, what));
            }
            Provider::Mcp => check_mcp(map, &mut |what| say(at, what)),
            Provider::Ollama => check_ollama(map, at.is_empty(), &mut |what| say(at, what)),
            _ => {}
        }
    }
    if provider == Provider::Mcp
        && let Some(output) = definition.get("outputSchema")
        && output.get("type") != Some(&Value::from("object"))
    {
        say(
            "/outputSchema",
            "an output schema that is not an object".into(),
        );
    }
    problems
}

/// What is wrong with a provider's whole tool list: each tool (see
/// [`check_tool`]), and the agreement between the `strict` flags and
/// `not_strict` (a tool sent without strict mode that was asked for is
/// listed, with a reason; no other is).
pub(crate) fn check_definitions(
    provider: Provider,
    tools: &Value,
    not_strict: &[NotStrict],
) -> Vec<String> {
    let mut problems = Vec::new();
    if let Provider::Gemini { .. } = provider {
        let one = tools.as_array().is_some_and(|t| t.len() == 1);
        let keys: Vec<&String> = tools
            .get(0)
            .and_then(Value::as_object)
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        if !one || keys != ["functionDeclarations"] {
            problems.push(format!(
                "{provider}: not `[{{\"functionDeclarations\": [..]}}]`"
            ));
        }
    } else if !tools.is_array() {
        problems.push(format!("{provider}: the tools are not a list"));
    }
    let list = tool_list(provider, tools);
    let mut listed: Vec<&str> = not_strict.iter().map(|n| n.tool.as_str()).collect();
    for fallback in not_strict {
        let said = |b: &Blocker| !b.reason.trim().is_empty();
        if fallback.blockers.is_empty() || !fallback.blockers.iter().all(said) {
            problems.push(format!(
                "{provider} `{}`: listed as not strict without a reason",
                fallback.tool
            ));
        }
    }
    for definition in &list {
        problems.extend(check_tool(provider, definition));
        let name = name_of(provider, definition).unwrap_or_default();
        let flag = strict_of(provider, definition);
        let expected_flag = match provider {
            Provider::OpenAiChat { .. }
            | Provider::OpenAiResponses { .. }
            | Provider::Vllm { .. } => Some(provider.is_strict()),
            Provider::Anthropic { strict: true } => Some(true),
            _ => None,
        };
        let fell_back = expected_flag == Some(true) && flag == Some(false);
        let is_listed = listed.contains(&name);
        listed.retain(|n| *n != name);
        match (expected_flag, flag) {
            (Some(true), Some(true)) | (None, None) => {}
            (Some(false), Some(false)) => {}
            (Some(true), Some(false)) => {}
            _ => problems.push(format!(
                "{provider} `{name}`: `strict` is {flag:?}, expected {expected_flag:?}"
            )),
        }
        if fell_back != is_listed {
            problems.push(format!(
                "{provider} `{name}`: sent with `strict: {flag:?}` but {} in `not_strict()`",
                if is_listed { "listed" } else { "not listed" }
            ));
        }
    }
    for stray in listed {
        problems.push(format!(
            "{provider} `{stray}`: in `not_strict()` but not among the tools"
        ));
    }
    problems
}
