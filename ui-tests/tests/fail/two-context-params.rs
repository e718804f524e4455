use tool_core::{tool, ToolContext};

/// Look up a user.
#[tool]
async fn lookup(ctx: &ToolContext<()>, id: u64, again: &ToolContext<()>) -> String {
    let _ = (ctx, again);
    id.to_string()
}

fn main() {}
