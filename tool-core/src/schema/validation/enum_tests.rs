//! A value that is none of an enum's values is told the values, however
//! schemars wrote the enum.

use serde_json::json;

use crate::schema::validation::tests::check;

#[test]
fn a_documented_unit_enum_lists_its_values_as_a_plain_one_does() {
    // `enum Color { /// ... Red, Green, Blue }` with each variant
    // documented, and without.
    let documented = json!({"type": "object", "properties": {"color": {"oneOf": [
        {"type": "string", "const": "red", "description": "Warm."},
        {"type": "string", "const": "green", "description": "Calm."},
        {"type": "string", "const": "blue", "description": "Cold."}
    ]}}});
    let plain = json!({"type": "object", "properties": {"color": {
        "type": "string", "enum": ["red", "green", "blue"]
    }}});
    let expected =
        ["argument `color` at `/color`: expected one of `red`, `green`, `blue`, got `purple`"];
    assert_eq!(
        check(documented.clone(), json!({"color": "purple"})),
        expected
    );
    assert_eq!(check(plain, json!({"color": "purple"})), expected);
    // A value of another type: still the values.
    assert_eq!(
        check(documented, json!({"color": 3})),
        ["argument `color` at `/color`: expected one of `red`, `green`, `blue`, got `3`"]
    );
}

#[test]
fn some_variants_documented_an_optional_enum_and_a_real_choice() {
    // schemars writes the undocumented variants as one `enum`, each
    // documented one as a `const`; `Option<T>` adds a `null` branch.
    let schema = json!({"type": "object", "properties": {
        "level": {"anyOf": [{"$ref": "#/$defs/Level"}, {"type": "null"}]},
        "shape": {"oneOf": [
            {"type": "string", "const": "dot"},
            {"type": "object", "properties": {"circle": {"type": "number"}}, "required": ["circle"]}
        ]}
    }, "$defs": {"Level": {"oneOf": [
        {"type": "string", "enum": ["low", "medium"]},
        {"type": "string", "const": "high", "description": "Drop everything."}
    ]}}});
    assert_eq!(
        check(schema.clone(), json!({"level": "urgent"})),
        ["argument `level` at `/level`: expected one of `low`, `medium`, `high`, got `urgent`"]
    );
    // A choice with an object in it has no list of values to give.
    assert_eq!(
        check(schema, json!({"shape": "square"})),
        ["argument `shape` at `/shape`: `square` matches none of the allowed forms"]
    );
}
