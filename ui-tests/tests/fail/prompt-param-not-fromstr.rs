use tool_core::prompt;

/// Review some files.
#[prompt]
async fn review(files: Option<Vec<String>>) -> String {
    files.unwrap_or_default().join(", ")
}

fn main() {}
