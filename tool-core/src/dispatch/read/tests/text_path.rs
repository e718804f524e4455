//! Which calls read their arguments straight out of the text: a
//! parameter type that counts the reads made by serde_json's reader of a
//! `&str` tells.

use std::cell::Cell;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::observe::observer::CallObserver;
use crate::registry::tool_registry::ToolRegistry;
use crate::tool;
use crate::tool::context::ToolContext;

thread_local! {
    /// Titles read straight out of the arguments' text, on this thread.
    static FROM_TEXT: Cell<usize> = const { Cell::new(0) };
}

/// A title that counts the reads made out of text: serde_json's reader
/// of a `&str` is the only deserializer that names `StrRead`.
#[derive(schemars::JsonSchema)]
#[schemars(transparent)]
struct Title(String);

impl<'de> Deserialize<'de> for Title {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if std::any::type_name::<D>().contains("StrRead") {
            FROM_TEXT.with(|count| count.set(count.get() + 1));
        }
        String::deserialize(deserializer).map(Title)
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Add a note.
#[tool(concurrency_safe)]
fn add_note(title: Title, priority: u8, tags: Option<Vec<String>>) -> String {
    format!("{} {priority} {tags:?}", title.0)
}

/// Add a note, with a context, waiting, one call at a time.
#[tool]
async fn add_note_seen(ctx: &ToolContext<()>, title: Title, units: Option<Units>) -> String {
    let units = match units {
        Some(Units::Celsius) => "C",
        Some(Units::Fahrenheit) => "F",
        None => "-",
    };
    format!("{} {units} {}", title.0, ctx.call_id().is_some())
}

/// Add a note, by hand.
#[tool(concurrency_safe, schema = serde_json::json!({"type": "object"}))]
fn add_note_by_hand(title: Title) -> String {
    title.0
}

/// Add a note, asking first.
#[tool(tier = Confirm, concurrency_safe)]
fn add_note_confirmed(title: Title) -> String {
    title.0
}

/// Add a note, its title at least three letters long.
#[tool(concurrency_safe)]
fn add_note_long(#[schemars(length(min = 3))] title: String, marker: Option<Title>) -> String {
    format!("{title} {}", marker.is_some())
}

struct Watch;

impl CallObserver for Watch {}

/// Whether the call of `tool` with `args` was read from the text, and
/// its result's text.
fn call(registry: &ToolRegistry<()>, tool: &str, args: &str) -> (bool, String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let before = FROM_TEXT.with(Cell::get);
    let result = runtime.block_on(registry.call(
        &ToolContext::new(()),
        tool,
        Value::String(args.to_owned()),
    ));
    let read = FROM_TEXT.with(Cell::get) > before;
    (read, result.model_text().into_owned())
}

#[test]
fn arguments_are_read_from_their_text_when_nothing_else_needs_them() {
    let registry = ToolRegistry::new()
        .with(AddNote)
        .with(AddNoteSeen)
        .with(AddNoteByHand)
        .with(AddNoteConfirmed)
        .with(AddNoteLong);
    let note = r#"{"title": "G", "priority": 2, "tags": ["a"]}"#;
    assert_eq!(
        call(&registry, "add_note", note),
        (true, r#"G 2 Some(["a"])"#.to_owned())
    );
    assert_eq!(
        call(&registry, "add_note", r#"{"title":"G","priority":2}"#),
        (true, "G 2 None".to_owned())
    );
    // An async tool with a context and an enum, not concurrency-safe:
    // its call id made from the text when it asks.
    assert_eq!(
        call(
            &registry,
            "add_note_seen",
            r#"{"title":"G","units":"celsius"}"#
        ),
        (true, "G C true".to_owned())
    );
    // Read again the whole way, in the schema's words: a value the
    // parameters refuse, a key no parameter has.
    for refused in [
        r#"{"title": "G", "priority": 300}"#,
        r#"{"title": "G", "priority": 2, "colour": "red"}"#,
    ] {
        let (_, text) = call(&registry, "add_note", refused);
        assert!(text.starts_with("invalid arguments"), "{text}");
    }
    // Tools that need more than their parameters: a schema by hand, an
    // approval, a schema that says more than the types.
    let title = r#"{"title": "Gro", "marker": "m"}"#;
    for tool in ["add_note_by_hand", "add_note_confirmed", "add_note_long"] {
        assert!(!call(&registry, tool, title).0, "{tool}");
    }
    // A registry whose calls are watched.
    let watched = ToolRegistry::builder()
        .with(AddNote)
        .observer(Watch)
        .build();
    assert_eq!(
        call(&watched, "add_note", note),
        (false, r#"G 2 Some(["a"])"#.to_owned())
    );
}
