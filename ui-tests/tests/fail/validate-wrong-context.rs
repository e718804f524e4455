use tool_core::{tool, ToolContext, Violation};

struct App;
struct Other;

fn ordered(ctx: &ToolContext<Other>, start: &u32) -> Result<(), Violation> {
    let _ = (ctx, start);
    Ok(())
}

/// Count the days.
#[tool(validate = ordered(ctx, start))]
fn days(ctx: &ToolContext<App>, start: u32, end: u32) -> u32 {
    let _ = ctx;
    end - start
}

fn main() {}
