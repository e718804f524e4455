//! Walking a schema by keyword: every subschema, and what a node says of
//! its type and properties.

use serde_json::{Map, Value};

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
pub(crate) struct Node<'a> {
    /// Its JSON Pointer from the root schema.
    pub(crate) at: String,
    /// The keyword it is the value (or in the value) of; `None` for the root.
    pub(crate) keyword: Option<&'a str>,
    pub(crate) schema: &'a Value,
}

/// Every subschema of `root`, the root first, a parent before its children.
/// Only keywords lead to subschemas: a property named `title` is a
/// subschema, never the keyword `title`.
pub(crate) fn nodes(root: &Value) -> Vec<Node<'_>> {
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
pub(crate) fn is_object(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t.eq_ignore_ascii_case("object"),
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => node.contains_key("properties"),
    }
}

/// Whether a node's `type` is or includes `wanted`.
pub(crate) fn has_type(node: &Map<String, Value>, wanted: &str) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => t == wanted,
        Some(Value::Array(types)) => types.iter().any(|t| t == wanted),
        _ => false,
    }
}

/// The names of a node's `properties`.
pub(crate) fn property_names(node: &Map<String, Value>) -> Vec<&str> {
    node.get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// The names in a node's `required`.
pub(crate) fn required_names(node: &Map<String, Value>) -> Vec<&str> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}
