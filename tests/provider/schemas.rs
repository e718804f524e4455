//! The schema side of the providers, proved on a corpus of tools
//! (`corpus/mod.rs`) whose argument types hold every red flag of
//! docs/providers.md 6.7:
//!
//! - each provider's definitions equal the golden files under
//!   `tests/golden/definitions/` (`UPDATE_GOLDEN=1` rewrites them), and so
//!   does the list of tools that fell back from strict mode;
//! - a checker walks every schema by keyword and holds each dialect to the
//!   rules of docs/providers.md sections 0 and 7 (a test feeds it bad schemas,
//!   so it cannot pass by seeing nothing);
//! - every schema of a JSON Schema dialect is valid against the 2020-12
//!   meta-schema;
//! - arguments the tools accept still fit each dialect's schema, so no
//!   rewrite shuts out a valid call.

use crate::corpus;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tool_core::provider::{Blocker, NotStrict, Provider};
use tool_core::{ToolContext, ToolRegistry, ToolResult, TypedTool, tool};

// ---------------------------------------------------------------------------
// Golden files

/// Where the golden definitions live.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/definitions")
}

/// Whether this run writes the golden files instead of comparing.
fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

/// Compares `actual` with the golden file `name` (or writes it when
/// updating); what differs, if anything.
fn golden(name: &str, actual: &str) -> Option<String> {
    let path = golden_dir().join(name);
    if updating() {
        std::fs::create_dir_all(golden_dir()).expect("create the golden directory");
        std::fs::write(&path, actual).expect("write a golden file");
        return None;
    }
    let Ok(expected) = std::fs::read_to_string(&path) else {
        return Some(format!(
            "{}: missing (run with UPDATE_GOLDEN=1 to write it)",
            path.display()
        ));
    };
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{}: differs from line {}:\n  golden: {:?}\n  actual: {:?}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end of file>"),
        actual.lines().nth(line).unwrap_or("<end of file>"),
    ))
}

#[test]
fn definitions_match_the_golden_files() {
    let registry = corpus::registry();
    let mut differences = Vec::new();
    let mut not_strict = String::new();
    for provider in Provider::ALL {
        let definitions = provider
            .definitions(&registry)
            .unwrap_or_else(|error| panic!("{provider}: {error}"));
        let pretty = serde_json::to_string_pretty(definitions.as_json()).expect("serialize");
        differences.extend(golden(
            &format!("{}.json", provider.name()),
            &(pretty + "\n"),
        ));
        for fallback in definitions.not_strict() {
            for blocker in &fallback.blockers {
                writeln!(not_strict, "{provider} | {} | {blocker}", fallback.tool)
                    .expect("write to a string");
            }
        }
    }
    differences.extend(golden("not_strict.txt", &not_strict));
    assert!(
        differences.is_empty(),
        "the definitions changed; review them and run with UPDATE_GOLDEN=1 if the change is meant:\n{}",
        differences.join("\n")
    );
}

#[test]
fn the_corpus_has_every_tool_in_every_provider() {
    let registry = corpus::registry();
    assert_eq!(registry.tool_definitions().len(), corpus::TOOLS);
    for provider in Provider::ALL {
        let definitions = provider.definitions(&registry).expect("definitions");
        let names: Vec<&str> = tool_list(provider, definitions.as_json())
            .into_iter()
            .filter_map(|tool| name_of(provider, tool))
            .collect();
        let registered: Vec<&str> = registry
            .tool_definitions()
            .iter()
            .map(|d| &*d.name)
            .collect();
        assert_eq!(
            names, registered,
            "{provider}: the tools, in registration order"
        );
    }
}

// ---------------------------------------------------------------------------
// Walking schemas by keyword

/// Keywords whose value is one subschema.
const ONE: [&str; 11] = [
    "items",
    "additionalProperties",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value maps names to subschemas.
const NAMED: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Keywords whose value is a list of subschemas.
const LISTED: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/// A subschema met on a walk.
struct Node<'a> {
    /// Its JSON Pointer from the root schema.
    at: String,
    /// The keyword it is the value (or in the value) of; `None` for the root.
    keyword: Option<&'a str>,
    schema: &'a Value,
}

/// Every subschema of `root`, the root first, a parent before its children.
/// Only keywords lead to subschemas: a property named `title` is a
/// subschema, never the keyword `title`.
fn nodes(root: &Value) -> Vec<Node<'_>> {
    fn visit<'a>(node: Node<'a>, out: &mut Vec<Node<'a>>) {
        let (at, schema) = (node.at.clone(), node.schema);
        out.push(node);
        let Value::Object(map) = schema else {
            return;
        };
        for (keyword, value) in map {
            let keyword = keyword.as_str();
            let mut child = |at: String, schema: &'a Value| {
                let node = Node {
                    at,
                    keyword: Some(keyword),
                    schema,
                };
                visit(node, out);
            };
            if ONE.contains(&keyword) {
                match value {
                    // The pre-2020 form of `items`, a list.
                    Value::Array(list) => {
                        for (i, item) in list.iter().enumerate() {
                            child(format!("{at}/{keyword}/{i}"), item);
                        }
                    }
                    _ => child(format!("{at}/{keyword}"), value),
                }
            } else if NAMED.contains(&keyword) {
                if let Value::Object(named) = value {
                    for (name, item) in named {
                        let name = name.replace('~', "~0").replace('/', "~1");
                        child(format!("{at}/{keyword}/{name}"), item);
                    }
                }
            } else if LISTED.contains(&keyword)
                && let Value::Array(list) = value
            {
                for (i, item) in list.iter().enumerate() {
                    child(format!("{at}/{keyword}/{i}"), item);
                }
            }
        }
    }
    let mut out = Vec::new();
    let root = Node {
        at: String::new(),
        keyword: None,
        schema: root,
    };
    visit(root, &mut out);
    out
}

/// Whether a node describes an object (its `type` says so, or it has
/// `properties`).
fn is_object(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t.eq_ignore_ascii_case("object"),
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => node.contains_key("properties"),
    }
}

/// Whether a node's `type` is or includes `wanted`.
fn has_type(node: &Map<String, Value>, wanted: &str) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == wanted,
        Some(Value::Array(types)) => types.iter().any(|t| t == wanted),
        _ => false,
    }
}

/// The names of a node's `properties`.
fn property_names(node: &Map<String, Value>) -> Vec<&str> {
    node.get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The names in a node's `required`.
fn required_names(node: &Map<String, Value>) -> Vec<&str> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------
// The checker

/// The tool entries of a provider's `tools` value.
fn tool_list(provider: Provider, tools: &Value) -> Vec<&Value> {
    let list = match provider {
        Provider::Gemini { .. } => tools.get(0).and_then(|t| t.get("functionDeclarations")),
        _ => Some(tools),
    };
    list.and_then(Value::as_array)
        .map(|list| list.iter().collect())
        .unwrap_or_default()
}

/// A tool entry's name.
fn name_of(provider: Provider, definition: &Value) -> Option<&str> {
    let holder = match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
            definition.get("function")?
        }
        _ => definition,
    };
    holder.get("name")?.as_str()
}

/// A tool entry's input schema.
fn schema_of(provider: Provider, definition: &Value) -> Option<&Value> {
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
fn strict_of(provider: Provider, definition: &Value) -> Option<bool> {
    match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
            definition.get("function")?.get("strict")?.as_bool()
        }
        _ => definition.get("strict")?.as_bool(),
    }
}

/// Whether the provider's schemas are JSON Schema (all but the OpenAPI
/// subset of Gemini's legacy `parameters`).
fn is_json_schema(provider: Provider) -> bool {
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

/// The string formats OpenAI's strict mode knows (docs/providers.md 1.3).
const OPENAI_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords outside OpenAI's strict subset (docs/providers.md 1.3, 7.1).
const OPENAI_STRICT_REFUSED: [&str; 23] = [
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "default",
    "minLength",
    "maxLength",
    "uniqueItems",
    "prefixItems",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "nullable",
];

/// The string formats Anthropic's strict tool use knows (docs/providers.md 2.4).
const ANTHROPIC_FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords outside Anthropic's strict subset (docs/providers.md 2.4, 7.2).
const ANTHROPIC_STRICT_REFUSED: [&str; 16] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
    "uniqueItems",
    "prefixItems",
    "patternProperties",
    "propertyNames",
    "contains",
    "oneOf",
    "$ref",
    "nullable",
];

/// The keywords of `parametersJsonSchema` (docs/providers.md 7.3), less
/// those google-genai's `JSONSchema` model refuses (3.3: `prefixItems`,
/// `propertyOrdering`).
const GEMINI_KEYWORDS: [&str; 13] = [
    "type",
    "format",
    "description",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "additionalProperties",
    "required",
];

/// The fields of the OpenAPI `Schema` of Gemini's legacy `parameters`
/// (docs/providers.md 3.2), without `title` (7.3 strips it) and the `ref`/`defs`
/// that recursion would need (7.3 inlines everything).
const GEMINI_OPENAPI_KEYWORDS: [&str; 21] = [
    "type",
    "format",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
    "anyOf",
    "default",
    "example",
];

/// The types of the OpenAPI `Schema` (docs/providers.md 3.2).
const GEMINI_OPENAPI_TYPES: [&str; 7] = [
    "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
];

/// Whether a regular expression uses what strict modes refuse: look-around
/// (OpenAI and Anthropic) or back-references and `\b` (Anthropic).
fn pattern_refused(pattern: &str, anthropic: bool) -> bool {
    let look = ["(?=", "(?!", "(?<=", "(?<!"];
    let more = ["\\b", "\\1", "\\2", "\\k<"];
    look.iter().any(|p| pattern.contains(p))
        || (anthropic && more.iter().any(|p| pattern.contains(p)))
}

/// What is wrong with one tool entry of `provider`'s definitions: its
/// shape, its name, and its schema against the dialect's rules. Empty when
/// nothing is.
fn check_tool(provider: Provider, definition: &Value) -> Vec<String> {
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

/// The keys of the provider's tool entry, and the types of its fields.
fn check_shape(provider: Provider, definition: &Value, say: &mut impl FnMut(&str, String)) {
    let keys = |value: &Value| -> BTreeSet<String> {
        value
            .as_object()
            .map(|map| map.keys().cloned().collect())
            .unwrap_or_default()
    };
    let set =
        |names: &[&str]| -> BTreeSet<String> { names.iter().map(|n| (*n).to_owned()).collect() };
    let described = |holder: &Value| holder.get("description").is_some_and(Value::is_string);
    match provider {
        Provider::OpenAiChat { .. } | Provider::Groq | Provider::Ollama | Provider::Vllm { .. } => {
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
        Provider::OpenAiResponses { .. } => {
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
        Provider::Anthropic { strict } => {
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
        Provider::Gemini { openapi } => {
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
        Provider::Mcp => {
            let allowed = set(&[
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
            ]);
            let have = keys(definition);
            if !have.is_subset(&allowed) || !have.contains("inputSchema") || !described(definition)
            {
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
                                || defaults.iter().any(|(hint, default)| {
                                    key == hint && value.as_bool() == Some(!default)
                                })
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
        other => say("", format!("no definition shape known for {other}")),
    }
}

/// What every dialect wants of a node: no `$schema`, `required` a list of
/// its own properties, `$ref`s that resolve.
fn check_common(root: &Value, map: &Map<String, Value>, say: &mut impl FnMut(String)) {
    if map.contains_key("$schema") {
        say("`$schema`".into());
    }
    if let Some(required) = map.get("required") {
        let names = property_names(map);
        match required.as_array() {
            Some(list)
                if list
                    .iter()
                    .all(|n| n.as_str().is_some_and(|n| names.contains(&n))) =>
            {
                let unique: BTreeSet<&str> = list.iter().filter_map(Value::as_str).collect();
                if unique.len() != list.len() {
                    say("`required` names a property twice".into());
                }
            }
            _ => say(format!(
                "`required` {required} is not a list of the node's properties {names:?}"
            )),
        }
    }
    if let Some(reference) = map.get("$ref") {
        let resolves = reference
            .as_str()
            .and_then(|r| r.strip_prefix('#'))
            .is_some_and(|pointer| root.pointer(pointer).is_some());
        if !resolves {
            say(format!("`$ref` {reference} does not resolve in the schema"));
        }
    }
}

/// OpenAI's strict mode (docs/providers.md 1.3, 7.1).
fn check_openai_strict(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
    for keyword in OPENAI_STRICT_REFUSED {
        if map.contains_key(keyword) {
            say(format!("`{keyword}` is outside strict mode's subset"));
        }
    }
    if map.contains_key("$ref") && map.len() > 1 {
        let siblings: Vec<&String> = map.keys().filter(|k| *k != "$ref").collect();
        say(format!("`$ref` with sibling keywords {siblings:?}"));
    }
    if is_object(map) {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            say("an object without `additionalProperties: false`".into());
        }
        let properties: BTreeSet<&str> = property_names(map).into_iter().collect();
        let required: BTreeSet<&str> = required_names(map).into_iter().collect();
        if !map.contains_key("required") || properties != required {
            say(format!(
                "`required` {required:?} is not every property {properties:?}"
            ));
        }
    }
    if let Some(format) = map.get("format") {
        let known = format.as_str().is_some_and(|f| OPENAI_FORMATS.contains(&f));
        if !known || !has_type(map, "string") {
            say(format!(
                "`format` {format} (strict mode knows string formats {OPENAI_FORMATS:?})"
            ));
        }
    }
    if has_type(map, "array") {
        let typed = map
            .get("items")
            .and_then(Value::as_object)
            .is_some_and(typed);
        if !typed {
            say("an array without typed `items`".into());
        }
    }
    if !typed(map) {
        say("a schema without a type (any JSON value)".into());
    }
    if let Some(Value::String(pattern)) = map.get("pattern")
        && pattern_refused(pattern, false)
    {
        say(format!("`pattern` {pattern:?} has a look-around"));
    }
}

/// Whether a node says what type its values have (docs/providers.md 7.1.5).
fn typed(map: &Map<String, Value>) -> bool {
    ["type", "$ref", "anyOf", "enum", "const"]
        .iter()
        .any(|keyword| map.contains_key(*keyword))
}

/// Anthropic's strict tool use (docs/providers.md 2.4, 7.2).
fn check_anthropic_strict(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
    for keyword in ANTHROPIC_STRICT_REFUSED {
        if map.contains_key(keyword) {
            say(format!("`{keyword}` is outside strict tool use's subset"));
        }
    }
    if is_object(map) && map.get("additionalProperties") != Some(&Value::Bool(false)) {
        say("an object without `additionalProperties: false`".into());
    }
    if let Some(min_items) = map.get("minItems")
        && !matches!(min_items.as_u64(), Some(0 | 1))
    {
        say(format!("`minItems` {min_items} (only 0 or 1)"));
    }
    if let Some(format) = map.get("format")
        && !format
            .as_str()
            .is_some_and(|f| ANTHROPIC_FORMATS.contains(&f))
    {
        say(format!("`format` {format}"));
    }
    if let Some(Value::Array(values)) = map.get("enum")
        && values.iter().any(|v| v.is_object() || v.is_array())
    {
        say("an `enum` of objects or arrays".into());
    }
    if let Some(Value::String(pattern)) = map.get("pattern")
        && pattern_refused(pattern, true)
    {
        say(format!(
            "`pattern` {pattern:?} has a look-around or back-reference"
        ));
    }
}

/// Gemini's `parametersJsonSchema` (docs/providers.md 3.3, 7.3).
fn check_gemini(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
    for keyword in map.keys() {
        if !GEMINI_KEYWORDS.contains(&keyword.as_str()) {
            say(format!("`{keyword}` is not a keyword Gemini takes"));
        }
    }
    if let Some(format) = map.get("format") {
        let fits = match format.as_str() {
            Some("int32" | "int64") => has_type(map, "integer"),
            Some("float" | "double") => has_type(map, "number"),
            Some("date-time") => has_type(map, "string"),
            _ => false,
        };
        if !fits {
            say(format!("`format` {format} on this type (7.3.3)"));
        }
    }
}

/// Gemini's legacy `parameters`, OpenAPI 3.0's subset (docs/providers.md 3.2,
/// 7.3).
fn check_gemini_openapi(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
    for keyword in map.keys() {
        if !GEMINI_OPENAPI_KEYWORDS.contains(&keyword.as_str()) {
            say(format!("`{keyword}` is not a field of the OpenAPI Schema"));
        }
    }
    if let Some(t) = map.get("type") {
        let fits = t
            .as_str()
            .is_some_and(|t| GEMINI_OPENAPI_TYPES.contains(&t));
        if !fits {
            say(format!("`type` {t} is not one upper-case OpenAPI type"));
        }
    }
    if let Some(values) = map.get("enum")
        && !values
            .as_array()
            .is_some_and(|v| v.iter().all(Value::is_string))
    {
        say(format!("`enum` {values} is not a list of strings"));
    }
    if map.contains_key("anyOf") && map.len() > 1 {
        say("`anyOf` beside other fields (Vertex wants it alone)".into());
    }
    if let Some(nullable) = map.get("nullable")
        && !nullable.is_boolean()
    {
        say("`nullable` is not a boolean".into());
    }
    for name in property_names(map) {
        let mut chars = name.chars();
        let fits = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.len() <= 64
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !fits {
            say(format!("property name `{name}`"));
        }
    }
    if let Some(ordering) = map.get("propertyOrdering") {
        let names: Vec<Value> = property_names(map).into_iter().map(Value::from).collect();
        if ordering != &Value::Array(names) {
            say(format!(
                "`propertyOrdering` {ordering} is not the properties in order"
            ));
        }
    }
}

/// MCP's `inputSchema`: JSON Schema, never OpenAPI's `nullable`
/// (docs/providers.md 7.4).
fn check_mcp(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
    if map.contains_key("nullable") {
        say("`nullable` (OpenAPI, not JSON Schema)".into());
    }
}

/// The fields Ollama reads a property into (`api.ToolProperty`) and the
/// root into (`api.ToolFunctionParameters`, less the `$defs` and `items`
/// that inlining leaves nothing for): docs/providers.md 11.2.
const OLLAMA_PROPERTY_FIELDS: [&str; 7] = [
    "type",
    "description",
    "enum",
    "items",
    "anyOf",
    "properties",
    "required",
];
const OLLAMA_ROOT_FIELDS: [&str; 3] = ["type", "properties", "required"];

/// Ollama's tool parameters: no keyword its server would drop unseen
/// (docs/providers.md 11.2).
fn check_ollama(map: &Map<String, Value>, root: bool, say: &mut impl FnMut(String)) {
    let fields: &[&str] = if root {
        &OLLAMA_ROOT_FIELDS
    } else {
        &OLLAMA_PROPERTY_FIELDS
    };
    for keyword in map.keys() {
        if !fields.contains(&keyword.as_str()) {
            say(format!("`{keyword}` is not a field Ollama reads"));
        }
    }
}

/// What is wrong with a provider's whole tool list: each tool (see
/// [`check_tool`]), and the agreement between the `strict` flags and
/// `not_strict` (a tool sent without strict mode that was asked for is
/// listed, with a reason; no other is).
fn check_definitions(provider: Provider, tools: &Value, not_strict: &[NotStrict]) -> Vec<String> {
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

/// What the strict tools of one Anthropic request spend of its budget
/// (docs/providers.md 2.4): strict tools, optional parameters, parameters that
/// are a union (`anyOf` or a list of types). Parameters are counted at
/// every level, as tool-core counts them.
#[derive(Debug, Default, PartialEq, Eq)]
struct AnthropicBudget {
    strict_tools: usize,
    optional: usize,
    unions: usize,
}

impl AnthropicBudget {
    /// Anthropic's limits per request.
    const LIMITS: AnthropicBudget = AnthropicBudget {
        strict_tools: 20,
        optional: 24,
        unions: 16,
    };

    /// The budget spent by the strict tools of an Anthropic tool list.
    fn of(tools: &Value) -> Self {
        let provider = Provider::Anthropic { strict: true };
        let mut spent = Self::default();
        for tool in tool_list(provider, tools) {
            if strict_of(provider, tool) != Some(true) {
                continue;
            }
            spent.strict_tools += 1;
            let schema = schema_of(provider, tool).unwrap_or(&Value::Null);
            for node in nodes(schema) {
                let Some(map) = node.schema.as_object().filter(|m| is_object(m)) else {
                    continue;
                };
                let required = required_names(map);
                let properties = map.get("properties").and_then(Value::as_object);
                for (name, property) in properties.into_iter().flatten() {
                    spent.optional += usize::from(!required.contains(&name.as_str()));
                    let union = property.get("anyOf").is_some()
                        || property.get("type").is_some_and(Value::is_array);
                    spent.unions += usize::from(union);
                }
            }
        }
        spent
    }

    /// Whether it stays within [`AnthropicBudget::LIMITS`].
    fn within_limits(&self) -> bool {
        let limits = Self::LIMITS;
        self.strict_tools <= limits.strict_tools
            && self.optional <= limits.optional
            && self.unions <= limits.unions
    }
}

#[test]
fn the_budget_counts_strict_tools_optional_properties_and_unions() {
    let tools = json!([
        {"name": "a", "description": "A.", "strict": true, "input_schema": {
            "type": "object", "additionalProperties": false, "required": ["x"],
            "properties": {
                "x": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "y": {"type": ["string", "null"]},
                "z": {"type": "object", "additionalProperties": false,
                      "properties": {"w": {"type": "string"}}}
            }
        }},
        {"name": "b", "description": "B.", "strict": false, "input_schema": {
            "type": "object", "properties": {"v": {"type": ["string", "null"]}}
        }}
    ]);
    let expected = AnthropicBudget {
        strict_tools: 1,
        optional: 3,
        unions: 2,
    };
    assert_eq!(AnthropicBudget::of(&tools), expected);
}

#[test]
fn every_definition_follows_its_dialect() {
    let registry = corpus::registry();
    let mut problems = Vec::new();
    for provider in Provider::ALL {
        let definitions = provider.definitions(&registry).expect("definitions");
        problems.extend(check_definitions(
            provider,
            definitions.as_json(),
            definitions.not_strict(),
        ));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn strict_mode_holds_for_most_of_the_corpus() {
    // The checker only holds strict tools to the strict rules: were every
    // tool to fall back, it would check nothing. The fallbacks are the
    // types strict mode cannot say (a map, a tuple, any JSON value, a
    // recursive type for Anthropic), which most of `corpus/shapes.rs` is
    // made of, and Anthropic's request budget; `not_strict.txt` names them.
    let registry = corpus::registry();
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::OpenAiResponses { strict: true },
        Provider::Anthropic { strict: true },
        Provider::Vllm { strict: true },
    ] {
        let definitions = provider.definitions(&registry).expect("definitions");
        let strict = tool_list(provider, definitions.as_json())
            .into_iter()
            .filter(|tool| strict_of(provider, tool) == Some(true))
            .count();
        assert!(
            strict >= corpus::TOOLS / 2,
            "{provider}: only {strict} of {} tools strict: {:?}",
            corpus::TOOLS,
            definitions.not_strict()
        );
    }
}

// ---------------------------------------------------------------------------
// The checker catches what it should

/// An OpenAI Chat tool entry around `parameters`.
fn openai_tool(name: &str, parameters: Value, strict: bool) -> Value {
    json!({"type": "function", "function": {
        "name": name, "description": "A tool.", "parameters": parameters, "strict": strict
    }})
}

/// Asserts that the checker finds, in `definition` for `provider`, a
/// problem whose text contains `expected`.
#[track_caller]
fn assert_caught(provider: Provider, definition: &Value, expected: &str) {
    let problems = check_tool(provider, definition);
    assert!(
        problems.iter().any(|p| p.contains(expected)),
        "{provider}: expected a problem with {expected:?} in {definition}, got {problems:#?}"
    );
}

#[test]
fn the_checker_passes_a_good_schema() {
    let good = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "description": "A property named title."},
            "format": {"type": ["string", "null"], "format": "date-time"},
        },
        "required": ["title", "format"],
        "additionalProperties": false
    });
    let strict = Provider::OpenAiChat { strict: true };
    assert_eq!(
        check_tool(strict, &openai_tool("good", good.clone(), true)),
        Vec::<String>::new()
    );
    let gemini = json!({"name": "good", "description": "A tool.", "parametersJsonSchema": good});
    assert_eq!(
        check_tool(Provider::Gemini { openapi: false }, &gemini),
        Vec::<String>::new()
    );
}

#[test]
fn the_checker_catches_openai_strict_violations() {
    let strict = Provider::OpenAiChat { strict: true };
    let tool = |parameters: Value| openai_tool("bad", parameters, true);
    let open =
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    assert_caught(strict, &tool(open), "without `additionalProperties: false`");
    let optional = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    assert_caught(strict, &tool(optional), "is not every property");
    let nested = json!({
        "type": "object", "additionalProperties": false, "required": ["inner"],
        "properties": {"inner": {"type": "object", "properties": {}}}
    });
    assert_caught(
        strict,
        &tool(nested),
        "/properties/inner`: an object without",
    );
    let with = |property: Value| {
        tool(json!({
            "type": "object", "additionalProperties": false, "required": ["a"],
            "properties": {"a": property},
            "$defs": {"A": {"type": "string"}}
        }))
    };
    assert_caught(
        strict,
        &with(json!({"oneOf": [{"type": "string"}]})),
        "`oneOf`",
    );
    assert_caught(
        strict,
        &with(json!({"allOf": [{"type": "string"}]})),
        "`allOf`",
    );
    assert_caught(strict, &with(json!({"type": "string", "not": {}})), "`not`");
    assert_caught(strict, &with(json!({"type": "string", "if": {}})), "`if`");
    assert_caught(
        strict,
        &with(json!({"$ref": "#/$defs/A", "description": "x"})),
        "`$ref` with sibling",
    );
    assert_caught(
        strict,
        &with(json!({"$ref": "#/$defs/B"})),
        "does not resolve",
    );
    assert_caught(
        strict,
        &with(json!({"type": "integer", "default": 0})),
        "`default`",
    );
    assert_caught(
        strict,
        &with(json!({"type": "string", "maxLength": 3})),
        "`maxLength`",
    );
    assert_caught(
        strict,
        &with(json!({"type": "string", "minLength": 3})),
        "`minLength`",
    );
    let set = json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true});
    assert_caught(strict, &with(set), "`uniqueItems`");
    let tuple =
        json!({"type": "array", "items": {"type": "string"}, "prefixItems": [{"type": "string"}]});
    assert_caught(strict, &with(tuple), "`prefixItems`");
    let keyed = json!({"type": "object", "patternProperties": {"^a": {"type": "string"}}});
    assert_caught(strict, &with(keyed), "`patternProperties`");
    let named = json!({"type": "object", "propertyNames": {"pattern": "^a"}});
    assert_caught(strict, &with(named), "`propertyNames`");
    assert_caught(
        strict,
        &with(json!({"type": "string", "format": "uri"})),
        "`format` \"uri\"",
    );
    assert_caught(
        strict,
        &with(json!({"type": "integer", "format": "int32"})),
        "`format` \"int32\"",
    );
    assert_caught(
        strict,
        &with(json!({"type": "array"})),
        "without typed `items`",
    );
    assert_caught(
        strict,
        &with(json!({"type": "array", "items": {}})),
        "without typed `items`",
    );
    assert_caught(
        strict,
        &with(json!({"description": "anything"})),
        "without a type",
    );
    assert_caught(strict, &with(json!(true)), "boolean schema");
    assert_caught(
        strict,
        &with(json!({"type": "string", "pattern": "^(?!x)"})),
        "look-around",
    );
    // The same schema with `"strict": false` is not held to strict rules.
    let loose = openai_tool(
        "loose",
        json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}),
        false,
    );
    assert_eq!(check_tool(strict, &loose), Vec::<String>::new());
}

#[test]
fn the_checker_catches_violations_of_every_provider() {
    let object = json!({"type": "object", "properties": {}});
    // Names.
    let openai = Provider::OpenAiChat { strict: false };
    assert_caught(
        openai,
        &openai_tool("a.b", object.clone(), false),
        "breaks the provider's rule",
    );
    assert_caught(
        openai,
        &openai_tool(&"x".repeat(65), object.clone(), false),
        "breaks the provider's rule",
    );
    let gemini = Provider::Gemini { openapi: false };
    let declaration = |name: &str, schema: Value| json!({"name": name, "description": "A tool.", "parametersJsonSchema": schema});
    assert_caught(
        gemini,
        &declaration("1tool", object.clone()),
        "breaks the provider's rule",
    );
    let mcp_tool = |name: &str, schema: Value| {
        json!({"name": name, "description": "A tool.", "inputSchema": schema, "annotations": {
            "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false
        }})
    };
    assert_caught(
        Provider::Mcp,
        &mcp_tool("a:b", object.clone()),
        "breaks the provider's rule",
    );
    assert!(check_tool(Provider::Mcp, &mcp_tool("a.b", object.clone())).is_empty());
    assert_caught(
        Provider::Mcp,
        &json!({"name": "a", "description": "A tool.", "inputSchema": object.clone(),
                "annotations": {"readOnlyHint": false}}),
        "the hints that differ from MCP's defaults",
    );
    // The root.
    assert_caught(
        openai,
        &openai_tool("t", json!({"type": "string"}), false),
        "root's `type`",
    );
    assert_caught(
        openai,
        &openai_tool("t", json!({"anyOf": [object.clone()]}), false),
        "root's `type`",
    );
    let with_schema =
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"});
    assert_caught(
        openai,
        &openai_tool("t", with_schema.clone(), false),
        "`$schema`",
    );
    assert_caught(Provider::Mcp, &mcp_tool("t", with_schema), "`$schema`");
    // The entry's shape.
    assert_caught(
        openai,
        &json!({"type": "function", "name": "t", "parameters": object.clone()}),
        "not `{\"type\"",
    );
    // Anthropic strict.
    let anthropic = Provider::Anthropic { strict: true };
    let anthropic_tool = |property: Value| {
        json!({"name": "t", "description": "A tool.", "strict": true, "input_schema": {
            "type": "object", "additionalProperties": false, "properties": {"a": property}
        }})
    };
    let open = json!({"type": "object", "properties": {}});
    assert_caught(
        anthropic,
        &anthropic_tool(open),
        "without `additionalProperties: false`",
    );
    for keyword in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        assert_caught(
            anthropic,
            &anthropic_tool(json!({"type": "integer", keyword: 1})),
            keyword,
        );
    }
    for keyword in ["minLength", "maxLength"] {
        assert_caught(
            anthropic,
            &anthropic_tool(json!({"type": "string", keyword: 1})),
            keyword,
        );
    }
    let array = |keyword: &str, value: Value| json!({"type": "array", "items": {"type": "string"}, keyword: value});
    assert_caught(
        anthropic,
        &anthropic_tool(array("maxItems", json!(3))),
        "`maxItems`",
    );
    assert_caught(
        anthropic,
        &anthropic_tool(array("uniqueItems", json!(true))),
        "`uniqueItems`",
    );
    assert_caught(
        anthropic,
        &anthropic_tool(array("minItems", json!(2))),
        "`minItems` 2",
    );
    assert!(check_tool(anthropic, &anthropic_tool(array("minItems", json!(1)))).is_empty());
    assert_caught(anthropic, &anthropic_tool(json!({"$ref": "#"})), "`$ref`");
    // Gemini.
    let gemini_with = |property: Value| {
        declaration(
            "t",
            json!({"type": "object", "properties": {"title": property}, "required": ["title"]}),
        )
    };
    assert!(
        check_tool(gemini, &gemini_with(json!({"type": "string"}))).is_empty(),
        "a property named `title`"
    );
    for (bad, keyword) in [
        (json!({"type": "string", "title": "T"}), "`title`"),
        (json!({"type": "string", "const": "x"}), "`const`"),
        (json!({"oneOf": [{"type": "string"}]}), "`oneOf`"),
        (json!({"allOf": [{"type": "string"}]}), "`allOf`"),
        (json!({"type": "string", "minLength": 1}), "`minLength`"),
        (
            json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true}),
            "`uniqueItems`",
        ),
        (
            json!({"type": "integer", "format": "uint8"}),
            "`format` \"uint8\"",
        ),
        (
            json!({"type": "string", "format": "email"}),
            "`format` \"email\"",
        ),
        (
            json!({"type": "integer", "exclusiveMinimum": 0}),
            "`exclusiveMinimum`",
        ),
        (
            json!({"type": "array", "prefixItems": [{"type": "string"}]}),
            "`prefixItems`",
        ),
        (
            json!({"type": "object", "properties": {}, "propertyOrdering": []}),
            "`propertyOrdering`",
        ),
    ] {
        assert_caught(gemini, &gemini_with(bad), keyword);
    }
    let referring = json!({
        "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}
    });
    assert_caught(gemini, &declaration("t", referring.clone()), "`$ref`");
    assert_caught(gemini, &declaration("t", referring), "`$defs`");
    let unknown = json!({"type": "object", "properties": {}, "required": ["ghost"]});
    assert_caught(gemini, &declaration("t", unknown), "`required`");
    // Gemini's OpenAPI form.
    let legacy = Provider::Gemini { openapi: true };
    let legacy_with = |property: Value| json!({"name": "t", "description": "A tool.", "parameters": {"type": "OBJECT", "properties": {"a": property}}});
    assert!(
        check_tool(
            legacy,
            &legacy_with(json!({"type": "STRING", "nullable": true}))
        )
        .is_empty()
    );
    assert_caught(
        legacy,
        &legacy_with(json!({"type": "string"})),
        "upper-case",
    );
    assert_caught(
        legacy,
        &legacy_with(json!({"type": ["STRING", "NULL"]})),
        "upper-case",
    );
    assert_caught(legacy, &legacy_with(json!({"$ref": "#/defs/A"})), "`$ref`");
    assert_caught(
        legacy,
        &legacy_with(json!({"type": "INTEGER", "enum": [1, 2]})),
        "not a list of strings",
    );
    let map = json!({"type": "OBJECT", "additionalProperties": {"type": "STRING"}});
    assert_caught(legacy, &legacy_with(map), "`additionalProperties`");
    let choice = json!({"description": "x", "anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]});
    assert_caught(legacy, &legacy_with(choice), "`anyOf` beside");
    let dashed = json!({"type": "OBJECT", "properties": {"per-page": {"type": "INTEGER"}}});
    assert_caught(legacy, &legacy_with(dashed), "property name `per-page`");
    let lower_root =
        json!({"name": "t", "description": "A tool.", "parameters": {"type": "object"}});
    assert_caught(legacy, &lower_root, "root's `type` is not `OBJECT`");
    // MCP.
    let nullable =
        json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}});
    assert_caught(Provider::Mcp, &mcp_tool("t", nullable), "`nullable`");
    // Groq and Ollama: no `strict`; Ollama: only the fields it reads.
    let loose_chat = openai_tool("t", object.clone(), false);
    assert_caught(Provider::Groq, &loose_chat, "`function` is not");
    assert_caught(Provider::Ollama, &loose_chat, "`function` is not");
    let ollama_tool = |schema: Value| json!({"type": "function", "function": {"name": "t", "description": "A tool.", "parameters": schema}});
    assert!(check_tool(Provider::Ollama, &ollama_tool(object.clone())).is_empty());
    let ranged = json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}});
    assert_caught(
        Provider::Ollama,
        &ollama_tool(ranged),
        "`minimum` is not a field Ollama reads",
    );
    let described_root = json!({"type": "object", "properties": {}, "description": "x"});
    assert_caught(
        Provider::Ollama,
        &ollama_tool(described_root),
        "`description` is not a field Ollama reads",
    );
    let referenced = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}});
    assert_caught(Provider::Ollama, &ollama_tool(referenced), "`$ref`");
}

#[test]
fn the_checker_refuses_the_loose_schemas_as_strict_ones() {
    // The corpus's schemas as sent without strict mode, claimed strict:
    // every one breaks some strict rule (an open object, an optional
    // property, a schemars `format`, ...), and the checker must say so.
    let registry = corpus::registry();
    // Anthropic takes as they are the tool without parameters,
    // `store_value` (a closed root, nothing but descriptions below it) and
    // `allow_address` (its `ip` format, outside JSON Schema's, now said in
    // the description);
    // OpenAI wants even the former's `"required": []` spelled out, and
    // takes `convert_quantity` (numbers, all required, in a closed root)
    // now that the loose form carries no schemars `format` either.
    let cases: [(Provider, Provider, &[&str]); 2] = [
        (
            Provider::OpenAiChat { strict: false },
            Provider::OpenAiChat { strict: true },
            &["convert_quantity"],
        ),
        (
            Provider::Anthropic { strict: false },
            Provider::Anthropic { strict: true },
            &["store_value", "allow_address", "ping"],
        ),
    ];
    for (loose, strict, expected) in cases {
        let definitions = loose.definitions(&registry).expect("definitions");
        let mut passed = Vec::new();
        for tool in tool_list(loose, definitions.as_json()) {
            let mut claimed = tool.clone();
            match strict {
                Provider::OpenAiChat { .. } => claimed["function"]["strict"] = Value::Bool(true),
                _ => claimed["strict"] = Value::Bool(true),
            }
            if check_tool(strict, &claimed).is_empty() {
                passed.extend(name_of(strict, tool).map(str::to_owned));
            }
        }
        assert_eq!(passed, expected, "{strict}: passed as strict");
    }
}

#[test]
fn the_checker_catches_strict_flags_that_disagree_with_not_strict() {
    let provider = Provider::OpenAiChat { strict: true };
    let schema =
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false});
    let tools = json!([
        openai_tool("fell_back", schema.clone(), false),
        openai_tool("kept", schema, true)
    ]);
    let problems = check_definitions(provider, &tools, &[]);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`fell_back`") && p.contains("not listed")),
        "{problems:#?}"
    );
    let listed = |tool: &str, reason: &str| NotStrict {
        tool: tool.into(),
        blockers: vec![Blocker {
            at: String::new(),
            reason: reason.into(),
        }],
    };
    let problems = check_definitions(
        provider,
        &tools,
        &[listed("fell_back", "a map"), listed("kept", "x")],
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`kept`") && p.contains("listed")),
        "{problems:#?}"
    );
    let problems = check_definitions(provider, &tools, &[listed("fell_back", " ")]);
    assert!(
        problems.iter().any(|p| p.contains("without a reason")),
        "{problems:#?}"
    );
    assert!(check_definitions(provider, &tools, &[listed("fell_back", "a map")]).is_empty());
}

// ---------------------------------------------------------------------------
// JSON Schema 2020-12

#[test]
fn every_json_schema_dialect_is_valid_json_schema_2020_12() {
    let registry = corpus::registry();
    let mut invalid = Vec::new();
    for provider in Provider::ALL.into_iter().filter(|p| is_json_schema(*p)) {
        let definitions = provider.definitions(&registry).expect("definitions");
        for tool in tool_list(provider, definitions.as_json()) {
            let name = name_of(provider, tool).unwrap_or_default();
            let schema = schema_of(provider, tool).expect("a schema");
            if let Err(error) = jsonschema::draft202012::meta::validate(schema) {
                invalid.push(format!(
                    "{provider} `{name}`: {error} at `{}`",
                    error.instance_path()
                ));
            }
            if let Some(output) = tool.get("outputSchema")
                && let Err(error) = jsonschema::draft202012::meta::validate(output)
            {
                invalid.push(format!("{provider} `{name}` output: {error}"));
            }
        }
    }
    assert!(invalid.is_empty(), "{}", invalid.join("\n"));
    // The meta-schema check is not vacuous.
    assert!(jsonschema::draft202012::meta::validate(&json!({"type": "strnig"})).is_err());
    assert!(jsonschema::draft202012::meta::validate(&json!({"required": "a"})).is_err());
}

// ---------------------------------------------------------------------------
// No rewrite shuts out a valid call

/// The corpus's input schemas by tool name.
fn own_schema<'r>(registry: &'r ToolRegistry, name: &str) -> &'r Value {
    &registry
        .tool_definitions()
        .iter()
        .find(|d| &*d.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
        .input_schema
}

/// The schema `provider` sends for the tool `name`.
fn provider_schema(tools: &Value, provider: Provider, name: &str) -> Value {
    tool_list(provider, tools)
        .into_iter()
        .find(|tool| name_of(provider, tool) == Some(name))
        .and_then(|tool| schema_of(provider, tool))
        .cloned()
        .unwrap_or_else(|| panic!("{provider}: no tool `{name}`"))
}

/// The problems of validating `arguments` against `schema`.
fn validation_errors(schema: &Value, arguments: &Value) -> Vec<String> {
    let validator = jsonschema::draft202012::new(schema).expect("a schema that compiles");
    validator
        .iter_errors(arguments)
        .map(|e| format!("{e} at `{}`", e.instance_path()))
        .collect()
}

#[tokio::test]
async fn the_example_arguments_are_accepted_by_the_tools() {
    let registry = corpus::registry();
    let ctx = ToolContext::new(());
    let examples = corpus::full_arguments()
        .into_iter()
        .chain(corpus::minimal_arguments());
    let mut tried = BTreeSet::new();
    for (name, arguments) in examples {
        let result = registry.call(&ctx, name, arguments.clone()).await;
        assert!(
            !result.is_error(),
            "`{name}` {arguments}: {}",
            result.model_text()
        );
        tried.insert(name);
    }
    assert_eq!(tried.len(), corpus::TOOLS, "an example for every tool");
}

#[test]
fn arguments_the_tools_accept_fit_every_dialect() {
    let registry = corpus::registry();
    let mut problems = Vec::new();
    for provider in Provider::ALL.into_iter().filter(|p| is_json_schema(*p)) {
        let definitions = provider.definitions(&registry).expect("definitions");
        let tools = definitions.as_json();
        // OpenAI's strict form requires every property: only the full
        // arguments fit a tool sent strict there.
        let strict_openai = |name: &str| {
            matches!(
                provider,
                Provider::OpenAiChat { strict: true }
                    | Provider::OpenAiResponses { strict: true }
                    | Provider::Vllm { strict: true }
            ) && !definitions.not_strict().iter().any(|n| n.tool == name)
        };
        let full = corpus::full_arguments().into_iter();
        let minimal = corpus::minimal_arguments()
            .into_iter()
            .filter(|(name, _)| !strict_openai(name));
        for (name, arguments) in full.chain(minimal) {
            assert!(validation_errors(own_schema(&registry, name), &arguments).is_empty());
            let schema = provider_schema(tools, provider, name);
            for error in validation_errors(&schema, &arguments) {
                problems.push(format!("{provider} `{name}` {arguments}: {error}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------
// Shapes that once went wrong, each kept by one test

/// How to deliver a notice: flattened into [`Notice`].
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Channel {
    /// By e-mail.
    Email {
        /// The address.
        address: String,
    },
    /// By text message.
    Sms {
        /// The phone number.
        number: String,
    },
}

/// A notice: its own property beside those of a flattened enum, which
/// schemars writes as `properties` and a `oneOf` in the same object.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Notice {
    /// The text.
    text: String,
    /// How to deliver it.
    #[serde(flatten)]
    channel: Channel,
}

/// Post a notice.
#[tool(tier = Observe)]
fn post_notice(
    /// The notice.
    notice: Notice,
) -> String {
    serde_json::to_string(&notice).unwrap_or_default()
}

/// Arguments `post_notice` accepts.
fn a_notice() -> Value {
    json!({"notice": {"text": "Lunch is ready", "email": {"address": "ada@example.com"}}})
}

#[tokio::test]
async fn a_flattened_enum_is_accepted_by_the_tool() {
    let registry: ToolRegistry = ToolRegistry::new().with(PostNotice);
    let result = registry
        .call(&ToolContext::new(()), "post_notice", a_notice())
        .await;
    assert!(!result.is_error(), "{}", result.model_text());
    assert!(validation_errors(own_schema(&registry, "post_notice"), &a_notice()).is_empty());
    // OpenAI's strict mode sees that it cannot close such an object, and
    // falls back.
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::OpenAiResponses { strict: true },
    ] {
        let definitions = provider.definitions(&registry).expect("definitions");
        assert_eq!(definitions.not_strict().len(), 1, "{provider}");
    }
}

#[test]
fn anthropic_strict_keeps_a_flattened_enum_satisfiable() {
    // Closing both `notice` ({"properties": {"text"}, "anyOf": [..]}) and
    // each of its choices would refuse `email` outside and `text` inside:
    // no argument could pass. Strict tool use must fall back, as OpenAI's
    // strict mode does.
    let registry: ToolRegistry = ToolRegistry::new().with(PostNotice);
    let provider = Provider::Anthropic { strict: true };
    let definitions = provider.definitions(&registry).expect("definitions");
    let schema = provider_schema(definitions.as_json(), provider, "post_notice");
    let errors = validation_errors(&schema, &a_notice());
    let strict = definitions.not_strict().is_empty();
    assert!(
        !strict || errors.is_empty(),
        "sent strict, yet the arguments the tool takes do not fit: {errors:?}\n{}",
        serde_json::to_string_pretty(&schema).expect("serialize")
    );
}

#[test]
fn gemini_openapi_keeps_the_properties_beside_a_flattened_enum() {
    // With `anyOf` alone in its node, each choice must carry `notice`'s own
    // `text` (required) beside its `email` or `sms`, or the model never
    // hears of it.
    let registry: ToolRegistry = ToolRegistry::new().with(PostNotice);
    let provider = Provider::Gemini { openapi: true };
    let definitions = provider.definitions(&registry).expect("definitions");
    let schema = provider_schema(definitions.as_json(), provider, "post_notice");
    let notice = &schema["properties"]["notice"];
    let branches = notice["anyOf"].as_array().expect("a choice");
    for branch in branches {
        assert!(
            branch["properties"].get("text").is_some()
                && required_names(branch.as_object().expect("object")).contains(&"text"),
            "a branch without the required `text`: {branch}"
        );
    }
}

/// Arguments of one documented data enum, which schemars writes as a
/// `oneOf`.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Pick {
    /// How to deliver.
    channel: Channel,
}

/// A tool of any name whose input is [`Pick`]: many tools of one shape.
struct Picker(String);

impl TypedTool for Picker {
    type Input = Value;
    type Output = ToolResult;

    fn name(&self) -> &str {
        &self.0
    }

    fn description(&self) -> &str {
        "Pick a channel."
    }

    fn input_schema(&self) -> Value {
        tool_core::schema::input_schema_for::<Pick>()
    }

    async fn execute(&self, _ctx: &ToolContext, _input: Value) -> ToolResult {
        ToolResult::text("picked")
    }
}

#[test]
fn anthropic_strict_counts_a_one_of_as_a_union() {
    // `channel` is `{"description", "oneOf": [..]}` in the schema and
    // `{"description", "anyOf": [..]}` when sent: a union either way, so no
    // more than 16 such tools may be strict in one request.
    let registry = (0..17).fold(ToolRegistry::new(), |registry, i| {
        registry.with(Picker(format!("pick_{i}")))
    });
    let definitions = Provider::Anthropic { strict: true }
        .definitions(&registry)
        .expect("definitions");
    let spent = AnthropicBudget::of(definitions.as_json());
    assert!(
        spent.within_limits(),
        "{spent:?} for limits {:?}",
        AnthropicBudget::LIMITS
    );
    // The corpus: `draw_shape`'s `shape` and `perform_action`'s `action` are
    // such `oneOf`s, and count among the request's unions.
    let corpus = corpus::registry();
    let definitions = Provider::Anthropic { strict: true }
        .definitions(&corpus)
        .expect("definitions");
    let spent = AnthropicBudget::of(definitions.as_json());
    assert!(
        spent.within_limits(),
        "corpus: {spent:?} for limits {:?}",
        AnthropicBudget::LIMITS
    );
}

#[test]
fn anthropic_strict_optional_properties_are_not_null_unions() {
    // Optional by omission (docs/providers.md 7.2): `get_weather`'s
    // `location.country` is `{"type": "string"}`, not `["string", "null"]`,
    // and `units` its enum, not `anyOf: [.., {"type": "null"}]`; null
    // choices would use up the budget of 16 unions.
    let provider = Provider::Anthropic { strict: true };
    let registry = corpus::registry();
    let definitions = provider.definitions(&registry).expect("definitions");
    let mut nullable = Vec::new();
    for tool in tool_list(provider, definitions.as_json()) {
        if strict_of(provider, tool) != Some(true) {
            continue;
        }
        let name = name_of(provider, tool).unwrap_or_default();
        for node in nodes(schema_of(provider, tool).expect("a schema")) {
            let Some(map) = node.schema.as_object() else {
                continue;
            };
            let required = required_names(map);
            let properties = map.get("properties").and_then(Value::as_object);
            for (property, schema) in properties.into_iter().flatten() {
                if !required.contains(&property.as_str()) && accepts_null(schema) {
                    nullable.push(format!("`{name}` {}/properties/{property}", node.at));
                }
            }
        }
    }
    assert!(
        nullable.is_empty(),
        "optional and nullable:\n{}",
        nullable.join("\n")
    );
}

/// Whether a schema spells out that it accepts `null`.
fn accepts_null(schema: &Value) -> bool {
    let null = Value::from("null");
    let in_type = match schema.get("type") {
        Some(Value::Array(types)) => types.contains(&null),
        Some(t) => *t == null,
        None => false,
    };
    let in_choice = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(accepts_null));
    in_type || in_choice
}

/// The top-level properties of the tool `name` in a provider's form: none
/// for a tool without arguments whose declaration has no schema (Gemini's
/// OpenAPI form).
fn properties_in<'d>(tools: &'d Value, provider: Provider, name: &str) -> &'d Map<String, Value> {
    static NONE: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
    let tool = tool_list(provider, tools)
        .into_iter()
        .find(|tool| name_of(provider, tool) == Some(name))
        .unwrap_or_else(|| panic!("{provider}: no tool `{name}`"));
    match schema_of(provider, tool) {
        None => &NONE,
        Some(schema) => schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{provider}: no properties for `{name}`")),
    }
}

/// Each top-level property of each corpus tool, as derived (MCP's form,
/// which keeps the schema as it is) and as Gemini's OpenAPI form writes it:
/// `check` returns what is wrong with the pair, if anything; all of it.
fn openapi_property_problems(check: impl Fn(&Value, &Value) -> Option<String>) -> Vec<String> {
    let registry = corpus::registry();
    let mcp = Provider::Mcp.definitions(&registry).expect("definitions");
    let legacy = Provider::Gemini { openapi: true };
    let openapi = legacy.definitions(&registry).expect("definitions");
    let mut problems = Vec::new();
    for definition in registry.tool_definitions() {
        let name = &*definition.name;
        let original = properties_in(mcp.as_json(), Provider::Mcp, name);
        let written = properties_in(openapi.as_json(), legacy, name);
        for (property, schema) in original {
            let problem = check(schema, &written[property]);
            problems.extend(problem.map(|problem| format!("`{name}`.{property}: {problem}")));
        }
    }
    problems
}

#[test]
fn gemini_openapi_keeps_the_type_of_every_property() {
    // `draw_shape`'s `outline` (`Option<Shape>`) and `search_documents`'
    // `sortOrder` (`Option<SortOrder>`) are `anyOf: [{"oneOf": [..]},
    // {"type": "null"}]`: once the `null` goes (into `nullable`), the
    // `oneOf` left must still become a choice, not a note in a description.
    let untyped = openapi_property_problems(|schema, written| {
        // A `serde_json::Value` has no type to keep.
        let any_value = schema
            .as_object()
            .is_some_and(|m| m.keys().all(|k| k == "description"));
        let typed = ["type", "anyOf", "enum"]
            .iter()
            .any(|k| written.get(*k).is_some());
        (!any_value && !typed).then(|| written.to_string())
    });
    assert!(
        untyped.is_empty(),
        "properties without a type:\n{}",
        untyped.join("\n")
    );
}

#[test]
fn gemini_openapi_keeps_the_description_of_a_choice() {
    // `draw_shape`'s `shape` ("The shape."), `perform_action`'s `action`
    // ("What to do."), `find_target`'s `target` ("What to find."): with
    // `anyOf` alone in its node, the parameter's doc comment must reach the
    // model in each choice, beside the choice's own.
    let lost = openapi_property_problems(|schema, written| {
        let description = schema.get("description").and_then(Value::as_str)?;
        let says = |s: &Value| {
            s.get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains(description))
        };
        let kept = match written.get("anyOf").and_then(Value::as_array) {
            Some(branches) => branches.iter().all(says),
            None => says(written),
        };
        (!kept).then(|| format!("{description:?} missing from {written}"))
    });
    assert!(lost.is_empty(), "descriptions lost:\n{}", lost.join("\n"));
}
