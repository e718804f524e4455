//! What a schema says twice, said once: every definition is paid in tokens
//! on every model request, so the cleanup every provider gets also drops
//! what no provider needs to read. Nothing here drops a description, a
//! constraint, an `enum` or a `required` list: each rewrite accepts exactly
//! the values the schema accepted before.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::walk::children;
use crate::error::pointer::unescape_key;
use crate::schema::dialect::refs::{Table, recursive_refs, refs_in, write_definition};
use crate::schema::dialect::walk::{each_subschema, named_by};

/// Compacts a schema in place: definitions referred to once are written
/// where they are used; keywords at their default value go, so do titles
/// that repeat a name and integer formats that the range beside them
/// already says.
pub(super) fn compact(schema: &mut Value) {
    inline_used_once(schema);
    tidy_all(schema);
}

/// [`compact`] without writing definitions in place: keywords at their
/// default, titles that repeat a name and integer formats the range says
/// go; every definition stays.
pub(super) fn tidy_all(schema: &mut Value) {
    tidy(schema, None);
    each_subschema(schema, "", &mut |node, at| {
        // A property or a definition goes by the key it sits under.
        let name = named_by(at)
            .filter(|(keyword, _)| ["properties", "$defs", "definitions"].contains(keyword))
            .map(|(_, key)| unescape_key(key));
        tidy(node, name.as_deref());
    });
}

/// Whether a keyword has the value JSON Schema assumes without it.
fn at_default(keyword: &str, value: &Value) -> bool {
    match keyword {
        "deprecated" | "readOnly" | "writeOnly" | "uniqueItems" => *value == Value::Bool(false),
        "minItems" | "minLength" | "minProperties" => value.as_f64() == Some(0.0),
        _ => false,
    }
}

/// One node's tidying; `name` is the property or definition name it goes by.
fn tidy(node: &mut Value, name: Option<&str>) {
    let Value::Object(map) = node else {
        return;
    };
    map.retain(|keyword, value| !at_default(keyword, value));
    if let (Some(name), Some(Value::String(title))) = (name, map.get("title"))
        && same_words(name, title)
    {
        drop_keyword(map, "title");
    }
    if implied_by_range(map) {
        drop_keyword(map, "format");
    }
}

/// Removes a key and keeps the order of the others (`Map::remove` moves the
/// last key into its place when serde_json keeps insertion order).
fn drop_keyword(map: &mut Map<String, Value>, keyword: &str) {
    take_keyword(map, keyword);
}

/// Takes a key's value out, keeping the order of the others (as
/// [`drop_keyword`]).
fn take_keyword(map: &mut Map<String, Value>, keyword: &str) -> Option<Value> {
    let mut taken = None;
    map.retain(|key, value| {
        if key == keyword {
            taken = Some(std::mem::take(value));
        }
        key != keyword
    });
    taken
}

/// Whether a title only repeats a name: `unit_price` and `Unit price`.
fn same_words(name: &str, title: &str) -> bool {
    let words = |text: &str| {
        text.split(|c: char| c == '_' || c == '-' || c.is_whitespace())
            .filter(|word| !word.is_empty())
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    words(name) == words(title)
}

/// Whether an integer `format` (schemars' `uint8` beside `"minimum": 0,
/// "maximum": 255`) says nothing the node's `minimum` and `maximum` do not:
/// both are there and lie within the format's bounds.
fn implied_by_range(map: &Map<String, Value>) -> bool {
    let Some(Value::String(format)) = map.get("format") else {
        return false;
    };
    let (low, high): (i128, i128) = match format.as_str() {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint64" => (0, u64::MAX.into()),
        _ => return false,
    };
    let bound = |keyword: &str| {
        map.get(keyword).and_then(|value| match value {
            Value::Number(number) => number
                .as_i128()
                .or_else(|| number.as_u128().and_then(|n| i128::try_from(n).ok())),
            _ => None,
        })
    };
    matches!(
        (bound("minimum"), bound("maximum")),
        (Some(min), Some(max)) if low <= min && max <= high
    )
}

/// Writes each definition that exactly one `$ref` points to in that
/// reference's place (and drops it from `$defs`): the same schema, without
/// the `$ref`, the definition's name and its entry. A recursive definition,
/// or one used twice or more, stays where it is.
///
/// Where both the reference and the definition have a description (a
/// field's and its type's), the two are kept (see [`write_definition`]).
fn inline_used_once(schema: &mut Value) {
    let Some(root) = schema.as_object() else {
        return;
    };
    let mut defs = Vec::new();
    for container in ["$defs", "definitions"] {
        if let Some(Value::Object(map)) = root.get(container) {
            for (name, def) in map {
                defs.push((format!("#/{container}/{name}"), container, name, def));
            }
        }
    }
    if defs.is_empty() {
        return;
    }
    let mut uses: BTreeMap<String, usize> = BTreeMap::new();
    for reference in refs_in(schema) {
        *uses.entry(reference).or_default() += 1;
    }
    let recursive = recursive_refs(
        defs.iter()
            .map(|(reference, _, _, def)| (reference.as_str(), *def)),
    );
    let once: Vec<(String, &'static str, String)> = defs
        .into_iter()
        .filter(|(reference, _, _, def)| {
            def.is_object() && uses.get(reference) == Some(&1) && !recursive.contains(reference)
        })
        .map(|(reference, container, name, _)| (reference, container, name.clone()))
        .collect();
    if once.is_empty() {
        return;
    }
    // Out of `$defs` first, so that the walk below meets each one only at
    // its use.
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    let mut table = Table::new();
    for (reference, container, name) in once {
        if let Some(Value::Object(defs)) = root.get_mut(container) {
            if let Some(def) = take_keyword(defs, &name) {
                table.insert(reference, (container, name, def));
            }
            if defs.is_empty() {
                drop_keyword(root, container);
            }
        }
    }
    write_in_place(schema, &table);
}

/// Replaces, below `node` and in it, each `$ref` to a definition of
/// `table` by that definition.
fn write_in_place(node: &mut Value, table: &Table) {
    let Value::Object(map) = node else {
        return;
    };
    if let Some(Value::String(reference)) = map.get("$ref")
        && let Some((_, _, Value::Object(target))) = table.get(reference)
    {
        drop_keyword(map, "$ref");
        write_definition(map, target);
    }
    children(map, "", &mut |child, _| write_in_place(child, table));
}

#[cfg(test)]
mod tests;
