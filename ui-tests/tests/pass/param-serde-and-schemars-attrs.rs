use tool_core::{tool, ToolRegistry};

fn ten() -> u32 {
    10
}

/// List files.
#[tool(scopes = ["files:read"], concurrency_safe, long_running = false, title = "List files")]
async fn list_files(
    /// The directory to list.
    #[serde(rename = "dir")]
    #[schemars(length(min = 1))]
    directory: String,
    /// How many entries at most.
    #[serde(default = "ten")]
    limit: u32,
) -> Vec<String> {
    vec![directory; limit as usize]
}

fn main() {
    let registry: ToolRegistry = ToolRegistry::new().with(ListFiles);
    let schema = &registry.tool_definitions()[0].input_schema;
    assert!(schema["properties"].get("dir").is_some());
    assert_eq!(schema["required"], serde_json::json!(["dir"]));
}
