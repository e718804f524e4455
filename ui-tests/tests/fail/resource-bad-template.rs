use tool_core::resource;

/// A file of a repository.
#[resource(uri = "repo://{owner}{name}/{path")]
fn file(owner: String, name: String) -> String {
    format!("{owner}/{name}")
}

fn main() {}
