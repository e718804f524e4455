use tool_core::prompt;

/// Compare two files.
#[prompt]
fn compare((left, right): (String, String), _: String) -> String {
    format!("{left} {right}")
}

fn main() {}
