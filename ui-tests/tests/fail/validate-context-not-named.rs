use tool_core::{tool, ToolContext, Violation};

struct App;

fn ordered(ctx: &ToolContext<App>, start: &u32, end: &u32) -> Result<(), Violation> {
    let _ = (ctx, start, end);
    Ok(())
}

/// Count the days.
#[tool(validate = ordered)]
fn days(ctx: &ToolContext<App>, start: u32, end: u32) -> u32 {
    let _ = ctx;
    end - start
}

fn main() {}
