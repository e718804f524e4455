use serde_json::json;
use tool_core::{tool, ToolRegistry};

/// Roll a die with the given number of sides.
#[tool(schema = json!({
    "type": "object",
    "properties": {"sides": {"type": "integer", "minimum": 2, "maximum": 100}},
    "required": ["sides"]
}))]
fn roll(sides: u32) -> u32 {
    sides / 2 + 1
}

struct NotJsonSchema {
    name: String,
}

impl<'de> serde::Deserialize<'de> for NotJsonSchema {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|name| NotJsonSchema { name })
    }
}

impl serde::Serialize for NotJsonSchema {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.name.serialize(s)
    }
}

/// Greet someone; the parameter type has no JsonSchema, the schema is written out.
#[tool(schema = json!({"type": "object", "properties": {"who": {"type": "string"}}}))]
fn greet(who: NotJsonSchema) -> String {
    format!("hello {}", who.name)
}

fn main() {
    let registry: ToolRegistry = ToolRegistry::new().with(Roll).with(Greet);
    assert_eq!(registry.tool_definitions()[0].input_schema["properties"]["sides"]["maximum"], 100);
}
