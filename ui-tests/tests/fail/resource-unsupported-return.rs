use tool_core::resource;

struct Note {
    text: String,
}

/// The note.
#[resource(uri = "notes://today")]
fn today() -> Result<Note, String> {
    Ok(Note { text: String::new() })
}

fn main() {}
