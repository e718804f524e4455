//! Every kind of field a question takes, and what the person is shown.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_core::elicit::{Elicit, ElicitChoice, ElicitField};

#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "snake_case")]
enum Room {
    /// Single, one bed.
    Single,
    /// Double, two beds.
    Double,
}

#[derive(Deserialize, JsonSchema, Elicit, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
enum Extra {
    Parking,
    Breakfast,
}

/// An address to write to.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Email(#[schemars(email)] String);

#[derive(Deserialize, JsonSchema, Elicit)]
struct Stay {
    nights: u8,
}

/// Every kind of field.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Everything {
    text: String,
    yes: bool,
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: isize,
    f: u8,
    g: u16,
    h: u32,
    i: u64,
    j: usize,
    k: f32,
    l: f64,
    room: Room,
    email: Email,
    extras: Vec<Extra>,
    set: BTreeSet<Extra>,
    maybe_text: Option<String>,
    maybe_yes: Option<bool>,
    maybe_number: Option<f64>,
    maybe_room: Option<Room>,
    maybe_email: Option<Email>,
    maybe_extras: Option<Vec<Extra>>,
    #[serde(flatten)]
    stay: Stay,
    #[serde(skip)]
    not_asked: Vec<Vec<String>>,
    #[schemars(with = "String")]
    as_text: Timestamp,
}

#[derive(Deserialize)]
struct Timestamp;

fn field<T: ElicitField>() {}
fn choice<T: ElicitChoice>() {}

fn main() {
    field::<Room>();
    field::<Option<Email>>();
    choice::<Extra>();
    let schema = Everything::requested_schema().unwrap();
    let properties = schema["properties"].as_object().unwrap();
    assert_eq!(properties.len(), 26);
    assert_eq!(properties["email"], json!({"type": "string", "description": "An address to write to.", "format": "email"}));
    assert_eq!(properties["maybe_extras"], json!({"type": "array", "items": {"type": "string", "enum": ["parking", "breakfast"]}}));
    assert_eq!(properties["nights"], json!({"type": "integer", "minimum": 0, "maximum": 255}));
    assert_eq!(properties["as_text"], json!({"type": "string"}));
}
