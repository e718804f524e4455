//! Arguments checked against schemas, and the words of each violation.

use super::*;
use serde_json::json;

pub(super) fn check(schema: Value, instance: Value) -> Vec<String> {
    let check = SchemaCheck::new(&schema).expect("a schema");
    check
        .check(&schema, &instance)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn every_violation_is_reported_with_its_path() {
    let schema = json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 2},
            "units": {"anyOf": [{"$ref": "#/$defs/Units"}, {"type": "null"}]},
            "days": {"type": "integer", "minimum": 0, "maximum": 3},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}
        },
        "required": ["city", "days"],
        "additionalProperties": false,
        "$defs": {"Units": {"type": "string", "enum": ["celsius", "fahrenheit"]}}
    });
    assert_eq!(
        check(
            schema.clone(),
            json!({"units": "kelvin", "days": 9, "tags": ["a", 2, "c"], "town": "x"})
        ),
        [
            "missing argument `city`",
            "unknown argument `town`; expected one of `city`, `units`, `days`, `tags`",
            "argument `units` at `/units`: expected one of `celsius`, `fahrenheit`, got `kelvin`",
            "argument `days` at `/days`: must be at most 3, got 9",
            "argument `tags` at `/tags`: must have at most 2 items, got 3",
            "argument `tags` at `/tags/1`: expected a string, got an integer `2`",
        ]
    );
    assert_eq!(
        check(schema, json!({"city": "P", "days": -1.5})),
        [
            "argument `city` at `/city`: must be at least 2 characters long, got `P`",
            "argument `days` at `/days`: expected an integer, got a number `-1.5`",
            "argument `days` at `/days`: must be at least 0, got -1.5",
        ]
    );
}

#[test]
fn every_common_format_is_checked() {
    let cases = [
        ("email", "ada@example.com", "ada"),
        ("uri", "https://example.com/a?b=c", "::not a uri"),
        ("date-time", "2026-11-23T10:00:00+01:00", "2026-11-23 10:00"),
        ("date", "2026-11-23", "23/11/2026"),
        ("time", "10:00:00Z", "10 o'clock"),
        ("uuid", "67e55044-10b1-426f-9247-bb680e5fe0c8", "67e55044"),
        ("ipv4", "192.168.0.1", "192.168.0.256"),
        ("ipv6", "2001:db8::1", "2001:db8:::1"),
        ("hostname", "api.example.com", "-bad-.example.com"),
    ];
    for (format, good, bad) in cases {
        let schema =
            json!({"type": "object", "properties": {"v": {"type": "string", "format": format}}});
        assert_eq!(
            check(schema.clone(), json!({"v": good})),
            Vec::<String>::new(),
            "{format}"
        );
        assert_eq!(
            check(schema, json!({"v": bad})),
            [format!(
                "argument `v` at `/v`: must be a valid {format}, got `{bad}`"
            )],
            "{format}"
        );
    }
    // Integer widths are schemars' own formats, checked by their range.
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}});
    assert_eq!(
        check(schema, json!({"n": 256})),
        ["argument `n` at `/n`: must be at most 255, got 256"]
    );
}

#[test]
fn long_values_are_shortened() {
    let long = "x".repeat(100);
    let messages = check(
        json!({"type": "object", "properties": {"a": {"type": "integer"}}}),
        json!({"a": long}),
    );
    assert_eq!(
        messages,
        [format!(
            "argument `a` at `/a`: expected an integer, got a string `{}…`",
            "x".repeat(crate::error::echo::MAX_ECHO_CHARS - 1)
        )]
    );
}

#[test]
fn an_invalid_schema_is_refused() {
    assert!(SchemaCheck::new(&json!({"type": "nonsense"})).is_err());
    // What only compiling finds is found at once too.
    let pattern = json!({"type": "string", "pattern": "(unclosed"});
    assert!(SchemaCheck::new(&pattern).is_err());
    let nowhere = json!({"properties": {"a": {"$ref": "#/$defs/Missing"}}});
    assert!(SchemaCheck::new(&nowhere).is_err());
}

#[test]
fn a_schema_is_compiled_when_first_needed_unless_only_compiling_can_check_it() {
    let plain = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/A"}, "b": {"type": "string", "description": "pattern"}
    }, "$defs": {"A": {"type": "integer"}}});
    let check = SchemaCheck::new(&plain).expect("a schema");
    assert!(check.compiled.get().is_none());
    assert!(check.check(&plain, &json!({"a": 1})).is_empty());
    assert!(check.compiled.get().is_some());
    let with_pattern = json!({"type": "string", "pattern": "^a"});
    let check = SchemaCheck::new(&with_pattern).expect("a schema");
    assert!(check.compiled.get().is_some());
}
