//! Each dialect's rules for one node of a schema, as docs/providers.md
//! states them (sections 1.3, 2.4, 3.2, 3.3, 7 and 11.2): the keywords and
//! formats a provider takes, and what its strict mode requires.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::walk::{has_type, is_object, property_names, required_names};

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

/// What every dialect wants of a node: no `$schema`, `required` a list of
/// its own properties, `$ref`s that resolve.
pub(crate) fn check_common(root: &Value, map: &Map<String, Value>, say: &mut impl FnMut(String)) {
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
pub(crate) fn check_openai_strict(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
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
pub(crate) fn check_anthropic_strict(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
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
pub(crate) fn check_gemini(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
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
pub(crate) fn check_gemini_openapi(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
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
pub(crate) fn check_mcp(map: &Map<String, Value>, say: &mut impl FnMut(String)) {
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
pub(crate) fn check_ollama(map: &Map<String, Value>, root: bool, say: &mut impl FnMut(String)) {
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
