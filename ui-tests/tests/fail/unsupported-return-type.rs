use tool_core::tool;

struct Handle;

/// Open a handle.
#[tool]
async fn open(path: String) -> Handle {
    let _ = path;
    Handle
}

fn main() {}
