use tool_core::prompt;

/// Review a change.
#[prompt]
fn review<T: std::str::FromStr + ToString>(diff: T) -> String {
    diff.to_string()
}

fn main() {}
