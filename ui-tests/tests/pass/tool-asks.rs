//! A tool that says it asks may call `.elicit(...)`, and its metadata says
//! so; one that says nothing is not `asks`.

use tool_core::{tool, ToolContext, ToolRegistry};

/// Stands in for the context's own `elicit`.
trait Ask {
    fn elicit<T>(&self, message: &str) -> Option<T>;
}

impl<C> Ask for ToolContext<C> {
    fn elicit<T>(&self, _message: &str) -> Option<T> {
        None
    }
}

/// Book a room, asking the guest which one.
#[tool(asks)]
fn book_room(ctx: &ToolContext<()>, night: String) -> String {
    let room = ctx.elicit::<String>(&format!("Which room on {night}?"));
    room.unwrap_or_default()
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
