//! Three tools, one registry, and the calls a model might make.
//!
//! Run with `cargo run --example quickstart`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// The application's state, shared by every call.
pub(crate) struct App {
    home_city: String,
}

/// Temperature units.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Serialize)]
struct Weather {
    city: String,
    temperature: f64,
    summary: &'static str,
}

/// Get the current weather for a city.
///
/// Returns the temperature and a one-line summary.
#[tool(read_only, timeout = "10s")]
async fn get_weather(
    ctx: &ToolContext<App>,
    /// City name, e.g. "Paris"; the user's home city when omitted.
    city: Option<String>,
    /// Temperature units; Celsius when omitted.
    units: Option<Units>,
) -> Result<Weather, String> {
    let city = city.unwrap_or_else(|| ctx.state().home_city.clone());
    if city.trim().is_empty() {
        return Err("the city name is empty".into());
    }
    let temperature = match units {
        Some(Units::Fahrenheit) => 70.7,
        _ => 21.5,
    };
    Ok(Weather {
        city,
        temperature,
        summary: "sunny with a light breeze",
    })
}

fn five() -> u8 {
    5
}

/// Search the web for current information.
#[tool(name = "web_search", read_only, timeout = "10s")]
#[derive(Deserialize, Serialize, JsonSchema)]
struct WebSearch {
    /// The search query.
    query: String,
    /// Maximum results to return.
    #[schemars(range(min = 1, max = 20))]
    #[serde(default = "five")]
    max_results: u8,
}

impl WebSearch {
    async fn run(self) -> Vec<String> {
        (1..=self.max_results.min(3))
            .map(|rank| format!("result {rank} for {:?}", self.query))
            .collect()
    }
}

/// Convert an amount between currencies at today's rate.
///
/// Of tier `Confirm`: every call goes to the approval hook, and none runs
/// without one.
#[tool(tier = Confirm, schema = json!({
    "type": "object",
    "properties": {
        "amount": {"type": "number", "exclusiveMinimum": 0},
        "from": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "to": {"type": "string", "pattern": "^[A-Z]{3}$"}
    },
    "required": ["amount", "from", "to"],
    "additionalProperties": false
}))]
fn convert_currency(amount: f64, from: String, to: String) -> ToolResult {
    match (from.as_str(), to.as_str()) {
        ("EUR", "USD") => ToolResult::text(format!("{amount} EUR = {:.2} USD", amount * 1.08)),
        _ => ToolResult::error(format!("no rate for {from} -> {to}; try EUR -> USD")),
    }
}

/// The application's say on calls of `Confirm` tools: here a rule, in a
/// real agent perhaps a question to the user.
struct SmallAmountsOnly;

impl ApprovalHook<App> for SmallAmountsOnly {
    async fn approve(&self, request: &ApprovalRequest<'_, App>) -> Approval {
        small_amounts_only(request.arguments)
    }
}

/// The rule itself, for a caller that decides outside the registry (the
/// agent example's loop, approving calls of turns that run on Restate).
pub(crate) fn small_amounts_only(arguments: &Value) -> Approval {
    match arguments["amount"].as_f64() {
        Some(amount) if amount <= 1000.0 => Approval::Approve,
        _ => Approval::deny("amounts over 1000 need a person to approve them"),
    }
}

/// The three tools, and the application's say on the one that needs it.
pub(crate) fn registry() -> ToolRegistry<App> {
    ToolRegistry::<App>::builder()
        .with(GetWeather)
        .with(WebSearchTool)
        .with(ConvertCurrency)
        .approval(SmallAmountsOnly)
        .build()
}

/// The context every call of this application runs in.
pub(crate) fn context() -> ToolContext<App> {
    ToolContext::new(App {
        home_city: "Lyon".into(),
    })
}

/// Everything the quickstart prints: the tools as one provider is given
/// them, then calls a model might make and what it reads back.
pub(crate) async fn transcript() -> String {
    let registry = registry();
    let mut out = String::new();

    // Each provider is given the tools in its own shape and schema dialect;
    // `registry.tool_definitions()` is the registry's own schema, which no
    // provider is sent as it is.
    let provider = Provider::Anthropic { strict: false };
    out.push_str("== The tool definitions Anthropic's Messages API is given ==\n");
    let others: Vec<&str> = Provider::ALL
        .iter()
        .filter(|other| **other != provider)
        .map(|other| other.name())
        .collect();
    out.push_str(&format!(
        "(another provider's: `cargo run --example definitions -- <provider>`, <provider> one of {})\n",
        others.join(", ")
    ));
    match provider.definitions(&registry) {
        Ok(definitions) => {
            let json = serde_json::to_string_pretty(definitions.as_json())
                .unwrap_or_else(|error| format!("the definitions are not JSON: {error}"));
            out.push_str(&json);
        }
        Err(error) => out.push_str(&format!("no definitions: {error}")),
    }
    out.push_str("\n\n");

    let ctx = context();
    let calls: [(&str, Value); 7] = [
        (
            "get_weather",
            json!({"city": "Paris", "units": "fahrenheit"}),
        ),
        // OpenAI sends the arguments as a JSON string.
        ("web_search", json!("{\"query\": \"rust tool calling\"}")),
        (
            "convert_currency",
            json!({"amount": 10, "from": "EUR", "to": "USD"}),
        ),
        (
            "convert_currency",
            json!({"amount": 5000, "from": "EUR", "to": "USD"}),
        ),
        ("get_weather", json!({"city": "Paris", "units": "kelvin"})),
        ("web_search", json!({"query": 42, "max_results": 50})),
        ("get_wether", json!({"city": "Paris"})),
    ];
    out.push_str("== Calls, and what the model receives back ==\n");
    for (name, args) in calls {
        let result = registry.call(&ctx, name, args.clone()).await;
        let status = if result.is_error() { "error" } else { "ok" };
        out.push_str(&format!(
            "{name}({args})\n  -> [{status}] {}\n\n",
            result.model_text()
        ));
    }
    out
}

#[tokio::main]
async fn main() {
    print!("{}", transcript().await);
}
