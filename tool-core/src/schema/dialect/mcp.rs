//! MCP's `inputSchema`: plain JSON Schema 2020-12, never OpenAPI's
//! `nullable`.

use serde_json::Value;

use super::walk::each_subschema;
use super::{make_nullable, plain};

/// The schema for MCP: [`plain`], with a hand-written OpenAPI `nullable`
/// spelled as JSON Schema (`null` added to the type).
pub(crate) fn mcp(schema: &Value) -> Value {
    let mut schema = plain(schema);
    let mut spell = |node: &mut Value, _: &str| {
        if let Value::Object(map) = node
            && let Some(nullable) = map.remove("nullable")
            && nullable == Value::Bool(true)
        {
            make_nullable(map);
        }
    };
    spell(&mut schema, "");
    each_subschema(&mut schema, "", &mut spell);
    schema
}
