use tool_core::tool;

/// Units.
#[tool]
enum Units {
    Celsius,
    Fahrenheit,
}

fn main() {}
