//! OpenAI's strict mode on the schema with every red flag schemars can raise
//! (docs/providers.md 6.7), and on the blockers it refuses.

use serde_json::{Value, json};

use crate::provider::openai_chat::dialect::openai_strict;
use crate::schema::dialect::fixtures::{many_blockers, red_flags, texts};

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
