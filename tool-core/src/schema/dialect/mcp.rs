//! MCP's `inputSchema`: plain JSON Schema 2020-12, never OpenAPI's
//! `nullable`.

use serde_json::Value;

use super::walk::each_subschema;
use super::{make_nullable, plain};

/// The schema for MCP: [`plain`](super::plain), with a hand-written OpenAPI
/// `nullable` spelled as JSON Schema (`null` added to the type).
/// Integer formats go where the range beside them says them, as for every
/// provider: an MCP client that passes the schema on to a model provider
/// loses nothing, since `int32` and `int64` (which Gemini reads) come
/// without a range and stay.
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
