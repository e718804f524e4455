use tool_core::resource;

/// The notes.
#[resource(uri = "file:///notes.md", mime = "text/markdown")]
fn notes() -> String {
    String::new()
}

fn main() {}
