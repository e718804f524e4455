use tool_core::tool;

fn check_city(city: &String) -> bool {
    !city.is_empty()
}

/// Get the weather for a city.
#[tool(validate = check_city)]
fn get_weather(
    /// The city.
    city: String,
) -> String {
    city
}

fn main() {}
