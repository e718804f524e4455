use tool_core::tool;

#[tool]
fn now() -> String {
    String::from("noon")
}

fn main() {}
