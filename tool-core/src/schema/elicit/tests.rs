//! Every shape of the conversion, from the schemas schemars gives real
//! types, as exact JSON (key order included: it is what a client shows);
//! and every refusal's text, from schemas written by hand.

#![allow(dead_code)]

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::schema::elicit::requested_schema;
use crate::schema::input_schema_for;

fn requested<T: JsonSchema>() -> String {
    match requested_schema(&input_schema_for::<T>()) {
        Ok(schema) => schema.to_string(),
        Err(not_flat) => panic!("not flat: {not_flat}"),
    }
}

fn refused(schema: Value) -> String {
    match requested_schema(&schema) {
        Ok(schema) => panic!("expected a refusal, got {schema}"),
        Err(not_flat) => not_flat.to_string(),
    }
}

/// What the guest chooses.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Booking {
    /// The room.
    room: Room,
    /// Breakfast included.
    #[serde(default)]
    breakfast: bool,
    /// Anything the hotel should know.
    note: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema, Default, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
enum Room {
    /// Single, one bed.
    #[default]
    Single,
    /// Double, two beds.
    ///
    /// Only the first line is the title.
    Double,
    #[schemars(title = "The suite")]
    Suite,
}

#[derive(Deserialize, Serialize, JsonSchema, Default, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
enum Size {
    #[default]
    Small,
    Large,
}

#[derive(Deserialize, Serialize, JsonSchema)]
enum Mixed {
    A,
    /// Bee.
    B,
    C,
}

/// Where to write.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Email(#[schemars(email)] String);

#[test]
fn the_booking_of_the_design() {
    assert_eq!(
        requested::<Booking>(),
        json!({
            "type": "object",
            "properties": {
                "room": {
                    "type": "string",
                    "description": "The room.",
                    "oneOf": [
                        {"const": "single", "title": "Single, one bed."},
                        {"const": "double", "title": "Double, two beds."},
                        {"const": "suite", "title": "The suite"}
                    ]
                },
                "breakfast": {"type": "boolean", "description": "Breakfast included.", "default": false},
                "note": {"type": "string", "description": "Anything the hotel should know."}
            },
            "required": ["room"]
        })
        .to_string()
    );
}

fn default_name() -> String {
    "guest".into()
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Strings {
    plain: String,
    /// A name.
    #[schemars(length(min = 1, max = 40), title = "Name")]
    #[serde(default = "default_name")]
    name: String,
    email: Email,
    backup: Option<Email>,
    #[schemars(url)]
    site: String,
    #[schemars(extend("format" = "date"))]
    day: String,
    #[schemars(extend("format" = "date-time"))]
    at: String,
    #[schemars(extend("format" = "uuid"))]
    id: String,
    #[schemars(regex(pattern = "^[A-Z]{3}$"))]
    code: String,
    note: Option<String>,
}

#[test]
fn strings_keep_their_lengths_and_mcps_four_formats() {
    assert_eq!(
        requested::<Strings>(),
        json!({
            "type": "object",
            "properties": {
                "plain": {"type": "string"},
                "name": {"type": "string", "title": "Name", "description": "A name.", "minLength": 1, "maxLength": 40, "default": "guest"},
                "email": {"type": "string", "description": "Where to write.", "format": "email"},
                "backup": {"type": "string", "description": "Where to write.", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "day": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "id": {"type": "string"},
                "code": {"type": "string"},
                "note": {"type": "string"}
            },
            "required": ["plain", "email", "site", "day", "at", "id", "code"]
        })
        .to_string()
    );
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Numbers {
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: i64,
    i: usize,
    j: isize,
    k: f32,
    l: f64,
    #[schemars(range(min = 1, max = 5))]
    stars: u8,
    #[schemars(range(min = 0.5))]
    weight: f64,
    #[serde(default)]
    count: u32,
    maybe: Option<u8>,
    yes: bool,
    unsure: Option<bool>,
}

#[test]
fn numbers_keep_their_ranges_and_lose_schemars_formats() {
    assert_eq!(
        requested::<Numbers>(),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "minimum": 0, "maximum": 255},
                "b": {"type": "integer", "minimum": -128, "maximum": 127},
                "c": {"type": "integer", "minimum": 0, "maximum": 65535},
                "d": {"type": "integer", "minimum": -32768, "maximum": 32767},
                "e": {"type": "integer", "minimum": 0},
                "f": {"type": "integer"},
                "g": {"type": "integer", "minimum": 0},
                "h": {"type": "integer"},
                "i": {"type": "integer", "minimum": 0},
                "j": {"type": "integer"},
                "k": {"type": "number"},
                "l": {"type": "number"},
                "stars": {"type": "integer", "minimum": 1, "maximum": 5},
                "weight": {"type": "number", "minimum": 0.5},
                "count": {"type": "integer", "minimum": 0, "default": 0},
                "maybe": {"type": "integer", "minimum": 0, "maximum": 255},
                "yes": {"type": "boolean"},
                "unsure": {"type": "boolean"}
            },
            "required": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "stars", "weight", "yes"]
        })
        .to_string()
    );
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Choices {
    /// How big.
    size: Size,
    room: Room,
    mixed: Mixed,
    maybe_size: Option<Size>,
    /// Which room, if any.
    maybe_room: Option<Room>,
    #[serde(default)]
    usual: Room,
}

#[test]
fn an_enum_is_a_choice_titled_when_its_variants_are_documented() {
    let titled = json!([
        {"const": "single", "title": "Single, one bed."},
        {"const": "double", "title": "Double, two beds."},
        {"const": "suite", "title": "The suite"}
    ]);
    assert_eq!(
        requested::<Choices>(),
        json!({
            "type": "object",
            "properties": {
                "size": {"type": "string", "description": "How big.", "enum": ["small", "large"]},
                "room": {"type": "string", "oneOf": titled},
                "mixed": {"type": "string", "oneOf": [
                    {"const": "A", "title": "A"},
                    {"const": "C", "title": "C"},
                    {"const": "B", "title": "Bee."}
                ]},
                "maybe_size": {"type": "string", "enum": ["small", "large"]},
                "maybe_room": {"type": "string", "description": "Which room, if any.", "oneOf": titled},
                "usual": {"type": "string", "oneOf": titled, "default": "single"}
            },
            "required": ["size", "room", "mixed"]
        })
        .to_string()
    );
}

/// A choice titled the way MCP 2025-06-18 wrote it, by hand.
#[derive(Deserialize, Serialize, JsonSchema)]
struct LegacyTitles {
    #[schemars(extend("enum" = ["opt1", "opt2"], "enumNames" = ["Option One", "Option Two"]))]
    legacy: String,
    #[schemars(extend("enum" = ["a", "b"], "enumNames" = ["Only one title"]))]
    uneven: String,
}

#[test]
fn titles_written_as_enum_names_stay_beside_their_values() {
    assert_eq!(
        requested::<LegacyTitles>(),
        json!({
            "type": "object",
            "properties": {
                "legacy": {"type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"]},
                "uneven": {"type": "string", "enum": ["a", "b"]}
            },
            "required": ["legacy", "uneven"]
        })
        .to_string()
    );
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct SeveralChoices {
    /// Which sizes.
    sizes: Vec<Size>,
    rooms: BTreeSet<Room>,
    #[schemars(length(min = 1, max = 2))]
    some: Vec<Size>,
    maybe: Option<Vec<Size>>,
    #[serde(default = "both")]
    usual: Vec<Size>,
}

fn both() -> Vec<Size> {
    vec![Size::Small, Size::Large]
}

#[test]
fn a_vec_or_set_of_an_enum_is_several_choices() {
    assert_eq!(
        requested::<SeveralChoices>(),
        json!({
            "type": "object",
            "properties": {
                "sizes": {"type": "array", "description": "Which sizes.", "items": {"type": "string", "enum": ["small", "large"]}},
                "rooms": {"type": "array", "items": {"anyOf": [
                    {"const": "single", "title": "Single, one bed."},
                    {"const": "double", "title": "Double, two beds."},
                    {"const": "suite", "title": "The suite"}
                ]}},
                "some": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["small", "large"]}},
                "maybe": {"type": "array", "items": {"type": "string", "enum": ["small", "large"]}},
                "usual": {"type": "array", "items": {"type": "string", "enum": ["small", "large"]}, "default": ["small", "large"]}
            },
            "required": ["sizes", "rooms", "some"]
        })
        .to_string()
    );
}

/// The guest.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Guest {
    name: String,
    #[serde(flatten)]
    stay: Stay,
    #[serde(skip)]
    seen: bool,
    #[schemars(with = "String")]
    #[serde(skip_serializing)]
    arrival: Arrival,
    #[deprecated]
    old: Option<bool>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Stay {
    /// Nights.
    nights: u8,
}

#[derive(Deserialize)]
struct Arrival;

#[test]
fn the_roots_other_keys_and_skipped_fields_go_and_flattened_fields_stay() {
    let full = input_schema_for::<Guest>();
    assert_eq!(full["additionalProperties"], false);
    assert!(full.get("$schema").is_none() && full["properties"]["old"]["deprecated"] == true);
    assert_eq!(
        requested::<Guest>(),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "nights": {"type": "integer", "description": "Nights.", "minimum": 0, "maximum": 255},
                "arrival": {"type": "string"},
                "old": {"type": "boolean"}
            },
            "required": ["name", "nights", "arrival"]
        })
        .to_string()
    );
    // The title and description schemars writes at the root go too.
    let mut titled = full;
    titled["title"] = json!("Guest");
    titled["description"] = json!("The guest.");
    assert_eq!(
        requested_schema(&titled).map(|schema| schema.to_string()),
        Ok(requested::<Guest>())
    );
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Tags {
    tags: Vec<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Nested {
    stay: Stay,
}

#[derive(Deserialize, Serialize, JsonSchema)]
enum WithData {
    Other(String),
    None,
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Chosen {
    pick: WithData,
}

#[test]
fn what_no_form_can_show_is_refused_naming_the_property() {
    assert_eq!(
        refused(input_schema_for::<Tags>()),
        "property `tags` at `/properties/tags`: an array of strings; MCP elicitation takes an array only of choices (an enum)"
    );
    assert_eq!(
        refused(input_schema_for::<Nested>()),
        "property `stay` at `/properties/stay`: an object (a nested struct); MCP elicitation takes strings, numbers, integers, booleans and choices, so make its fields the question's own (`#[serde(flatten)]`)"
    );
    assert_eq!(
        refused(input_schema_for::<Chosen>()),
        "property `pick` at `/properties/pick`: a combination of schemas (`oneOf`: an enum with data, say); MCP elicitation takes a string, number, integer, boolean or choice"
    );
    assert_eq!(
        refused(json!({"type": "object", "properties": {"a/b": {"type": ["string", "integer"]}}})),
        "property `a/b` at `/properties/a~1b`: a value of several types (`string`, `integer`); MCP elicitation takes one type per property"
    );
    assert_eq!(
        refused(json!({"type": "object", "properties": {"any": {}}})),
        "property `any` at `/properties/any`: any JSON value; MCP elicitation takes a string, number, integer, boolean or choice"
    );
    assert_eq!(
        refused(json!({"type": "object", "properties": {"any": true}})),
        "property `any` at `/properties/any`: `true` (any value); MCP elicitation takes a string, number, integer, boolean or choice"
    );
    assert_eq!(
        refused(json!({"type": "object", "properties": {"n": {"type": "null"}}})),
        "property `n` at `/properties/n`: always `null`; MCP elicitation takes a string, number, integer, boolean or choice"
    );
    assert_eq!(
        refused(
            json!({"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2]}}})
        ),
        "property `level` at `/properties/level`: a choice whose values are not all strings; MCP elicitation takes choices of strings (an enum of unit variants)"
    );
    assert_eq!(
        refused(
            json!({"type": "object", "properties": {"grid": {"type": "array", "items": {"type": "array"}}}})
        ),
        "property `grid` at `/properties/grid`: an array of arrays; MCP elicitation takes an array only of choices (an enum)"
    );
    assert_eq!(
        refused(
            json!({"type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "string"}]}}})
        ),
        "property `pair` at `/properties/pair`: an array of any values; MCP elicitation takes an array only of choices (an enum)"
    );
    assert_eq!(
        refused(json!({"type": "object", "properties": {"room": {"$ref": "#/$defs/Room"}}})),
        "property `room` at `/properties/room`: its `$ref` \"#/$defs/Room\" points at no definition in `$defs`"
    );
    assert_eq!(
        refused(json!({
            "type": "object",
            "properties": {"loop": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/A"}}
        })),
        "property `loop` at `/properties/loop`: its type refers back to itself; MCP elicitation takes a string, number, integer, boolean or choice"
    );
}

#[test]
fn a_schema_that_is_not_an_object_of_properties_is_refused_as_a_whole() {
    assert_eq!(
        refused(json!({"type": "string"})),
        "its schema is of type `string`, not of an object; MCP elicitation asks for an object whose properties are each a string, number, integer, boolean or choice"
    );
    assert_eq!(
        refused(json!(true)),
        "its schema is `true` (any value), not an object's; MCP elicitation asks for an object whose properties are each a string, number, integer, boolean or choice"
    );
    assert_eq!(
        refused(json!({"type": "object", "properties": {}, "oneOf": [{"required": ["a"]}]})),
        "its schema has `oneOf` at its root (a flattened enum, say); MCP elicitation asks for an object whose properties are all listed"
    );
    assert_eq!(
        refused(json!({"type": "object", "additionalProperties": {"type": "string"}})),
        "its schema takes properties besides those it lists (`additionalProperties`: a flattened map, say); MCP elicitation asks only for listed properties"
    );
}

#[test]
fn an_object_without_properties_asks_for_nothing() {
    #[derive(JsonSchema)]
    struct Nothing {}
    assert_eq!(
        requested::<Nothing>(),
        r#"{"type":"object","properties":{}}"#
    );
}
