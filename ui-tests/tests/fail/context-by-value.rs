use tool_core::{tool, ToolContext};

/// Say who calls.
#[tool]
async fn whoami(ctx: ToolContext<()>) -> String {
    ctx.call_id().unwrap_or("unknown").to_owned()
}

fn main() {}
