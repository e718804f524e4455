use tool_core::resource;

/// The notes.
#[resource(uri = "file:///notes.md", complete = days)]
fn notes(day: String) -> String {
    day
}

fn days(_name: &str, _prefix: &str) -> Vec<String> {
    Vec::new()
}

fn main() {}
