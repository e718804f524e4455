//! MCP's `inputSchema`: plain JSON Schema 2020-12, never OpenAPI's
//! `nullable`.

use serde_json::Value;

use super::walk::each_subschema;
use super::{IntegerFormats, cleaned, make_nullable};

/// The schema for MCP: [`plain`](super::plain), with a hand-written OpenAPI
/// `nullable` spelled as JSON Schema (`null` added to the type).
///
/// Integer formats stay, range or not: an MCP client passes the schema on
/// to a model provider through a dialect pass of its own, which may read
/// them (Gemini's, for one, keeps `int32` and `int64`).
pub(crate) fn mcp(schema: &Value) -> Value {
    let mut schema = cleaned(schema, IntegerFormats::Keep);
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
