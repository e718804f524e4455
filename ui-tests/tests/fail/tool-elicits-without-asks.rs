use tool_core::{tool, ToolContext};

/// Stands in for the context's own `elicit`: the rule is about the call,
/// whatever answers it.
trait Ask {
    fn elicit<T>(&self, message: &str) -> Option<T>;
}

impl<C> Ask for ToolContext<C> {
    fn elicit<T>(&self, _message: &str) -> Option<T> {
        None
    }
}

/// Book a room, asking the guest which one.
#[tool]
fn book_room(ctx: &ToolContext<()>, night: String) -> String {
    let room = ctx.elicit::<String>(&format!("Which room on {night}?"));
    room.unwrap_or_default()
}

fn main() {}
