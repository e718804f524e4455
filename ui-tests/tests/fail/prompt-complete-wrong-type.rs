use tool_core::prompt;

/// Review a change.
#[prompt(complete = focuses)]
fn review(focus: String) -> String {
    focus
}

fn focuses(prefix: &str) -> Vec<&'static str> {
    vec!["clarity"].into_iter().filter(|f| f.starts_with(prefix)).collect()
}

fn main() {}
