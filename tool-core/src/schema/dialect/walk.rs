//! The subschemas of a schema, by keyword (JSON Schema 2020-12, plus the
//! older `definitions` and array-form `items`).

use serde_json::{Map, Value};

/// Keywords whose value is one subschema.
const ONE: [&str; 11] = [
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "additionalItems",
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

/// Calls `f` on each direct subschema of `node` with its JSON Pointer
/// (`at` is the node's own).
pub(super) fn children(
    node: &mut Map<String, Value>,
    at: &str,
    f: &mut dyn FnMut(&mut Value, &str),
) {
    for (keyword, value) in node.iter_mut() {
        let keyword = keyword.as_str();
        if ONE.contains(&keyword) {
            match value {
                Value::Array(list) if keyword == "items" => {
                    for (index, child) in list.iter_mut().enumerate() {
                        f(child, &format!("{at}/items/{index}"));
                    }
                }
                _ => f(value, &format!("{at}/{keyword}")),
            }
        } else if NAMED.contains(&keyword) {
            if let Value::Object(map) = value {
                for (name, child) in map.iter_mut() {
                    let mut pointer = format!("{at}/{keyword}");
                    crate::schema::push_key(&mut pointer, name);
                    f(child, &pointer);
                }
            }
        } else if LISTED.contains(&keyword)
            && let Value::Array(list) = value
        {
            for (index, child) in list.iter_mut().enumerate() {
                f(child, &format!("{at}/{keyword}/{index}"));
            }
        }
    }
}

/// Calls `f` on every subschema below `node`, a parent before its children
/// (which `f` may have changed).
pub(super) fn each_subschema(node: &mut Value, at: &str, f: &mut dyn FnMut(&mut Value, &str)) {
    if let Value::Object(map) = node {
        children(map, at, &mut |child, pointer| {
            f(child, pointer);
            each_subschema(child, pointer, f);
        });
    }
}

/// Whether a node's meaning comes from other schemas or fixed values rather
/// than a `type` of its own.
pub(super) fn is_composite(node: &Map<String, Value>) -> bool {
    [
        "$ref", "anyOf", "oneOf", "allOf", "not", "if", "enum", "const",
    ]
    .iter()
    .any(|keyword| node.contains_key(*keyword))
}
