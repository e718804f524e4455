// The expansion's own uses of a deprecated tool raise nothing; the user's
// call of the function is the one error.
#![deny(deprecated)]

use tool_core::{tool, ToolRegistry};

/// Add two numbers.
#[deprecated = "use `sum`"]
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Add two numbers, the first one optional.
#[deprecated = "use `sum`"]
#[tool(output_schema)]
async fn add_to(#[serde(default)] a: i64, b: i64) -> i64 {
    a + b
}

/// Shout a word.
#[tool(schema = serde_json::json!({"type": "object"}))]
#[deprecated = "use `whisper`"]
#[derive(serde::Deserialize)]
struct Shout {
    word: String,
}

#[allow(deprecated)]
impl Shout {
    fn run(self) -> String {
        self.word.to_uppercase()
    }
}

fn main() {
    let _registry = ToolRegistry::<()>::new()
        .with(Add)
        .with(AddTo)
        .with(ShoutTool);
    let _ = add(1, 2);
}
