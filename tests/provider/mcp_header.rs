//! A parameter an MCP client mirrors into an HTTP header (SEP-2243's
//! `x-mcp-header`, written with schemars' `extend`): kept in MCP's
//! definition, where the client reads it, and left out of every model
//! provider's, to which it means nothing.

use serde_json::json;
use tool_core::provider::Provider;
use tool_core::{ToolRegistry, tool};

/// Find the region's servers.
#[tool]
fn servers(
    /// The region, sent as the `Mcp-Param-Region` header too.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
) -> String {
    region
}

#[test]
fn an_mcp_header_annotation_reaches_mcp_clients_and_no_model() {
    let registry: ToolRegistry = ToolRegistry::new().with(Servers);
    for provider in Provider::ALL {
        let definitions = provider.definitions(&registry).expect("definitions");
        let text = definitions.as_json().to_string();
        assert_eq!(
            text.contains("x-mcp-header"),
            provider == Provider::Mcp,
            "{provider}: {text}"
        );
    }
    let mcp = Provider::Mcp.definitions(&registry).expect("definitions");
    assert_eq!(
        mcp.as_json()[0]["inputSchema"]["properties"]["region"],
        json!({
            "type": "string",
            "description": "The region, sent as the `Mcp-Param-Region` header too.",
            "x-mcp-header": "Region"
        })
    );
}
