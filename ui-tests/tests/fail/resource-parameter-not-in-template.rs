use tool_core::resource;

/// A day's log.
#[resource(uri = "logs://{day}")]
fn log(day: String, level: String) -> String {
    format!("{day} {level}")
}

fn main() {}
