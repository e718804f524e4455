use tool_core::prompt;

struct Reviewer;

impl Reviewer {
    /// Review a change.
    #[prompt]
    fn review(&self, diff: String) -> String {
        diff
    }
}

fn main() {}
