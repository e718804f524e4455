//! What the meta-schema is read for without the validator: never a schema
//! the validator refuses, and the schemas schemars derives.

use crate::schema::validation::SchemaCheck;
use crate::schema::validation::meta::surely_valid;
use serde_json::{Value, json};

/// Whether `jsonschema`'s meta-schema check takes it.
fn validator_takes(schema: &Value) -> bool {
    jsonschema::meta::validate(schema).is_ok()
}

/// Every schema taken here is taken by the validator.
fn holds(schema: &Value) {
    if surely_valid(schema) {
        assert!(
            validator_takes(schema),
            "read as valid, refused by the meta-schema: {schema}"
        );
    }
}

#[test]
fn schemas_schemars_derives_are_read_without_the_validator() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        /// Street.
        street: String,
        city: Option<String>,
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    enum Units {
        /// Degrees Celsius.
        Celsius,
        Fahrenheit,
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    enum Shape {
        Circle { radius: f64 },
        Square(u32),
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Input {
        /// The text to search for.
        query: String,
        limit: u8,
        offset: i64,
        threshold: f64,
        verbose: bool,
        note: Option<String>,
        tags: Vec<String>,
        set: std::collections::BTreeSet<u16>,
        pair: (String, i32),
        map: std::collections::HashMap<String, f32>,
        address: Address,
        units: Units,
        shape: Option<Shape>,
        #[schemars(length(min = 1, max = 10), regex(pattern = r"^\w+$"))]
        word: String,
        #[schemars(range(min = 1, max = 5))]
        priority: u8,
        anything: Value,
    }
    let schema = crate::schema::input_schema_for::<Input>();
    assert!(surely_valid(&schema), "{schema:#}");
    assert!(validator_takes(&schema));
}

#[test]
fn what_the_meta_schema_refuses_goes_to_the_validator() {
    let refused = [
        json!(5),
        json!("object"),
        json!({"type": "text"}),
        json!({"type": []}),
        json!({"type": ["string", "string"]}),
        json!({"type": 1}),
        json!({"properties": []}),
        json!({"properties": {"a": 1}}),
        json!({"properties": {"a": {"type": "strin"}}}),
        json!({"items": [{"type": "string"}]}),
        json!({"anyOf": []}),
        json!({"oneOf": {"type": "string"}}),
        json!({"required": "a"}),
        json!({"required": ["a", "a"]}),
        json!({"required": [1]}),
        json!({"minLength": -1}),
        json!({"minLength": 1.5}),
        json!({"maxItems": "3"}),
        json!({"minimum": "0"}),
        json!({"multipleOf": 0}),
        json!({"multipleOf": -2}),
        json!({"enum": "a"}),
        json!({"description": 5}),
        json!({"$ref": 5}),
        json!({"pattern": 5}),
        json!({"uniqueItems": "yes"}),
        json!({"additionalProperties": "no"}),
        json!({"$defs": {"A": 5}}),
        json!({"dependentRequired": {"a": [1]}}),
        json!({"$schema": 5}),
        json!({"$anchor": "no spaces allowed"}),
        json!({"$id": "#fragment#"}),
    ];
    for schema in &refused {
        assert!(!surely_valid(schema), "read as valid: {schema}");
        assert!(!validator_takes(schema), "the meta-schema takes {schema}");
        let error = SchemaCheck::new(schema).err();
        assert_eq!(
            error,
            jsonschema::meta::validate(schema)
                .err()
                .map(|e| e.to_string()),
            "{schema}"
        );
    }
}

#[test]
fn what_only_looks_unusual_is_still_checked_the_same() {
    // Valid, some read here and some left to the validator: each taken.
    let taken = [
        json!(true),
        json!({}),
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}),
        json!({"$id": "https://example.com/tool", "type": "object"}),
        json!({"$ref": "not a :: uri", "pattern": "(", "format": "nothing"}),
        json!({"nullable": "yes", "x-extension": {"type": 5}, "additionalItems": 3}),
        json!({"minLength": 0, "maxLength": 3, "multipleOf": 0.5, "minimum": -1.5}),
        json!({"type": ["string", "null"], "enum": [], "const": null, "default": {}}),
        json!({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}),
        json!({"properties": {"a": false}, "additionalProperties": true}),
    ];
    for schema in &taken {
        holds(schema);
        assert!(validator_takes(schema), "{schema}");
    }
}

/// A small deterministic random source: the same cases on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "prefixItems",
    "additionalProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "enum",
    "const",
    "default",
    "description",
    "title",
    "format",
    "$ref",
    "$defs",
    "definitions",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "pattern",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "contains",
    "minContains",
    "maxContains",
    "if",
    "then",
    "else",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "unevaluatedItems",
    "unevaluatedProperties",
    "minProperties",
    "maxProperties",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$recursiveRef",
    "$recursiveAnchor",
    "nullable",
    "additionalItems",
    "x-extension",
    "id",
];

const TEXTS: &[&str] = &[
    "string",
    "integer",
    "number",
    "object",
    "array",
    "boolean",
    "null",
    "strin",
    "",
    "#/$defs/A",
    "https://json-schema.org/draft/2020-12/schema",
    "a b",
    "(",
    "A",
];

/// A value of any shape, schemas likelier than not.
fn value(random: &mut Random, depth: usize) -> Value {
    let shapes = if depth >= 3 { 6 } else { 10 };
    match random.below(shapes) {
        0 => json!(random.below(2) == 0),
        1 => json!(random.below(7) as i64 - 2),
        2 => json!([0.5, -1.5, 0.0, 2.0][random.below(4)]),
        3 => json!(random.pick(TEXTS)),
        4 => Value::Null,
        5 => json!(random.below(5)),
        6 | 7 => schema(random, depth + 1),
        8 => Value::Array(
            (0..random.below(3))
                .map(|_| {
                    if random.below(2) == 0 {
                        json!(random.pick(TEXTS))
                    } else {
                        value(random, depth + 1)
                    }
                })
                .collect(),
        ),
        _ => Value::Object(
            (0..random.below(3))
                .map(|_| (random.pick(TEXTS).to_string(), value(random, depth + 1)))
                .collect(),
        ),
    }
}

/// An object of keywords, each with a value of any shape.
fn schema(random: &mut Random, depth: usize) -> Value {
    Value::Object(
        (0..random.below(4))
            .map(|_| (random.pick(KEYWORDS).to_string(), value(random, depth)))
            .collect(),
    )
}

#[test]
fn no_random_schema_is_read_as_valid_when_the_meta_schema_refuses_it() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let (mut read, mut cases) = (0, 0);
    for _ in 0..20_000 {
        let schema = schema(&mut random, 0);
        cases += 1;
        if surely_valid(&schema) {
            read += 1;
        }
        holds(&schema);
    }
    // Not vacuous: a good share is read here, and a good share is not.
    assert!(
        read * 10 > cases && read * 10 < cases * 9,
        "{read} of {cases}"
    );
}
