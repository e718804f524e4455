//! The gateway example (`examples/gateway.rs`) run as `cargo run --example
//! gateway` runs it: the quickstart's tools and three of MCP's reference
//! server `everything`, mounted over stdio and prefixed, served over MCP
//! on loopback; the agent's loop through a mount of that endpoint.

#[path = "../examples/gateway.rs"]
#[allow(dead_code)]
mod gateway;

#[path = "support/sdk_node.rs"]
#[allow(dead_code)]
mod sdk_node;

use sdk_node::sdk_node_modules;

#[tokio::test]
async fn the_gateway_serves_its_own_and_a_mounted_servers_tools_to_the_agents_loop() {
    // The reference server comes from the installed packages.
    sdk_node_modules(
        "the gateway example",
        "mounting the reference server `everything`",
    );
    let report = gateway::run()
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let tools = [
        "get_weather",
        "web_search",
        "convert_currency",
        "everything_echo",
        "everything_get-sum",
        "everything_get-tiny-image",
    ];
    assert_eq!(report.served, tools);
    assert_eq!(report.seen, tools, "the agent sees what the gateway serves");
    assert_eq!(report.sum, "The sum of 2 and 3 is 5.");
    let steps: Vec<(&str, &str, bool)> = report
        .transcript
        .steps
        .iter()
        .map(|step| (step.name.as_str(), step.result.as_str(), step.is_error))
        .collect();
    assert_eq!(
        steps,
        [
            (
                "get_weather",
                r#"{"city":"Paris","temperature":21.5,"summary":"sunny with a light breeze"}"#,
                false
            ),
            ("convert_currency", "100 EUR = 108.00 USD", false),
            (
                "convert_currency",
                "the call to tool `convert_currency` was denied: amounts over 1000 need a person to approve them",
                true
            ),
        ]
    );
    assert_eq!(
        report.transcript.answer,
        "In Paris it is 21.5 °C, sunny with a light breeze. \
         100 EUR is 108.00 USD; converting 5000 EUR needs a person to approve it first."
    );
}
