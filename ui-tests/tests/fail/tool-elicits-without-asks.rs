use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::{tool, ToolContext};

/// What the guest chooses.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// The room's number.
    room: u32,
}

/// Book a room, asking the guest which one.
#[tool]
async fn book_room(ctx: &ToolContext<()>, night: String) -> Result<String, ElicitError> {
    let asked = ctx.elicit::<Booking>(format!("Which room on {night}?")).await?;
    Ok(match asked {
        Elicitation::Accept(booking) => format!("booked room {}", booking.room),
        Elicitation::Decline | Elicitation::Cancel => "not booked".to_owned(),
    })
}

fn main() {}
