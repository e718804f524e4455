use tool_core::{resource, ToolContext};

/// A day's log.
#[resource(uri = "logs://{day}/{level}", mime = "text/plain", uri = "logs://today")]
fn log<T>(ctx: ToolContext, date: String, (a, b): (u8, u8), level: String) -> String {
    let _ = (ctx, a, b);
    format!("{date} {level}")
}

fn main() {}
