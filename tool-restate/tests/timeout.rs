//! Restate's timeouts of each handler set from its tools' time limits,
//! against a real `restate-server`: Restate waits for a tool as long as
//! the registry lets it run, plus a margin, and a tool over its limit ends
//! with tool-core's timeout error.

mod support;

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_restate::{RestateService, TurnWorkflow};

use support::server::Server;

/// Sleep far longer than allowed.
#[tool(timeout = "1s")]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "woke up".to_owned()
}

/// Crunch numbers for up to ten minutes.
#[tool(timeout = "10m")]
async fn crunch() -> String {
    "crunched".to_owned()
}

/// Whether to go on.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Go {
    /// Go on.
    on: bool,
}

/// Ask whether to go on.
#[tool(asks)]
async fn ask_first(ctx: &ToolContext) -> Result<String, ElicitError> {
    Ok(match ctx.elicit::<Go>("Go on?").await? {
        Elicitation::Accept(Go { on: true }) => "went on".to_owned(),
        _ => "stayed".to_owned(),
    })
}

/// Say hello, under the registry's default time limit.
#[tool]
fn hello() -> String {
    "hello".to_owned()
}

async fn served(test: &str) -> Server {
    let server = Server::start(test).await;
    let registry: Arc<ToolRegistry> = Arc::new(
        ToolRegistry::builder()
            .with(Slow)
            .with(Crunch)
            .with(Hello)
            .with(AskFirst)
            .default_timeout(Duration::from_secs(45))
            .build(),
    );
    let tools = RestateService::new(Arc::clone(&registry), |_| ToolContext::new(()));
    let turns = TurnWorkflow::new(registry, |_| ToolContext::new(()));
    server
        .serve(vec![
            tools.definition().expect("a service"),
            turns.definition().expect("a workflow"),
        ])
        .await;
    server
}

/// The handler `name` of the service `service` as the admin API shows it.
async fn handler(server: &Server, service: &str, name: &str) -> Value {
    let published = server.published(service).await;
    published["handlers"]
        .as_array()
        .and_then(|handlers| handlers.iter().find(|handler| handler["name"] == name))
        .unwrap_or_else(|| panic!("no handler {name} in {published}"))
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_handler_waits_its_tools_time_limit_and_a_margin() {
    let server = served("timeouts").await;
    // (handler, its inactivity timeout, its abort timeout), as Restate
    // shows them: the tool's limit plus a minute, then a minute.
    let expected = [
        ("Tools", "slow", "1m 1s"),
        ("Tools", "crunch", "11m"),
        ("Tools", "hello", "1m 45s"),
        // Its three questions may wait ten minutes each, given back to
        // its limit.
        ("Tools", "ask_first", "31m 45s"),
        // A turn's step may take as long as its slowest tool.
        ("Turn", "run", "11m"),
    ];
    for (service, name, inactivity) in expected {
        let handler = handler(&server, service, name).await;
        assert_eq!(
            handler["inactivity_timeout"], inactivity,
            "{service}/{name}: {handler}"
        );
        assert_eq!(
            handler["abort_timeout"], "1m",
            "{service}/{name}: {handler}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_over_its_time_limit_ends_with_tool_cores_timeout_error() {
    let server = served("timeout-call").await;
    let reply = server
        .http()
        .post(format!("{}/Tools/slow", server.ingress()))
        .json(&json!({}))
        .send()
        .await
        .expect("the ingress answers");
    assert!(reply.status().is_success(), "{}", reply.status());
    let result: ToolResult = reply.json().await.expect("a result");
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "tool `slow` did not finish within 1s and was stopped"
    );
}
