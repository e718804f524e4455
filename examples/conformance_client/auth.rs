//! The suite's authorization scenarios (`auth/*`): the server is behind an
//! authorization server that redirects at once, so the browser step is
//! headless ([`HeadlessBrowser`]); the client is known by its metadata
//! document, or pre-registered where the scenario's context gives an id
//! (`MCP_CONFORMANCE_CONTEXT`), else registers itself.

use serde_json::{Value, json};
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry};
use tool_mcp::mount::{HeadlessBrowser, Mount, OAuth};

/// Where the suite's authorization server sends the browser back.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// The client's metadata document, as the suite's authorization server
/// expects it to be named (it does not fetch it).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Mounts the server at `url` behind OAuth, lists its tools and calls the
/// first; `scenario` names the suite's scenario.
pub(crate) async fn run(scenario: &str, url: &str) -> Result<(), String> {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let mut oauth = OAuth::new(HeadlessBrowser::new(REDIRECT_URI))
        .client_metadata_url(CLIENT_METADATA_URL)
        .client_name("tool-mcp conformance client");
    if let Some(id) = context["client_id"].as_str() {
        let secret = context["client_secret"].as_str().map(str::to_owned);
        oauth = oauth.client(id, secret);
    }
    let handle: RegistryHandle<()> = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("conformance", url)
        .oauth(oauth)
        .no_restart()
        .mount(&handle)
        .await;
    let mounted = match mounted {
        Ok(mounted) => mounted,
        // The server never grants the scope it asks for: the client
        // stops asking, which is what the scenario checks.
        Err(error) if scenario == "auth/scope-retry-limit" => {
            eprintln!("{error}");
            return Ok(());
        }
        Err(error) => return Err(error.to_string()),
    };
    let tools = mounted.tools();
    let Some(tool) = tools.first() else {
        return Err(format!("the server lists no tool ({scenario})"));
    };
    let result = handle.call(&ToolContext::new(()), tool, json!({})).await;
    eprintln!("{tool}: {result:?}");
    mounted.unmount().await;
    Ok(())
}
