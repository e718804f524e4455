use tool_core::{resource, ToolContext};

/// A user's profile.
#[resource(uri = "users://{id}/profile")]
fn profile(ctx: &ToolContext) -> String {
    let _ = ctx;
    String::new()
}

fn main() {}
