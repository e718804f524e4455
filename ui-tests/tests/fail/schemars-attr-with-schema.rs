use tool_core::tool;

/// Roll a die.
#[tool(schema = serde_json::json!({"type": "object", "properties": {"sides": {"type": "integer"}}}))]
fn roll(#[schemars(range(min = 2))] sides: u32) -> u32 {
    sides
}

fn main() {}
