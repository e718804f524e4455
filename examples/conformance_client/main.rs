//! The client MCP's conformance suite (npm `@modelcontextprotocol/conformance`)
//! is run against: a server mounted into a registry with tool-mcp's
//! [`Mount`], its tools called through the registry, written with the
//! public API only, as an application would. The suite starts a server
//! for each scenario and runs this program with the server's URL, naming
//! the scenario in `MCP_CONFORMANCE_SCENARIO`; `tests/conformance_client.rs`
//! runs it. The authorization scenarios (`auth/...`), each a server behind
//! OAuth, are in `auth.rs`. To run one scenario by hand:
//!
//! ```text
//! cargo build --example conformance_client
//! node target/conformance/node_modules/conformance-2025/dist/index.js client \
//!     --command target/debug/examples/conformance_client --scenario tools_call
//! ```

use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tool_core::elicit::{Answer, Asker, ElicitError, Question};
use tool_core::toolset::RegistryHandle;
use tool_core::{BoxFuture, ToolContext, ToolRegistry};
use tool_mcp::mount::Mount;

#[path = "auth.rs"]
mod auth;

/// Longer than no scenario takes; shorter than the suite's own limit
/// (30 s), so that the program ends by itself, saying why.
const SCENARIO_TIME: Duration = Duration::from_secs(25);

/// The person behind the agent, as the scenarios want them: they accept
/// every question as it is put, leaving each field at its default.
struct AcceptsDefaults;

impl Asker for AcceptsDefaults {
    fn ask<'a>(&'a self, _question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        Box::pin(async { Ok(Answer::Accept(json!({}))) })
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!(
            "usage: conformance_client <server url> (MCP_CONFORMANCE_SCENARIO names the scenario)"
        );
        return ExitCode::FAILURE;
    };
    let running = async {
        if scenario.starts_with("auth/") {
            auth::run(&scenario, &url).await
        } else {
            run(&scenario, &url).await
        }
    };
    match tokio::time::timeout(SCENARIO_TIME, running).await {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(error)) => {
            eprintln!("{scenario}: {error}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("{scenario}: not done within {SCENARIO_TIME:?}");
            ExitCode::FAILURE
        }
    }
}

async fn run(scenario: &str, url: &str) -> Result<(), String> {
    let handle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("conformance", url)
        .mount(&handle)
        .await
        .map_err(|error| error.to_string())?;
    for refused in mounted.refused() {
        eprintln!("refused: {refused:?}");
    }
    let ctx = ToolContext::builder(()).asker(AcceptsDefaults).build();
    for (name, args) in calls(scenario, &handle) {
        let result = handle.call(&ctx, &name, args).await;
        eprintln!("{name}: {}", result.model_text());
    }
    mounted.unmount().await;
    Ok(())
}

/// The calls a scenario wants: those the suite names in its context, or
/// the scenario's own, or each listed tool with arguments made from its
/// schema.
fn calls(scenario: &str, handle: &RegistryHandle) -> Vec<(String, Value)> {
    let registry = handle.current();
    let listed = registry.tool_definitions();
    if let Some(named) = context_calls() {
        return named;
    }
    match scenario {
        "initialize" | "json-schema-ref-no-deref" => Vec::new(),
        "json-schema-2020-12-preservation" => {
            let observed = listed
                .iter()
                .find(|tool| tool.name != "echo_schema" && tool.name.as_str() != "echo")
                .map(|tool| tool.input_schema.clone());
            listed
                .iter()
                .filter(|tool| tool.input_schema["properties"].get("schema").is_some())
                .map(|tool| {
                    (
                        tool.name.to_string(),
                        json!({ "schema": observed.clone().unwrap_or_default() }),
                    )
                })
                .collect()
        }
        _ => listed
            .iter()
            .map(|tool| (tool.name.to_string(), arguments_for(&tool.input_schema)))
            .collect(),
    }
}

/// The calls `MCP_CONFORMANCE_CONTEXT` names (`toolCalls`), if it does.
fn context_calls() -> Option<Vec<(String, Value)>> {
    let context: Value =
        serde_json::from_str(&std::env::var("MCP_CONFORMANCE_CONTEXT").ok()?).ok()?;
    let calls = context
        .get("toolCalls")
        .or_else(|| context.get("tool_calls"))?
        .as_array()?;
    Some(
        calls
            .iter()
            .filter_map(|call| {
                let name = call["name"].as_str()?.to_owned();
                let args = call.get("arguments").cloned().unwrap_or_else(|| json!({}));
                Some((name, args))
            })
            .collect(),
    )
}

/// Arguments that fit `schema`'s required properties: a value of each
/// one's type.
fn arguments_for(schema: &Value) -> Value {
    let mut args = Map::new();
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        let property = &schema["properties"][name];
        let value = match property["type"].as_str() {
            Some("number") => json!(2.5),
            Some("integer") => json!(2),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("conformance"),
        };
        args.insert(name.to_owned(), value);
    }
    Value::Object(args)
}
