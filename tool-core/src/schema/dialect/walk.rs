//! The subschemas of a schema, by keyword (JSON Schema 2020-12, plus the
//! older `definitions` and array-form `items`).

use std::fmt::Write as _;

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

/// Defines a function that calls `f` on each direct subschema of `node`
/// with its JSON Pointer (`at` is the node's own): one body for the
/// mutable walk and the shared one, so that both know the same keywords.
macro_rules! children_fn {
    ($(#[$doc:meta])* $name:ident $(, $mutability:tt)?) => {
        $(#[$doc])*
        pub(crate) fn $name(
            node: &$($mutability)? Map<String, Value>,
            at: &str,
            f: &mut dyn FnMut(&$($mutability)? Value, &str),
        ) {
            // One buffer for the pointers of all the node's children.
            let mut pointer = String::new();
            for (keyword, value) in node {
                let keyword = keyword.as_str();
                if ONE.contains(&keyword) {
                    match value {
                        Value::Array(list) if keyword == "items" => {
                            for (index, child) in list.into_iter().enumerate() {
                                f(child, below(&mut pointer, at, keyword, SchemaKey::Index(index)));
                            }
                        }
                        _ => f(value, below(&mut pointer, at, keyword, SchemaKey::None)),
                    }
                } else if NAMED.contains(&keyword) {
                    if let Value::Object(map) = value {
                        for (name, child) in map {
                            f(child, below(&mut pointer, at, keyword, SchemaKey::Name(name)));
                        }
                    }
                } else if LISTED.contains(&keyword)
                    && let Value::Array(list) = value
                {
                    for (index, child) in list.into_iter().enumerate() {
                        f(child, below(&mut pointer, at, keyword, SchemaKey::Index(index)));
                    }
                }
            }
        }
    };
}

children_fn!(
    /// Calls `f` on each direct subschema of `node` with its JSON Pointer
    /// (`at` is the node's own).
    children,
    mut
);

children_fn!(
    /// [`children`], for a walk that only reads.
    children_of
);

/// What follows the keyword in a child's pointer.
enum SchemaKey<'a> {
    None,
    Index(usize),
    Name(&'a str),
}

/// Writes `at/keyword[/key]` into `buffer` and returns it.
fn below<'b>(buffer: &'b mut String, at: &str, keyword: &str, key: SchemaKey<'_>) -> &'b str {
    buffer.clear();
    buffer.push_str(at);
    buffer.push('/');
    buffer.push_str(keyword);
    match key {
        SchemaKey::None => {}
        SchemaKey::Index(index) => {
            // Writing into a `String` cannot fail.
            let _ = write!(buffer, "/{index}");
        }
        SchemaKey::Name(name) => crate::error::pointer::push_key(buffer, name),
    }
    buffer
}

/// Calls `f` on every subschema below `node`, a parent before its children
/// (which `f` may have changed).
pub(crate) fn each_subschema(node: &mut Value, at: &str, f: &mut dyn FnMut(&mut Value, &str)) {
    if let Value::Object(map) = node {
        children(map, at, &mut |child, pointer| {
            f(child, pointer);
            each_subschema(child, pointer, f);
        });
    }
}

/// [`each_subschema`], for a walk that only reads.
pub(crate) fn each_subschema_of(node: &Value, at: &str, f: &mut dyn FnMut(&Value, &str)) {
    if let Value::Object(map) = node {
        children_of(map, at, &mut |child, pointer| {
            f(child, pointer);
            each_subschema_of(child, pointer, f);
        });
    }
}

/// The keyword and the (still escaped) name under which the node at `at`
/// sits, when the last step to it is a name (of a property, a definition,
/// ...). Read from the root, since a property may be called `properties`:
/// in `/properties/properties/items`, `items` is a keyword. An index is
/// never a keyword, so it needs no skipping.
pub(crate) fn named_by(at: &str) -> Option<(&str, &str)> {
    let mut segments = at.split('/').skip(1);
    let mut last = None;
    while let Some(keyword) = segments.next() {
        last = if NAMED.contains(&keyword) {
            segments.next().map(|name| (keyword, name))
        } else {
            None
        };
    }
    last
}

/// Whether a node's meaning comes from other schemas or fixed values rather
/// than a `type` of its own.
pub(crate) fn is_composite(node: &Map<String, Value>) -> bool {
    [
        "$ref", "anyOf", "oneOf", "allOf", "not", "if", "enum", "const",
    ]
    .iter()
    .any(|keyword| node.contains_key(*keyword))
}
