//! Anthropic's strict tool use on the schema with every red flag schemars can raise
//! (docs/providers.md 6.7), and on the blockers it refuses.

use serde_json::json;

use crate::provider::anthropic::dialect::{AnthropicBudget, anthropic_strict};
use crate::schema::dialect::fixtures::{red_flags, texts};

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
