//! Anthropic's budget per request of strict tools (docs/providers.md 2.4),
//! counted the way tool-core counts it.

use serde_json::{Value, json};
use tool_core::provider::Provider;

use super::walk::{is_object, nodes, required_names};
use super::{schema_of, strict_of, tool_list};

/// What the strict tools of one Anthropic request spend of its budget
/// (docs/providers.md 2.4): strict tools, optional parameters, parameters that
/// are a union (`anyOf` or a list of types). Parameters are counted at
/// every level, as tool-core counts them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct AnthropicBudget {
    pub(crate) strict_tools: usize,
    pub(crate) optional: usize,
    pub(crate) unions: usize,
}

impl AnthropicBudget {
    /// Anthropic's limits per request.
    pub(crate) const LIMITS: AnthropicBudget = AnthropicBudget {
        strict_tools: 20,
        optional: 24,
        unions: 16,
    };

    /// The budget spent by the strict tools of an Anthropic tool list.
    pub(crate) fn of(tools: &Value) -> Self {
        let provider = Provider::Anthropic { strict: true };
        let mut spent = Self::default();
        for tool in tool_list(provider, tools) {
            if strict_of(provider, tool) != Some(true) {
                continue;
            }
            spent.strict_tools += 1;
            let schema = schema_of(provider, tool).unwrap_or(&Value::Null);
            for node in nodes(schema) {
                let Some(map) = node.schema.as_object().filter(|m| is_object(m)) else {
                    continue;
                };
                let required = required_names(map);
                let properties = map.get("properties").and_then(Value::as_object);
                for (name, property) in properties.into_iter().flatten() {
                    spent.optional += usize::from(!required.contains(&name.as_str()));
                    let union = property.get("anyOf").is_some()
                        || property.get("type").is_some_and(Value::is_array);
                    spent.unions += usize::from(union);
                }
            }
        }
        spent
    }

    /// Whether it stays within [`AnthropicBudget::LIMITS`].
    pub(crate) fn within_limits(&self) -> bool {
        let limits = Self::LIMITS;
        self.strict_tools <= limits.strict_tools
            && self.optional <= limits.optional
            && self.unions <= limits.unions
    }
}

#[test]
fn the_budget_counts_strict_tools_optional_properties_and_unions() {
    let tools = json!([
        {"name": "a", "description": "A.", "strict": true, "input_schema": {
            "type": "object", "additionalProperties": false, "required": ["x"],
            "properties": {
                "x": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "y": {"type": ["string", "null"]},
                "z": {"type": "object", "additionalProperties": false,
                      "properties": {"w": {"type": "string"}}}
            }
        }},
        {"name": "b", "description": "B.", "strict": false, "input_schema": {
            "type": "object", "properties": {"v": {"type": ["string", "null"]}}
        }}
    ]);
    let expected = AnthropicBudget {
        strict_tools: 1,
        optional: 3,
        unions: 2,
    };
    assert_eq!(AnthropicBudget::of(&tools), expected);
}
