//! The derive on each shape it takes, the requested schema made once per
//! type, and the texts and serialized forms of the module's types.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::*;
use crate::error::tool_error::Violation;

/// What the guest chooses.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Booking {
    /// The room.
    room: Room,
    /// Breakfast included.
    #[serde(default)]
    breakfast: bool,
    /// Anything the hotel should know.
    note: Option<String>,
    /// Where to send the bill.
    email: Option<Email>,
    extras: BTreeSet<Extra>,
    #[serde(flatten)]
    stay: Stay,
    #[serde(skip)]
    seen: Vec<Booking>,
    /// When, as the guest puts it.
    #[schemars(with = "String")]
    arrival: Arrival,
}

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
    LateCheckout,
}

/// An address.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Email(#[schemars(email)] String);

#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Stay {
    /// Nights.
    #[schemars(range(min = 1, max = 14))]
    nights: u8,
}

/// Not a field itself: asked as the `String` its schema says.
#[derive(Deserialize)]
struct Arrival;

#[test]
fn a_derived_question_asks_for_its_fields_flattened_ones_included() {
    let schema = Booking::requested_schema().unwrap();
    assert_eq!(
        schema.to_string(),
        json!({
            "type": "object",
            "properties": {
                "room": {"type": "string", "description": "The room.", "oneOf": [
                    {"const": "single", "title": "Single, one bed."},
                    {"const": "double", "title": "Double, two beds."}
                ]},
                "breakfast": {"type": "boolean", "description": "Breakfast included.", "default": false},
                "note": {"type": "string", "description": "Anything the hotel should know."},
                "email": {"type": "string", "description": "Where to send the bill.", "format": "email"},
                "extras": {"type": "array", "items": {"type": "string", "enum": ["parking", "late_checkout"]}},
                "nights": {"type": "integer", "description": "Nights.", "minimum": 1, "maximum": 14},
                "arrival": {"type": "string", "description": "When, as the guest puts it."}
            },
            "required": ["room", "extras", "nights", "arrival"]
        })
        .to_string()
    );
    // Made once: the same schema, not a copy.
    assert!(Arc::ptr_eq(&schema, &Booking::requested_schema().unwrap()));
}

/// A type whose hand-written schema is no field: what the derive cannot
/// foresee, and the conversion refuses at run time.
#[derive(Deserialize)]
struct Coordinates;

impl JsonSchema for Coordinates {
    fn schema_name() -> Cow<'static, str> {
        "Coordinates".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "array", "items": {"type": "number"}})
    }
}

impl field::ElicitValue for Coordinates {}

#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Where {
    at: Coordinates,
}

#[test]
fn a_schema_the_derive_could_not_foresee_is_refused_naming_type_and_property() {
    let error = Where::requested_schema().unwrap_err();
    assert_eq!(
        error.to_string(),
        "`tool_core::elicit::tests::Where` cannot be asked of a person: property `at` at `/properties/at`: an array of numbers; MCP elicitation takes an array only of choices (an enum)"
    );
    assert_eq!(Where::requested_schema().unwrap_err(), error);
}

#[test]
fn each_error_says_what_happened_for_the_model() {
    let texts = [
        (
            ElicitError::Unsupported {
                reason: "the MCP client does not take elicitation".into(),
            },
            "the person could not be asked: the MCP client does not take elicitation",
        ),
        (
            ElicitError::TimedOut {
                after: Duration::from_millis(1500),
            },
            "the person did not answer within 1.5s",
        ),
        (
            ElicitError::Cancelled,
            "the call was cancelled while it waited for the person's answer",
        ),
        (
            ElicitError::InvalidAnswer {
                asked: 3,
                violations: vec![
                    Violation::for_argument("room", "expected one of `single`, `double`"),
                    Violation::new("", "missing `nights`"),
                ],
            },
            "the person's answer did not fit, after 3 asks: argument `room` at `/room`: expected one of `single`, `double`; missing `nights`",
        ),
        (
            ElicitError::Lost {
                reason: "its record is gone".into(),
            },
            "the question to the person was lost: its record is gone",
        ),
        (
            ElicitError::Undeclared {
                tool: "book_room".into(),
            },
            "tool `book_room` asked the person a question, but is not marked `asks` (`#[tool(asks)]`), so its call cannot wait for an answer",
        ),
        (
            ElicitError::NotFlat {
                type_name: "hotel::Booking",
                reason: "property `tags` at `/properties/tags`: an array of strings".into(),
            },
            "`hotel::Booking` cannot be asked of a person: property `tags` at `/properties/tags`: an array of strings",
        ),
    ];
    for (error, text) in texts {
        assert_eq!(error.to_string(), text);
    }
}

#[test]
fn an_elicitation_is_accepted_or_not() {
    assert!(Elicitation::Accept("x").is_accept());
    assert!(!Elicitation::<()>::Decline.is_accept());
    assert!(!Elicitation::<()>::Cancel.is_accept());
    assert_eq!(Elicitation::Accept(7).accepted(), Some(7));
    assert_eq!(Elicitation::<u8>::Cancel.accepted(), None);
}

#[test]
fn an_answer_is_written_as_mcps_elicit_result() {
    #[derive(Serialize)]
    struct Chosen {
        room: &'static str,
    }
    let cases = [
        (
            Answer::accept(&Chosen { room: "double" }).unwrap(),
            json!({"action": "accept", "content": {"room": "double"}}),
        ),
        (Answer::Decline, json!({"action": "decline"})),
        (Answer::Cancel, json!({"action": "cancel"})),
    ];
    for (answer, written) in cases {
        assert_eq!(serde_json::to_value(&answer).unwrap(), written);
        assert_eq!(serde_json::from_value::<Answer>(written).unwrap(), answer);
    }
}

#[test]
fn a_question_reads_back_as_it_was_written() {
    let question = Question {
        id: "5f0c2d9a4b7e41c3a8d6e2f1b0c9a7d4".into(),
        call_id: "9c1f".into(),
        tool: "book_room".into(),
        message: "Which room?".into(),
        schema: json!({"type": "object", "properties": {}}),
        deadline_ms: 1_796_121_300_123,
        asks_left: 2,
        caller: None,
        conversation: None,
        key: None,
    };
    let written = serde_json::to_value(&question).unwrap();
    assert_eq!(
        written,
        json!({
            "id": "5f0c2d9a4b7e41c3a8d6e2f1b0c9a7d4",
            "call_id": "9c1f",
            "tool": "book_room",
            "message": "Which room?",
            "schema": {"type": "object", "properties": {}},
            "deadline_ms": 1_796_121_300_123_u64,
            "asks_left": 2
        })
    );
    let read: Question = serde_json::from_value(written).unwrap();
    assert_eq!(read, question);
    assert_eq!(
        (read.id(), read.call_id(), read.tool(), read.message()),
        (
            "5f0c2d9a4b7e41c3a8d6e2f1b0c9a7d4",
            "9c1f",
            "book_room",
            "Which room?"
        )
    );
    assert_eq!(read.asks_left(), 2);
    assert_eq!(
        read.deadline(),
        std::time::UNIX_EPOCH + Duration::from_millis(1_796_121_300_123)
    );
}
