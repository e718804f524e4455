//! Each dialect on the schema with every red flag schemars can raise
//! (docs/providers.md 6.7).

use serde_json::{Value, json};

use super::*;

/// schemars 1.x's output for a struct with a documented nested struct, an
/// optional enum, numbers with formats, a set, a map, a tuple, any JSON
/// value and a default.
fn red_flags() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Get weather",
        "type": "object",
        "properties": {
            "location": {"description": "Where to look up the weather", "$ref": "#/$defs/Location"},
            "unit": {"description": "Unit for temperatures", "anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}]},
            "days": {"description": "Number of forecast days", "type": "integer", "format": "uint32", "minimum": 0},
            "ratio": {"type": "number", "format": "double"},
            "tags": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
            "verbose": {"type": "boolean", "default": false},
            "name": {"type": "string", "maxLength": 20, "format": "uri"}
        },
        "required": ["location", "days", "ratio", "tags", "name"],
        "$defs": {
            "Location": {
                "description": "A place on Earth.",
                "type": "object",
                "properties": {
                    "city": {"description": "City name", "type": "string"},
                    "country": {"description": "ISO code", "type": ["string", "null"]}
                },
                "required": ["city"]
            },
            "Unit": {"description": "Temperature unit.", "type": "string", "enum": ["celsius", "fahrenheit"]}
        }
    })
}

#[test]
fn openai_strict_closes_requires_and_nulls_the_optional() {
    let schema = openai_strict(&red_flags()).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "location": {
                    "description": "Where to look up the weather",
                    "type": "object",
                    "properties": {
                        "city": {"description": "City name", "type": "string"},
                        "country": {"description": "ISO code", "type": ["string", "null"]}
                    },
                    "required": ["city", "country"],
                    "additionalProperties": false
                },
                "unit": {"description": "Unit for temperatures", "anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}]},
                "days": {"description": "Number of forecast days", "type": "integer", "minimum": 0},
                "ratio": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "uniqueItems: true"},
                "verbose": {"type": ["boolean", "null"], "description": "default: false"},
                "name": {"type": "string", "description": "maxLength: 20, format: \"uri\""}
            },
            "required": ["location", "unit", "days", "ratio", "tags", "verbose", "name"],
            "additionalProperties": false,
            "$defs": {
                "Unit": {"description": "Temperature unit.", "type": "string", "enum": ["celsius", "fahrenheit"]}
            }
        })
    );
}

#[test]
fn openai_strict_refuses_what_it_cannot_say_and_says_where() {
    let unfit = |schema: Value| openai_strict(&schema).unwrap_err().to_string();
    assert_eq!(
        unfit(
            json!({"type": "object", "properties": {"extra": {"type": "object", "additionalProperties": {"type": "integer"}}}})
        ),
        "at `/properties/extra`: a map (`additionalProperties` is a schema): strict mode closes every object"
    );
    assert_eq!(
        unfit(
            json!({"type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}}})
        ),
        "at `/properties/pair`: a tuple (`prefixItems`) is outside strict mode's subset"
    );
    assert_eq!(
        unfit(json!({"type": "object", "properties": {"raw": true}})),
        "at `/properties/raw`: any JSON value (no `type`): strict mode needs one"
    );
    assert_eq!(
        unfit(json!({"oneOf": [{"type": "object"}, {"type": "object"}]})),
        "the input is not one object (strict mode needs an object at the root, not a choice)"
    );
}

#[test]
fn a_recursive_ref_with_a_description_is_wrapped_not_inlined() {
    let schema = json!({
        "type": "object",
        "properties": {"root": {"description": "The tree.", "$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }, "required": ["children"]}}
    });
    let strict = openai_strict(&schema).unwrap();
    assert_eq!(
        strict["properties"]["root"],
        json!({"description": "The tree.", "anyOf": [{"$ref": "#/$defs/Node"}]})
    );
    assert_eq!(
        strict["$defs"]["Node"]["additionalProperties"],
        json!(false)
    );
    assert_eq!(
        strict["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
}

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
        json!({"description": "Unit for temperatures", "type": "STRING", "enum": ["celsius", "fahrenheit"], "nullable": true})
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
        gemini_openapi(&kebab).unwrap_err().to_string(),
        "property `max-results`: Gemini's `parameters` take names of letters, digits and `_`, starting with a letter or `_`, at most 64"
    );
}

#[test]
fn anthropic_strict_keeps_optionals_optional_and_counts_its_budget() {
    let mut budget = AnthropicBudget::default();
    let schema = anthropic_strict(&red_flags(), &mut budget).unwrap();
    assert_eq!(
        schema["required"],
        json!(["location", "days", "ratio", "tags", "name"])
    );
    assert_eq!(schema["additionalProperties"], json!(false));
    assert_eq!(
        schema["properties"]["days"],
        json!({"description": "Number of forecast days (minimum: 0)", "type": "integer"})
    );
    assert_eq!(
        schema["properties"]["name"],
        json!({"type": "string", "format": "uri", "description": "maxLength: 20"})
    );
    assert_eq!(
        schema["properties"]["location"]["additionalProperties"],
        json!(false)
    );

    let many = json!({"type": "object", "properties": (0..25).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect::<serde_json::Map<_, _>>()});
    assert_eq!(
        anthropic_strict(&many, &mut AnthropicBudget::default())
            .unwrap_err()
            .to_string(),
        "the strict tools of a request may have at most 24 optional parameters in all"
    );
}

#[test]
fn mcp_is_plain_json_schema_without_nullable() {
    let schema = json!({"type": "object", "title": "T", "properties": {"a": {"type": "string", "nullable": true}}});
    assert_eq!(
        mcp(&schema),
        json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}})
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
