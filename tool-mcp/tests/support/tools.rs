//! The tools of the task tests: a render that runs until released or
//! cancelled, a payment whose result the application delivers, and a
//! plain addition; and the server of them.

use std::sync::{Arc, Mutex};

use rmcp::model::CallToolRequestParams;
use serde_json::Value;
use tokio::sync::{Notify, mpsc};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_mcp::McpServer;

#[derive(Default)]
pub(crate) struct App {
    /// Lets `render` finish.
    pub(crate) release: Notify,
    /// Told when `render` saw its call cancelled.
    pub(crate) cancelled: Mutex<Option<mpsc::UnboundedSender<()>>>,
}

/// Render a video.
#[tool(long_running, tier = Observe, timeout = "1h")]
async fn render(
    ctx: &ToolContext<App>,
    /// The video's name.
    name: String,
) -> String {
    ctx.progress(1.0, Some(2.0), "frames drawn");
    tokio::select! {
        () = ctx.state().release.notified() => format!("rendered {name}"),
        () = ctx.cancellation().cancelled() => {
            if let Some(told) = ctx.state().cancelled.lock().expect("unpoisoned").as_ref() {
                let _ = told.send(());
            }
            "stopped".to_owned()
        }
    }
}

/// Ask a person to approve a payment; the application delivers the answer.
#[tool(long_running, tier = Observe)]
fn approve_payment(
    /// The amount.
    amount: u32,
) -> ToolResult {
    let _ = amount;
    ToolResult::deferred()
}

/// Add two numbers.
#[tool(read_only, tier = Observe)]
pub(crate) fn add(a: i64, b: i64) -> i64 {
    a + b
}

pub(crate) fn server(app: &Arc<App>) -> McpServer<App> {
    let registry = ToolRegistry::new()
        .with(Render)
        .with(ApprovePayment)
        .with(Add);
    McpServer::new(registry, ToolContext::from_arc(Arc::clone(app)))
}

/// `tools/call`'s params for `name` with `arguments`.
pub(crate) fn params(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}
