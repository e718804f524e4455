use serde::Serialize;
use tool_core::tool;

#[derive(Serialize)]
struct Weather {
    celsius: f64,
}

/// Get the weather.
#[tool(output_schema)]
fn get_weather(city: String) -> Result<Weather, String> {
    let _ = city;
    Ok(Weather { celsius: 21.5 })
}

fn main() {}
