use tool_core::prompt;

/// Say hello.
#[prompt(title = "Hello", uri = "prompts://hello")]
fn hello() -> String {
    String::from("Hello.")
}

fn main() {}
