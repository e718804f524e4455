//! Schemas every dialect's tests are run on: the one with every red flag
//! schemars can raise (docs/providers.md 6.7), blockers of strict mode in
//! every place they hide, a tuple.

use serde_json::{Value, json};

use crate::schema::dialect::Unfit;

/// Each blocker as its message reads.
pub(crate) fn texts(unfit: Vec<Unfit>) -> Vec<String> {
    unfit.iter().map(Unfit::to_string).collect()
}

/// schemars 1.x's output for a struct with a documented nested struct, an
/// optional enum, numbers with formats, a set, a map, a tuple, any JSON
/// value and a default.
pub(crate) fn red_flags() -> Value {
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

/// A schema with a blocker for strict mode in every place it can hide:
/// beside another on one node, inside a tuple, in a map's values, behind a
/// reference with a description, and in a `$defs` entry.
pub(crate) fn many_blockers() -> Value {
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

/// A tuple `(i32, String)` as schemars writes it, optional, with a
/// description.
pub(crate) fn tuple() -> Value {
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
