use tool_core::{tool, ToolContext};

/// Copy the files.
#[tool]
async fn copy(ctx: &ToolContext, files: Vec<String>) -> usize {
    let note: Option<String> = files.first().cloned();
    ctx.progress(1, files.len(), note);
    files.len()
}

fn main() {}
