//! A tool that says it asks may call `.elicit(...)`, and its metadata says
//! so; one that says nothing is not `asks`.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::{Elicit, ElicitError};
use tool_core::{tool, ToolContext, ToolRegistry};

/// What the guest chooses.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// The room's number.
    room: u32,
}

/// Book a room, asking the guest which one.
#[tool(asks)]
async fn book_room(ctx: &ToolContext<()>, night: String) -> Result<String, ElicitError> {
    let asked = ctx.elicit::<Booking>(format!("Which room on {night}?")).await?;
    Ok(asked.accepted().map_or_else(String::new, |booking| booking.room.to_string()))
}

/// Echo a text.
#[tool]
fn echo(text: String) -> String {
    text
}

fn main() {
    let registry = ToolRegistry::new().with(BookRoom).with(Echo);
    assert!(registry.info("book_room").unwrap().metadata.asks);
    assert!(!registry.info("echo").unwrap().metadata.asks);
}
