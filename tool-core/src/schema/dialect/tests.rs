//! Each dialect on the schema with every red flag schemars can raise
//! (docs/providers.md 6.7).

use serde_json::{Value, json};

use super::*;
use crate::schema::dialect::anthropic::{AnthropicBudget, anthropic_strict};

/// Each blocker as its message reads.
fn texts(unfit: Vec<Unfit>) -> Vec<String> {
    unfit.iter().map(Unfit::to_string).collect()
}

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
                    "description": "Where to look up the weather\n\nA place on Earth.",
                    "type": "object",
                    "properties": {
                        "city": {"description": "City name", "type": "string"},
                        "country": {"description": "ISO code", "type": ["string", "null"]}
                    },
                    "required": ["city", "country"],
                    "additionalProperties": false
                },
                "unit": {
                    "description": "Unit for temperatures",
                    "anyOf": [
                        {"description": "Temperature unit.", "type": "string", "enum": ["celsius", "fahrenheit"]},
                        {"type": "null"}
                    ]
                },
                "days": {"description": "Number of forecast days", "type": "integer", "minimum": 0},
                "ratio": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "uniqueItems: true"},
                "verbose": {"type": ["boolean", "null"], "description": "default: false"},
                "name": {"type": "string", "description": "maxLength: 20, format: \"uri\""}
            },
            "required": ["location", "unit", "days", "ratio", "tags", "verbose", "name"],
            "additionalProperties": false
        })
    );
}

#[test]
fn openai_strict_refuses_what_it_cannot_say_and_says_where() {
    let unfit = |schema: Value| texts(openai_strict(&schema).unwrap_err());
    assert_eq!(
        unfit(
            json!({"type": "object", "properties": {"extra": {"type": "object", "additionalProperties": {"type": "integer"}}}})
        ),
        [
            "at `/properties/extra`: a map (`additionalProperties` is a schema): strict mode closes every object"
        ]
    );
    assert_eq!(
        unfit(
            json!({"type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}}})
        ),
        ["at `/properties/pair`: a tuple (`prefixItems`) is outside strict mode's subset"]
    );
    assert_eq!(
        unfit(json!({"type": "object", "properties": {"raw": true}})),
        ["at `/properties/raw`: any JSON value (no `type`): strict mode needs one"]
    );
    assert_eq!(
        unfit(json!({"oneOf": [{"type": "object"}, {"type": "object"}]})),
        [
            "the input is not one object (strict mode needs an object at the root, not a choice)",
            "at `/anyOf/0`: a free-form object (no `properties`, any keys allowed): strict mode closes every object, which would leave it only `{}`",
            "at `/anyOf/1`: a free-form object (no `properties`, any keys allowed): strict mode closes every object, which would leave it only `{}`"
        ]
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
        texts(anthropic_strict(&many, &mut AnthropicBudget::default()).unwrap_err()),
        ["the strict tools of a request may have at most 24 optional parameters in all"]
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

/// A schema with a blocker for strict mode in every place it can hide:
/// beside another on one node, inside a tuple, in a map's values, behind a
/// reference with a description, and in a `$defs` entry.
fn many_blockers() -> Value {
    json!({
        "type": "object",
        "properties": {
            "counts": {"type": "object", "additionalProperties": {
                "type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]
            }},
            "pair": {"type": "array", "prefixItems": [
                {"type": "object", "additionalProperties": {"type": "integer"}},
                {"type": "string", "pattern": "^(?!x)"}
            ], "minItems": 2, "maxItems": 2},
            "raw": {},
            "place": {"description": "Where.", "$ref": "#/$defs/Place"},
            "other": {"$ref": "#/$defs/Place"},
            "nonzero": {"type": "integer", "not": {"const": 0}}
        },
        "required": ["counts", "pair", "raw", "place", "other", "nonzero"],
        "$defs": {"Place": {"type": "object", "properties": {
            "tags": {"type": "object", "patternProperties": {"^\\d+$": {"type": "array"}}}
        }}}
    })
}

#[test]
fn openai_strict_names_every_blocker_with_its_pointer() {
    assert_eq!(
        texts(openai_strict(&many_blockers()).unwrap_err()),
        [
            "at `/properties/counts`: a map (`additionalProperties` is a schema): strict mode closes every object",
            "at `/properties/counts/additionalProperties`: a tuple (`prefixItems`) is outside strict mode's subset",
            "at `/properties/pair`: a tuple (`prefixItems`) is outside strict mode's subset",
            "at `/properties/pair/prefixItems/0`: a map (`additionalProperties` is a schema): strict mode closes every object",
            "at `/properties/pair/prefixItems/1`: a `pattern` with a look-around or back-reference, which strict mode refuses",
            "at `/properties/raw`: any JSON value (no `type`): strict mode needs one",
            "at `/properties/place/properties/tags`: a map whose keys follow a pattern: strict mode closes every object",
            "at `/properties/place/properties/tags/patternProperties/^\\d+$`: an array of any JSON values: strict mode needs its items' type",
            "at `/properties/nonzero`: `not` is outside strict mode's subset",
            "at `/$defs/Place/properties/tags`: a map whose keys follow a pattern: strict mode closes every object",
            "at `/$defs/Place/properties/tags/patternProperties/^\\d+$`: an array of any JSON values: strict mode needs its items' type",
        ]
    );
}

#[test]
fn anthropic_strict_names_every_blocker_and_spends_no_budget_on_them() {
    let mut budget = AnthropicBudget::default();
    let recursive = json!({
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/Node"},
            "forest": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Node"}},
            "unit": {"enum": [{"a": 1}, "b"]}
        },
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }}}
    });
    assert_eq!(
        texts(anthropic_strict(&recursive, &mut budget).unwrap_err()),
        [
            "at `/properties/tree`: `Node` is a recursive type, which this dialect cannot express",
            "at `/properties/forest/additionalProperties`: `Node` is a recursive type, which this dialect cannot express",
            "at `/properties/forest`: a map (`additionalProperties` is a schema): strict tool use closes every object",
            "at `/properties/unit`: an `enum` of objects or arrays (strict tool use takes only plain values)",
        ]
    );
    assert_eq!(budget, AnthropicBudget::default());
    // A request's limits, every one a tool would pass.
    let optional_unions = json!({"type": "object", "properties": (0..25)
        .map(|i| (format!("p{i}"), json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})))
        .collect::<serde_json::Map<_, _>>()});
    assert_eq!(
        texts(anthropic_strict(&optional_unions, &mut budget).unwrap_err()),
        [
            "the strict tools of a request may have at most 24 optional parameters in all",
            "the strict tools of a request may have at most 16 parameters with `anyOf` or several types in all",
        ]
    );
}

/// A tuple `(i32, String)` as schemars writes it, optional, with a
/// description.
fn tuple() -> Value {
    json!({
        "type": "object",
        "properties": {
            "position": {"description": "Row and label.", "type": ["array", "null"], "prefixItems": [
                {"type": "integer", "format": "int32"}, {"type": "string"}
            ], "minItems": 2, "maxItems": 2},
            "offset": {"type": "array", "prefixItems": [
                {"type": "number", "format": "double"}, {"type": "number", "format": "double"}
            ], "minItems": 2, "maxItems": 2},
            "open": {"type": "array", "prefixItems": [{"const": "x"}], "items": {"type": "integer"}}
        }
    })
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

#[test]
fn ollama_keeps_the_fields_its_server_reads_and_says_the_rest() {
    let schema = ollama(&red_flags()).unwrap();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "location": {
                    "description": "Where to look up the weather\n\nA place on Earth.",
                    "type": "object",
                    "properties": {
                        "city": {"description": "City name", "type": "string"},
                        "country": {"description": "ISO code", "type": ["string", "null"]}
                    },
                    "required": ["city"]
                },
                "unit": {
                    "description": "Unit for temperatures",
                    "anyOf": [
                        {"description": "Temperature unit.", "type": "string", "enum": ["celsius", "fahrenheit"]},
                        {"type": "null"}
                    ]
                },
                "days": {"description": "Number of forecast days (minimum: 0)", "type": "integer"},
                "ratio": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "uniqueItems: true"},
                "verbose": {"type": "boolean", "description": "default: false"},
                "name": {"type": "string", "description": "maxLength: 20, format: \"uri\""}
            },
            "required": ["location", "days", "ratio", "tags", "name"]
        })
    );
}

#[test]
fn ollama_spells_const_and_nullable_with_its_fields_and_refuses_a_root_choice() {
    let schema = json!({
        "type": "object",
        "description": "Dropped: Ollama's parameters have no description.",
        "additionalProperties": false,
        "properties": {
            "kind": {"const": "dot", "title": "Kind"},
            "note": {"type": "string", "nullable": true},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        }
    });
    assert_eq!(
        ollama(&schema).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["dot"]},
                "note": {"type": ["string", "null"]},
                "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
            }
        })
    );
    let choice = json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"b": {"type": "string"}}}
    ]});
    assert_eq!(
        texts(ollama(&choice).unwrap_err()),
        [
            "the arguments are one of several objects (a flattened enum?), which Ollama's tool parameters cannot say: they keep only `type`, `properties` and `required` at the root"
        ]
    );
}
