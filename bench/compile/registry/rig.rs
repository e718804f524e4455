// ---- rig: `ToolSet::default()` and `add_tool(Tool0)`.., and each tool's
// descriptor (its definition) as its list.

fn build() -> rig_agent::tool::ToolSet {
    tools100::registry()
}

fn list(tools: &rig_agent::tool::ToolSet) -> Vec<rig_core::effect::FamilyDescriptor> {
    tools.iter().map(|(_, tool)| tool.descriptor()).collect()
}

fn parts(_reps: usize) {}

fn rss_part(_what: &str) -> Option<Box<dyn std::any::Any>> {
    None
}

/// Nothing: rig keeps nothing per process.
fn forget() {}
