use tool_core::prompt;

/// Say hello.
#[prompt]
fn hello() -> serde_json::Value {
    serde_json::json!({"text": "Hello."})
}

fn main() {}
