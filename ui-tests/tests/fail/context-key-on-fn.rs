use tool_core::tool;

struct App;

/// Get the time.
#[tool(context = App)]
fn now() -> String {
    String::from("noon")
}

fn main() {}
