//! `null` for an optional argument, read as the argument left out.
//!
//! OpenAI's strict mode makes every property required and the optional ones
//! nullable, so a model in strict mode sends `"units": null` where it means
//! "no units"; models outside strict mode often do the same. For an
//! `Option` field the two are the same already; for a field with
//! `#[serde(default)]` (or a schema that does not take `null`) a `null`
//! would be refused. So before validation, a `null` for a property that is
//! optional in the tool's own schema and does not accept `null` is removed,
//! and the call goes on exactly as if it had been left out.

use serde_json::{Map, Value};

use crate::schema::dialect::{accepts_null, required_names};

/// How deep a schema is followed through its references: deeper nulls (in a
/// recursive type) are left to validation.
const MAX_DEPTH: usize = 16;

/// Where in a tool's arguments a `null` means "absent". Compiled once per
/// tool; `None` for the many tools that have no such place, which then pay
/// nothing per call.
#[derive(Debug)]
pub(crate) struct AbsentNulls(SchemaNode);

#[derive(Debug, Default)]
struct SchemaNode {
    fields: Vec<NullableField>,
    items: Option<Box<SchemaNode>>,
}

#[derive(Debug)]
struct NullableField {
    name: String,
    /// Optional and not nullable: a `null` here is dropped.
    drop_null: bool,
    inner: Option<SchemaNode>,
}

impl AbsentNulls {
    /// The places in arguments of `schema` where a `null` means "absent".
    pub(crate) fn compile(schema: &Value) -> Option<Self> {
        compile(schema, schema, 0).map(AbsentNulls)
    }

    /// Removes the `null`s that mean "absent" from `arguments`.
    pub(crate) fn strip(&self, arguments: &mut Value) {
        strip(&self.0, arguments);
    }
}

fn compile(schema: &Value, root: &Value, depth: usize) -> Option<SchemaNode> {
    if depth > MAX_DEPTH {
        return None;
    }
    let node = resolve(schema, root)?.as_object()?;
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = node.get(keyword) {
            // `Option<T>` is `anyOf: [T, null]`: look into `T`. A real
            // choice cannot say which branch an object belongs to.
            let mut others = branches.iter().filter(|b| {
                resolve(b, root)
                    .and_then(Value::as_object)
                    .is_none_or(|b| !is_null_only(b))
            });
            let only = others.next()?;
            return if others.next().is_none() {
                compile(only, root, depth + 1)
            } else {
                None
            };
        }
    }
    let mut found = SchemaNode::default();
    if let Some(Value::Object(properties)) = node.get("properties") {
        let required = required_names(node);
        for (name, property) in properties {
            let resolved = resolve(property, root).and_then(Value::as_object);
            let drop_null = !required.contains(name) && resolved.is_some_and(|p| !accepts_null(p));
            let inner = compile(property, root, depth + 1);
            if drop_null || inner.is_some() {
                found.fields.push(NullableField {
                    name: name.clone(),
                    drop_null,
                    inner,
                });
            }
        }
    }
    if let Some(items) = node.get("items").filter(|items| items.is_object()) {
        found.items = compile(items, root, depth + 1).map(Box::new);
    }
    (!found.fields.is_empty() || found.items.is_some()).then_some(found)
}

fn strip(node: &SchemaNode, value: &mut Value) {
    match value {
        Value::Object(map) => strip_fields(node, map),
        Value::Array(items) => {
            if let Some(plan) = &node.items {
                for item in items {
                    strip(plan, item);
                }
            }
        }
        _ => {}
    }
}

fn strip_fields(node: &SchemaNode, map: &mut Map<String, Value>) {
    for field in &node.fields {
        match map.get_mut(&field.name) {
            Some(Value::Null) if field.drop_null => {
                map.remove(&field.name);
            }
            Some(value) => {
                if let Some(inner) = &field.inner {
                    strip(inner, value);
                }
            }
            None => {}
        }
    }
}

/// A schema with its `$ref` followed (within the same document).
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> Option<&'a Value> {
    let mut schema = schema;
    for _ in 0..MAX_DEPTH {
        match schema.get("$ref").and_then(Value::as_str) {
            Some("#") => schema = root,
            Some(reference) => schema = root.pointer(reference.strip_prefix('#')?)?,
            None => return Some(schema),
        }
    }
    None
}

fn is_null_only(node: &Map<String, Value>) -> bool {
    node.get("type").and_then(Value::as_str) == Some("null")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stripped(schema: Value, mut arguments: Value) -> Value {
        if let Some(plan) = AbsentNulls::compile(&schema) {
            plan.strip(&mut arguments);
        }
        arguments
    }

    #[test]
    fn drops_null_only_where_the_property_is_optional_and_not_nullable() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "limit": {"type": "integer", "default": 10},
                "units": {"type": ["string", "null"]},
                "place": {"$ref": "#/$defs/Place"},
                "stops": {"type": "array", "items": {"$ref": "#/$defs/Place"}}
            },
            "required": ["name"],
            "$defs": {
                "Place": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "zip": {"type": "string", "default": ""}},
                    "required": ["city"]
                }
            }
        });
        assert_eq!(
            stripped(
                schema.clone(),
                json!({"name": null, "limit": null, "units": null, "place": {"city": "Paris", "zip": null},
                       "stops": [{"city": "Lyon", "zip": null}]})
            ),
            json!({"name": null, "units": null, "place": {"city": "Paris"}, "stops": [{"city": "Lyon"}]})
        );
        assert_eq!(stripped(schema, json!({"place": null})), json!({}));
    }

    #[test]
    fn no_plan_for_a_schema_without_such_places() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"]}},
            "required": ["a"]
        });
        assert!(AbsentNulls::compile(&schema).is_none());
    }

    #[test]
    fn looks_into_an_optional_struct_and_stops_at_recursion() {
        let schema = json!({
            "type": "object",
            "properties": {
                "filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
                "tree": {"$ref": "#"}
            },
            "$defs": {"Filter": {"type": "object", "properties": {"max": {"type": "integer", "default": 5}}}}
        });
        assert_eq!(
            stripped(
                schema,
                json!({"filter": {"max": null}, "tree": {"tree": {"filter": null}}})
            ),
            json!({"filter": {}, "tree": {"tree": {"filter": null}}})
        );
    }
}
