//! The rewrites of the dialects that take a small subset of JSON Schema
//! (Gemini's two forms, Ollama's tool parameters): the keywords they lack
//! said with those they have, before each keeps its own.

use serde_json::{Map, Value};

use crate::schema::dialect::one_of_as_any_of;

/// One node rewritten with fewer keywords, meaning the same for the
/// arguments a model sends: `oneOf` as `anyOf`, `allOf` merged, a tuple
/// as an array of a choice, a map whose keys follow a pattern as a map, and
/// `const` as a one-value `enum` (with its `type`).
pub(crate) fn simplify(map: &mut Map<String, Value>) {
    one_of_as_any_of(map);
    merge_all_of(map);
    tuple_as_array(map);
    pattern_keyed_map(map);
    if let Some(value) = map.remove("const") {
        if !map.contains_key("type")
            && let Some(t) = type_of(&value)
        {
            map.insert("type".into(), t.into());
        }
        map.insert("enum".into(), Value::Array(vec![value]));
    }
}

/// A tuple as an array of a choice. Neither google-genai's `JSONSchema`
/// model nor the OpenAPI `Schema` has `prefixItems` (docs/providers.md 3.3):
/// the first refuses a whole declaration that has it. The length stays in
/// `minItems` and `maxItems`; the types of the items, each once, become the
/// choice (or the items' one schema when they are all alike); the order of
/// the types, which a choice cannot say, goes into the description:
/// `Row and label. (items in order: integer, string)`. Items past the
/// tuple's (`items` as a schema) join the choice; `items: false` goes, as
/// `maxItems` says it.
fn tuple_as_array(map: &mut Map<String, Value>) {
    let Some(Value::Array(prefix)) = map.remove("prefixItems") else {
        return;
    };
    let rest = match map.remove("items") {
        Some(Value::Bool(false)) | None => None,
        Some(rest) => Some(rest),
    };
    let order = prefix.iter().map(label).collect::<Vec<_>>().join(", ");
    let mut choices: Vec<Value> = Vec::new();
    for item in prefix.into_iter().chain(rest) {
        if !choices.contains(&item) {
            choices.push(item);
        }
    }
    let items = match choices.len() {
        0 => return,
        1 => choices.remove(0),
        _ => {
            let note = format!("items in order: {order}");
            let description = match map.get("description").and_then(Value::as_str) {
                Some(text) if !text.is_empty() => format!("{text} ({note})"),
                _ => note,
            };
            map.insert("description".into(), Value::String(description));
            serde_json::json!({ "anyOf": choices })
        }
    };
    map.insert("items".into(), items);
}

/// A map whose keys follow a pattern (schemars' `HashMap<u32, T>`:
/// `patternProperties: {"^\\d+$": T}` beside `additionalProperties: false`)
/// as a map of `T`, the pattern said in the description. Gemini takes no
/// `patternProperties`; dropping it alone would leave
/// `additionalProperties: false`, which refuses every key the tool takes
/// (docs/providers.md 3.3).
fn pattern_keyed_map(map: &mut Map<String, Value>) {
    let Some(Value::Object(patterns)) = map.remove("patternProperties") else {
        return;
    };
    let mut values: Vec<Value> = match map.remove("additionalProperties") {
        Some(Value::Bool(false)) | None => Vec::new(),
        Some(other) => vec![other],
    };
    for value in patterns.values() {
        if !values.contains(value) {
            values.push(value.clone());
        }
    }
    let value = match values.len() {
        0 => return,
        1 => values.remove(0),
        _ => serde_json::json!({ "anyOf": values }),
    };
    map.insert("additionalProperties".into(), value);
    let keys: Vec<&str> = patterns.keys().map(String::as_str).collect();
    let note = format!("keys matching {}", keys.join(" or "));
    let description = match map.get("description").and_then(Value::as_str) {
        Some(text) if !text.is_empty() => format!("{text} ({note})"),
        _ => note,
    };
    map.insert("description".into(), Value::String(description));
}

/// What a schema is, in a word or a few, for a tuple's description:
/// `integer`, `string or null`, `"celsius" or "fahrenheit"`, `object`.
fn label(schema: &Value) -> String {
    let Some(map) = schema.as_object() else {
        return "any value".to_owned();
    };
    let or = |words: Vec<String>| words.join(" or ");
    if let Some(value) = map.get("const") {
        return value.to_string();
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        return or(values.iter().map(Value::to_string).collect());
    }
    match map.get("type") {
        Some(Value::String(t)) => return t.clone(),
        Some(Value::Array(types)) => {
            return or(types
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect());
        }
        _ => {}
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(keyword) {
            return or(branches.iter().map(label).collect());
        }
    }
    if map.contains_key("properties") {
        return "object".to_owned();
    }
    "any value".to_owned()
}

/// `allOf` merged into its node: Gemini has no intersection. The branches'
/// properties and required names add up; other keywords of the node win.
fn merge_all_of(map: &mut Map<String, Value>) {
    let Some(Value::Array(all_of)) = map.remove("allOf") else {
        return;
    };
    for branch in all_of {
        let Value::Object(branch) = branch else {
            continue;
        };
        for (keyword, value) in branch {
            match (keyword.as_str(), map.get_mut(&keyword), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    for (name, schema) in theirs {
                        mine.entry(name).or_insert(schema);
                    }
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    for name in theirs {
                        if !mine.contains(&name) {
                            mine.push(name);
                        }
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    map.insert(keyword, value);
                }
            }
        }
    }
}

/// The JSON type of a `const` value.
fn type_of(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => return None,
    })
}
