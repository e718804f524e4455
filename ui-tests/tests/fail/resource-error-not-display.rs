use tool_core::resource;

struct Unreadable;

/// The note.
#[resource(uri = "notes://today")]
fn today() -> Result<String, Unreadable> {
    Err(Unreadable)
}

fn main() {}
