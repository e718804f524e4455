use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_core::{tool, ToolContext, ToolRegistry};

struct App {
    default_city: String,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Serialize)]
struct Weather {
    temperature: f64,
    summary: String,
}

#[derive(Debug)]
struct WeatherError(String);

impl std::fmt::Display for WeatherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Get the current weather for a city.
///
/// Returns the temperature and a one-line summary.
#[tool(read_only, tier = Observe, timeout = "10s")]
async fn get_weather(
    ctx: &ToolContext<App>,
    /// City name, e.g. "Paris".
    city: Option<String>,
    /// Temperature units; Celsius when omitted.
    units: Option<Units>,
) -> Result<Weather, WeatherError> {
    let city = city.unwrap_or_else(|| ctx.state().default_city.clone());
    let temperature = match units {
        Some(Units::Fahrenheit) => 70.0,
        _ => 21.0,
    };
    Ok(Weather { temperature, summary: format!("mild in {city}") })
}

fn main() {
    let registry = ToolRegistry::<App>::new().with(GetWeather);
    assert_eq!(registry.names().collect::<Vec<_>>(), ["get_weather"]);
}
