use tool_core::resource;

struct Notes;

impl Notes {
    /// The notes.
    #[resource(uri = "file:///notes.md")]
    fn notes(&self) -> String {
        String::new()
    }
}

fn main() {}
