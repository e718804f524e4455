use tool_core::{tool, ToolContext, ToolRegistry};

struct App;
struct Other;

/// Get the time.
#[tool]
async fn now(ctx: &ToolContext<App>) -> String {
    let _ = ctx;
    String::from("noon")
}

fn main() {
    let _registry = ToolRegistry::<Other>::new().with(Now);
}
