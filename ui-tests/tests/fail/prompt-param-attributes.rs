use tool_core::prompt;

/// Review a change.
#[prompt]
fn review(
    /// The change.
    #[serde(default, rename = "changeDiff")]
    diff: String,
    #[schemars(length(max = 20))]
    focus: String,
) -> String {
    format!("{diff} {focus}")
}

fn main() {}
