//! Ollama's dialect on the schema with every red flag schemars can raise
//! (docs/providers.md 6.7), and on the blockers it refuses.

use serde_json::json;

use crate::provider::ollama::dialect::ollama;
use crate::schema::dialect::fixtures::{red_flags, texts};

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
