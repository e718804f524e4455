use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_core::{tool, ToolContext};

#[derive(Serialize)]
struct Weather {
    celsius: f64,
}

/// Get the weather.
#[tool(context = (), output_schema)]
#[derive(Deserialize, JsonSchema)]
struct GetWeather {
    city: String,
}

impl GetWeather {
    async fn run(self, _ctx: &ToolContext) -> Weather {
        let _ = self.city;
        Weather { celsius: 21.5 }
    }
}

fn main() {}
