use tool_core::tool;

#[derive(Debug)]
struct NotFound;

/// Find a file.
#[tool]
async fn find(path: String) -> Result<String, NotFound> {
    if path.is_empty() { Err(NotFound) } else { Ok(path) }
}

fn main() {}
