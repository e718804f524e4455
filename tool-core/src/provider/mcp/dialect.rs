//! MCP's `inputSchema` and `outputSchema`: JSON Schema 2020-12 with every
//! keyword the schema holds (`$schema`, `$defs` and their `$anchor`s,
//! composition, conditionals), never OpenAPI's `nullable`, only the
//! formats JSON Schema defines, and no `null` where leaving a parameter
//! out says it.

use serde_json::{Map, Value};

use crate::schema::dialect::formats::standard_formats;
use crate::schema::dialect::walk::each_subschema;
use crate::schema::dialect::{as_written, drop_null, is_object, make_nullable, required_names};

/// The `outputSchema`: the schema as written, with a hand-written OpenAPI
/// `nullable` spelled as JSON Schema (`null` added to the type), and only
/// the formats JSON Schema defines: schemars' `uint8`, `int32`, `double`,
/// ... say nothing that the type and the range beside it do not, and the
/// TypeScript client warns "unknown format" on each of them, every call.
/// A `null` stays wherever the schema takes one: a tool's output does say
/// `null` for an empty `Option`.
pub(crate) fn mcp_output(schema: &Value) -> Value {
    let mut schema = without_nullable(schema);
    split_type_lists(&mut schema);
    schema
}

/// The schema as written ([`as_written`]: MCP's dialect is JSON Schema
/// 2020-12, whose every keyword a client may read, SEP-1613 and SEP-2106),
/// with `nullable` spelled as JSON Schema and only JSON Schema's formats.
fn without_nullable(schema: &Value) -> Value {
    let mut schema = as_written(schema);
    let mut spell = |node: &mut Value, _: &str| {
        if let Value::Object(map) = node
            && let Some(nullable) = map.remove("nullable")
            && nullable == Value::Bool(true)
        {
            make_nullable(map);
        }
    };
    spell(&mut schema, "");
    each_subschema(&mut schema, "", &mut spell);
    standard_formats(&mut schema);
    schema
}

/// The `inputSchema`: [`mcp_output`]'s, and an optional parameter (or
/// field of a nested object) as its plain type: `Option<u8>` is
/// `{"type": "integer"}`, left out of `required`, rather than
/// `["integer", "null"]`. MCP Inspector's `--strict` check refuses a type
/// list, and its form cannot send a value for one; leaving the parameter
/// out says "none" already. A client that sends `null` anyway is still
/// answered as if it had left it out, as the registry validates against
/// the tool's own schema. The `null` stays where it means something else
/// than "absent": in a required property, or one whose `default` is not
/// `null` (`#[serde(default = ...)]` on an `Option`, where leaving it out
/// gives the default and `null` gives `None`).
pub(crate) fn mcp_input(schema: &Value) -> Value {
    let mut schema = without_nullable(schema);
    let mut optional = |node: &mut Value, _: &str| {
        if let Value::Object(map) = node {
            optional_without_null(map);
        }
    };
    optional(&mut schema, "");
    each_subschema(&mut schema, "", &mut optional);
    split_type_lists(&mut schema);
    schema
}

/// Each list of types as `anyOf` branches of one type each, the keywords
/// beside it kept: `{"type": ["string", "null"], "maxLength": 5}` is
/// `{"anyOf": [{"type": "string"}, {"type": "null"}], "maxLength": 5}`,
/// which takes the same values (a keyword of one type ignores values of
/// the others). MCP Inspector's `--strict` portability check flags every
/// type list, as a client mapping schemas onto a one-type dialect may drop
/// or refuse it. A node that has an `anyOf` already keeps its list.
fn split_type_lists(schema: &mut Value) {
    let mut split = |node: &mut Value, _: &str| {
        let Value::Object(map) = node else { return };
        if map.contains_key("anyOf") {
            return;
        }
        if let Some(Value::Array(types)) = map.get("type")
            && types.len() > 1
            && types.iter().all(Value::is_string)
        {
            let mut branches: Vec<Value> = types
                .iter()
                .map(|one| Value::Object(Map::from_iter([("type".to_owned(), one.clone())])))
                .collect();
            // In the list's place, so that the keywords keep their order.
            for (keyword, value) in std::mem::take(map) {
                if keyword == "type" {
                    map.insert(
                        "anyOf".to_owned(),
                        Value::Array(std::mem::take(&mut branches)),
                    );
                } else {
                    map.insert(keyword, value);
                }
            }
        }
    };
    split(schema, "");
    each_subschema(schema, "", &mut split);
}

/// Drops `null` from what each optional property of an object takes.
fn optional_without_null(map: &mut Map<String, Value>) {
    if !is_object(map) {
        return;
    }
    let required = required_names(map);
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        if required.contains(name) {
            continue;
        }
        if let Value::Object(property) = property
            && property.get("default").is_none_or(Value::is_null)
        {
            drop_null(property);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn mcp_is_plain_json_schema_without_nullable() {
        let schema = json!({"type": "object", "title": "T", "properties": {"a": {"type": "string", "nullable": true}}});
        assert_eq!(
            mcp_output(&schema),
            json!({"type": "object", "title": "T", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}})
        );
        // An input's optional parameter is its plain type; a required one
        // keeps its `null`.
        assert_eq!(
            mcp_input(&schema),
            json!({"type": "object", "title": "T", "properties": {"a": {"type": "string"}}})
        );
        let required = json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}, "required": ["a"]});
        assert_eq!(
            mcp_input(&required),
            json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}, "required": ["a"]})
        );
    }

    /// JSON Schema 2020-12 as written (SEP-1613, SEP-2106): the dialect
    /// named, definitions kept where they are with their anchors,
    /// composition, conditionals and `additionalProperties` untouched.
    #[test]
    fn every_keyword_of_a_2020_12_schema_is_kept() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Contact",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        });
        assert_eq!(mcp_input(&schema), schema);
        assert_eq!(mcp_output(&schema), schema);
    }

    #[test]
    fn a_list_of_types_is_split_into_branches_its_keywords_kept() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"description": "A.", "type": ["string", "integer", "null"], "maxLength": 5},
                "b": {"type": ["string"]},
                "c": {"type": ["string", "null"], "anyOf": [{"minLength": 1}, {"type": "null"}]}
            },
            "required": ["a", "b", "c"]
        });
        assert_eq!(
            mcp_output(&schema)["properties"],
            json!({
                "a": {"description": "A.", "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}], "maxLength": 5},
                "b": {"type": ["string"]},
                "c": {"type": ["string", "null"], "anyOf": [{"minLength": 1}, {"type": "null"}]}
            })
        );
    }
}
