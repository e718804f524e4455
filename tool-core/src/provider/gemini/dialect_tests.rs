//! Gemini's dialects on the schema with every red flag schemars can raise
//! (docs/providers.md 6.7), and on the blockers it refuses.

use serde_json::json;

use crate::provider::gemini::dialect::{gemini, gemini_openapi};
use crate::schema::dialect::fixtures::{red_flags, texts, tuple};

#[test]
fn gemini_inlines_everything_and_cuts_recursion_with_a_description() {
    let schema = json!({
        "type": "object",
        "properties": {
            "root": {"description": "The tree.", "$ref": "#/$defs/Node"},
            "kind": {"const": "tree"}
        },
        "$defs": {"Node": {"title": "Node", "type": "object", "properties": {
            "label": {"type": "string", "minLength": 1},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }}}
    });
    assert_eq!(
        gemini(&schema).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "root": {
                    "description": "The tree.",
                    "type": "object",
                    "properties": {
                        "label": {"type": "string", "description": "minLength: 1"},
                        "children": {"type": "array", "items": {"description": "a value of the same shape as the enclosing `Node`"}}
                    }
                },
                "kind": {"type": "string", "enum": ["tree"]}
            }
        })
    );
}

#[test]
fn gemini_keeps_its_keywords_and_formats_only() {
    let schema = gemini(&red_flags()).unwrap();
    assert!(schema.get("$defs").is_none() && schema.get("title").is_none());
    assert_eq!(
        schema["properties"]["days"],
        json!({"description": "Number of forecast days", "type": "integer", "minimum": 0})
    );
    assert_eq!(
        schema["properties"]["ratio"],
        json!({"type": "number", "format": "double"})
    );
    assert_eq!(
        schema["properties"]["name"],
        json!({"type": "string", "description": "maxLength: 20, format: \"uri\""})
    );
    assert_eq!(
        schema["properties"]["unit"],
        json!({"description": "Unit for temperatures", "anyOf": [
            {"description": "Temperature unit.", "type": "string", "enum": ["celsius", "fahrenheit"]},
            {"type": "null"}
        ]})
    );
}

#[test]
fn gemini_openapi_speaks_openapi() {
    let schema = gemini_openapi(&red_flags()).unwrap();
    assert_eq!(schema["type"], "OBJECT");
    assert_eq!(
        schema["propertyOrdering"],
        json!([
            "location", "unit", "days", "ratio", "tags", "verbose", "name"
        ])
    );
    assert_eq!(
        schema["properties"]["unit"],
        json!({"description": "Unit for temperatures\n\nTemperature unit.", "type": "STRING", "enum": ["celsius", "fahrenheit"], "nullable": true})
    );
    assert_eq!(
        schema["properties"]["location"]["properties"]["country"],
        json!({"description": "ISO code", "type": "STRING", "nullable": true})
    );
    let map = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}});
    assert_eq!(
        gemini_openapi(&map).unwrap()["properties"]["m"],
        json!({"type": "OBJECT", "description": "additionalProperties: {\"type\":\"integer\"}"})
    );
    let kebab = json!({"type": "object", "properties": {"max-results": {"type": "integer"}}});
    assert_eq!(
        texts(gemini_openapi(&kebab).unwrap_err()),
        [
            "property `max-results`: Gemini's `parameters` take names of letters, digits and `_`, starting with a letter or `_`, at most 64"
        ]
    );
}

#[test]
fn a_property_named_like_a_keyword_is_a_property() {
    let schema = json!({"type": "object", "properties": {
        "title": {"type": "string", "title": "Title"},
        "format": {"type": "string"}
    }, "required": ["title", "format"]});
    let gemini = gemini(&schema).unwrap();
    assert_eq!(
        gemini["properties"],
        json!({"title": {"type": "string"}, "format": {"type": "string"}})
    );
}

#[test]
fn gemini_writes_a_tuple_as_an_array_of_a_choice_with_its_order_described() {
    // google-genai's `JSONSchema` has no `prefixItems` and refuses a
    // declaration with it (docs/providers.md 3.3).
    assert_eq!(
        gemini(&tuple()).unwrap()["properties"],
        json!({
            "position": {
                "description": "Row and label. (items in order: integer, string)",
                "type": ["array", "null"],
                "minItems": 2,
                "maxItems": 2,
                "items": {"anyOf": [{"type": "integer", "format": "int32"}, {"type": "string"}]}
            },
            "offset": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number", "format": "double"}},
            "open": {
                "type": "array",
                "description": "items in order: \"x\"",
                "items": {"anyOf": [{"type": "string", "enum": ["x"]}, {"type": "integer"}]}
            }
        })
    );
    assert_eq!(
        gemini_openapi(&tuple()).unwrap()["properties"]["position"],
        json!({
            "description": "Row and label. (items in order: integer, string)",
            "type": "ARRAY",
            "nullable": true,
            "minItems": 2,
            "maxItems": 2,
            "items": {"anyOf": [{"type": "INTEGER", "format": "int32"}, {"type": "STRING"}]}
        })
    );
}

#[test]
fn gemini_leaves_out_property_ordering_silently_in_the_json_schema_form() {
    // The key order says it, and google-genai's `JSONSchema` has no such
    // field; the OpenAPI form writes its own.
    let schema = json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}, "propertyOrdering": ["b", "a"]});
    assert_eq!(
        gemini(&schema).unwrap(),
        json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}})
    );
    assert_eq!(
        gemini_openapi(&schema).unwrap()["propertyOrdering"],
        json!(["b", "a"])
    );
}
