// ---- rmcp: `Tools::tool_router()`, and `ToolRouter::list_all()` as its
// MCP list (made on each call).

fn build() -> rmcp::handler::server::router::tool::ToolRouter<tools100::Tools> {
    tools100::registry()
}

fn list(
    router: &rmcp::handler::server::router::tool::ToolRouter<tools100::Tools>,
) -> Vec<rmcp::model::Tool> {
    router.list_all()
}

/// The schemas as values, as rmcp keeps them (one `Arc<JsonObject>` a
/// tool, made once per argument type and thread).
fn parts(_reps: usize) {
    let tools = build().list_all();
    let before = Heap::now();
    let copies: Vec<serde_json::Map<String, serde_json::Value>> = tools
        .iter()
        .map(|tool| (*tool.input_schema).clone())
        .collect();
    before.report_since("part_schemas");
    drop(black_box(copies));
}

fn rss_part(_what: &str) -> Option<Box<dyn std::any::Any>> {
    None
}

/// Nothing: rmcp keeps its schemas per thread, and a new thread starts
/// without them.
fn forget() {}
