//! What every provider's dialect of JSON Schema is made with: the cleanup
//! they all get, references, strict mode's shared rules, the subset the
//! OpenAPI-like dialects take, compaction, formats. Each dialect itself lives
//! with its provider family (`provider::<family>::dialect`), made of these.
//!
//! Every pass works on the schema's tree (never on its text): it walks the
//! subschemas by keyword, so a property that happens to be called `title` or
//! `format` is a property, not a keyword.

pub(crate) mod compact;
pub(crate) mod formats;
pub(crate) mod refs;
pub(crate) mod strict;
pub(crate) mod subset;
pub(crate) mod walk;

#[cfg(test)]
pub(crate) mod fixtures;

use serde_json::{Map, Value};

/// Why a schema cannot take a dialect's strict form: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unfit {
    /// The JSON Pointer of the subschema, in the tool's input schema.
    pub(crate) at: String,
    pub(crate) reason: String,
}

impl Unfit {
    pub(crate) fn new(at: &str, reason: impl Into<String>) -> Self {
        Self {
            at: at.to_owned(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "at `{}`: {}", self.at, self.reason)
        }
    }
}

/// The cleanup every provider but MCP gets (docs/providers.md 7.0): no
/// `$schema`, no root `title` (the tool's name says it), no
/// `x-mcp-header`, a root that is an object schema,
/// `true` subschemas (a `serde_json::Value` field) spelled `{}`, and nothing
/// said twice (see [`compact::compact`]).
pub(crate) fn plain(schema: &Value) -> Value {
    let mut schema = object_root(schema);
    if let Some(root) = schema.as_object_mut() {
        root.remove("$schema");
        root.remove("title");
    }
    // What an MCP client mirrors into a header (SEP-2243) is no model's
    // business.
    let mut unmirrored = |node: &mut Value, _: &str| {
        // Kept in order: `Map::remove` would move the last key here.
        if let Value::Object(map) = node
            && map.contains_key(MCP_HEADER)
        {
            map.retain(|keyword, _| keyword != MCP_HEADER);
        }
    };
    unmirrored(&mut schema, "");
    walk::each_subschema(&mut schema, "", &mut unmirrored);
    compact::compact(&mut schema);
    schema
}

/// The keyword that names the HTTP header an MCP client mirrors a
/// parameter into (SEP-2243): MCP's alone.
const MCP_HEADER: &str = "x-mcp-header";

/// The schema as written, for a dialect that is JSON Schema 2020-12
/// itself (MCP's): [`plain`]'s root and `{}`, and only what a keyword's
/// default or a name already says left out; `$schema`, the root `title`
/// and every definition (`$defs` with their `$anchor`s) stay where they
/// are.
pub(crate) fn as_written(schema: &Value) -> Value {
    let mut schema = object_root(schema);
    compact::tidy_all(&mut schema);
    schema
}

/// A root that is an object schema, and `true` subschemas spelled `{}`.
fn object_root(schema: &Value) -> Value {
    let mut schema = match schema {
        Value::Object(_) => schema.clone(),
        // `true`, `{}`: no arguments are described, any are accepted.
        _ => Value::Object(Map::new()),
    };
    if let Some(root) = schema.as_object_mut() {
        if !root.contains_key("type") && !walk::is_composite(root) {
            root.insert("type".into(), "object".into());
        }
        if root.get("type").and_then(Value::as_str) == Some("object")
            && !root.contains_key("properties")
        {
            root.insert("properties".into(), Value::Object(Map::new()));
        }
    }
    walk::each_subschema(&mut schema, "", &mut |node, _| {
        if *node == Value::Bool(true) {
            *node = Value::Object(Map::new());
        }
    });
    schema
}

/// The schema for the providers that take JSON Schema as it is (OpenAI's
/// and Anthropic's outside strict mode, Groq, vLLM): [`plain`], with only
/// the formats JSON Schema defines (see [`formats::standard_formats`]).
pub(crate) fn json_schema(schema: &Value) -> Value {
    let mut schema = plain(schema);
    formats::standard_formats(&mut schema);
    schema
}

/// Appends what a removed keyword said to the schema's description, so the
/// model still reads the constraint: `The title. (maxLength: 80)`.
pub(crate) fn describe(node: &mut Map<String, Value>, removed: &[(String, Value)]) {
    if removed.is_empty() {
        return;
    }
    let said = removed
        .iter()
        .map(|(keyword, value)| format!("{keyword}: {value}"))
        .collect::<Vec<_>>()
        .join(", ");
    let description = match node.get("description").and_then(Value::as_str) {
        Some(text) if !text.is_empty() => format!("{text} ({said})"),
        _ => said,
    };
    node.insert("description".into(), Value::String(description));
}

/// Keeps the keywords `keep` accepts and removes the others, keeping what
/// the removed ones said in the description (see [`said_aloud`]).
pub(crate) fn keep_only(node: &mut Map<String, Value>, mut keep: impl FnMut(&str, &Value) -> bool) {
    let dropped: Vec<String> = node
        .iter()
        .filter(|(keyword, value)| !keep(keyword, value))
        .map(|(keyword, _)| keyword.clone())
        .collect();
    let removed: Vec<(String, Value)> = dropped
        .into_iter()
        .filter_map(|keyword| node.remove(&keyword).map(|value| (keyword, value)))
        .collect();
    let said: Vec<(String, Value)> = removed
        .into_iter()
        .filter(|(keyword, value)| said_aloud(keyword, value, node))
        .collect();
    describe(node, &said);
}

/// Keywords that only annotate: dropped without a word.
const ANNOTATIONS: [&str; 9] = [
    "$comment",
    "$id",
    "$anchor",
    "$schema",
    "title",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Whether a removed keyword said something the model should still read:
/// not an annotation, not a vendor extension, not a closed object's
/// `additionalProperties: false` (the model sends what the properties say
/// anyway), not Gemini's `propertyOrdering` (the order of the properties
/// says it), not a number's format (which only restates its Rust type).
pub(crate) fn said_aloud(keyword: &str, value: &Value, node: &Map<String, Value>) -> bool {
    if ANNOTATIONS.contains(&keyword) || keyword.starts_with("x-") || keyword == "propertyOrdering"
    {
        return false;
    }
    if keyword == "additionalProperties" && *value == Value::Bool(false) {
        return false;
    }
    if keyword == "format" {
        let numeric = node.get("type").is_some_and(|t| {
            let is_number = |t: &Value| {
                matches!(
                    t.as_str(),
                    Some("integer" | "number" | "INTEGER" | "NUMBER")
                )
            };
            is_number(t) || t.as_array().is_some_and(|ts| ts.iter().any(is_number))
        });
        return !numeric && value.is_string();
    }
    true
}

/// `oneOf` as `anyOf`: the providers that take one take the other, and for
/// arguments a model produces the two mean the same (schemars' variants do
/// not overlap).
pub(crate) fn one_of_as_any_of(node: &mut Map<String, Value>) {
    if let Some(Value::Array(one_of)) = node.remove("oneOf") {
        match node.get_mut("anyOf") {
            Some(Value::Array(any_of)) => any_of.extend(one_of),
            _ => {
                node.insert("anyOf".into(), Value::Array(one_of));
            }
        }
    }
}

/// Whether a schema already accepts `null`.
pub(crate) fn accepts_null(node: &Map<String, Value>) -> bool {
    // A schema that constrains nothing (a `serde_json::Value`) takes `null`
    // like anything else.
    if !node.contains_key("type") && !walk::is_composite(node) {
        return true;
    }
    let null_type = |t: &Value| t.as_str() == Some("null");
    match node.get("type") {
        Some(Value::String(t)) if t == "null" => return true,
        Some(Value::Array(types)) if types.iter().any(null_type) => return true,
        _ => {}
    }
    if let Some(Value::Array(values)) = node.get("enum") {
        return values.contains(&Value::Null);
    }
    if let Some(value) = node.get("const") {
        return value.is_null();
    }
    ["anyOf", "oneOf"].iter().any(|keyword| {
        node.get(*keyword)
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                branches
                    .iter()
                    .any(|b| b.as_object().is_some_and(accepts_null))
            })
    })
}

/// Makes a schema accept `null` as well: `type: [T, "null"]` where it has
/// one type (and `null` in its `enum`), `anyOf: [.., {"type": "null"}]`
/// otherwise.
pub(crate) fn make_nullable(node: &mut Map<String, Value>) {
    if accepts_null(node) {
        return;
    }
    if let Some(value) = node.remove("const") {
        node.insert("enum".into(), Value::Array(vec![value]));
    }
    let typed = match node.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            node.insert("type".into(), serde_json::json!([t, "null"]));
            true
        }
        Some(Value::Array(types)) => {
            types.push("null".into());
            true
        }
        _ => false,
    };
    if typed {
        if let Some(Value::Array(values)) = node.get_mut("enum") {
            values.push(Value::Null);
        }
        return;
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        branches.push(serde_json::json!({"type": "null"}));
        return;
    }
    // A `$ref`, an `enum` without a type, or anything else: the schema as it
    // is becomes the first branch; annotations stay outside.
    let annotations = ["description", "title", "default", "examples", "deprecated"];
    let mut inner = Map::new();
    for (keyword, value) in std::mem::take(node) {
        if annotations.contains(&keyword.as_str()) {
            node.insert(keyword, value);
        } else {
            inner.insert(keyword, value);
        }
    }
    node.insert(
        "anyOf".into(),
        serde_json::json!([Value::Object(inner), {"type": "null"}]),
    );
}

/// Takes `null` out of what a schema accepts: out of a `type` list (one
/// type left is written alone), an `enum`, or an `anyOf` (one choice left is
/// merged into the node, its description after the node's). Whether there
/// was a `null` to take.
pub(crate) fn drop_null(node: &mut Map<String, Value>) -> bool {
    let mut dropped = false;
    if let Some(Value::Array(types)) = node.get_mut("type") {
        let before = types.len();
        types.retain(|t| t != "null");
        dropped |= types.len() < before;
        if types.len() == 1 {
            let only = types.remove(0);
            node.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = node.get_mut("enum") {
        let before = values.len();
        values.retain(|v| !v.is_null());
        dropped |= values.len() < before;
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        let before = branches.len();
        branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
        dropped |= branches.len() < before;
        if branches.len() == 1
            && let Some(Value::Object(only)) = branches.pop()
        {
            node.remove("anyOf");
            for (keyword, value) in only {
                match (node.get_mut(&keyword), value) {
                    // `Option<Page>`, `Page` documented: the field's words
                    // first, then its type's, as where a definition is
                    // written in place.
                    (Some(Value::String(outer)), Value::String(inner))
                        if keyword == "description" && *outer != inner =>
                    {
                        *outer = format!("{outer}\n\n{inner}");
                    }
                    (Some(_), _) => {}
                    (None, value) => {
                        node.insert(keyword, value);
                    }
                }
            }
        }
    }
    dropped
}

/// The names in an object schema's `required`.
pub(crate) fn required_names(node: &Map<String, Value>) -> Vec<String> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a schema node describes an object with named properties.
pub(crate) fn is_object(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => node.contains_key("properties"),
    }
}
