//! MCP: `tools/call` requests in, JSON-RPC responses out, and the
//! [`call_tool_result`] each response carries, which an MCP server built on
//! another SDK sends as it is.

use serde_json::{Map, Value, json};

use super::call::{kind, string_at};
use super::parts::parts_of;
use crate::provider::ProviderCall;
use crate::{ToolError, ToolResult};

/// JSON-RPC's "invalid params", which MCP answers an unknown tool with.
const INVALID_PARAMS: i64 = -32602;

pub(super) fn parse(request: &Value) -> Result<Vec<ProviderCall>, String> {
    match request {
        Value::Array(batch) => batch.iter().map(parse_one).collect(),
        _ => parse_one(request).map(|call| vec![call]),
    }
}

fn parse_one(request: &Value) -> Result<ProviderCall, String> {
    if !request.is_object() {
        return Err(format!(
            "expected a `tools/call` request, got {}",
            kind(request)
        ));
    }
    // A response read as a request: say so, rather than that it lacks a
    // `method`.
    if request.get("method").is_none()
        && let Some(key) = ["result", "error"]
            .into_iter()
            .find(|key| request.get(*key).is_some())
    {
        return Err(format!(
            "expected a `tools/call` request, got a JSON-RPC response (it has `{key}` and no `method`)"
        ));
    }
    let method = string_at(request, "method", "the request")?;
    if method != "tools/call" {
        return Err(format!("expected a `tools/call` request, got `{method}`"));
    }
    let params = request
        .get("params")
        .ok_or_else(|| "the request has no `params`".to_owned())?;
    let name = string_at(params, "name", "`params`")?;
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(arguments) => arguments.clone(),
    };
    let request_id = request.get("id").cloned();
    let id = request_id.as_ref().map(|id| match id {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    });
    let mut call = ProviderCall::new(id, name, arguments);
    call.request_id = request_id;
    Ok(call)
}

/// One JSON-RPC response per request: a `CallToolResult` (a failure of the
/// tool or of its arguments is `isError: true`, so that the model reads it),
/// or a protocol error for a tool that does not exist.
pub(super) fn format<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            let id = call.request_id.clone().unwrap_or(Value::Null);
            if let Some(ToolError::UnknownTool { .. }) = result.tool_error() {
                return json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": INVALID_PARAMS, "message": result.model_text()},
                });
            }
            json!({"jsonrpc": "2.0", "id": id, "result": call_tool_result(result)})
        })
        .collect()
}

/// The MCP `CallToolResult` of a registry's result, as the `result` of a
/// `tools/call` response: its content blocks (one text block, or one block
/// a part: `text`, `image`, `audio`, an embedded `resource` for a
/// document, `resource_link`), the structured content beside them when
/// the tool declares an output schema, and `isError`, so that a failure of
/// the tool or of its arguments reaches the model as text it can act on.
///
/// What [`Provider::Mcp`](crate::provider::Provider::Mcp)'s
/// `format_results` puts in each response, for a server that writes the
/// JSON-RPC envelope itself (an unknown tool is a protocol error there,
/// not a result: see [`ToolError::UnknownTool`]).
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::mcp::call_tool_result;
/// use tool_core::output::{Image, Part};
/// use tool_core::ToolResult;
///
/// let result = ToolResult::parts(vec![Part::from("The chart:"), Image::png(vec![1, 2, 3]).into()]);
/// assert_eq!(
///     call_tool_result(&result),
///     json!({
///         "content": [
///             {"type": "text", "text": "The chart:"},
///             {"type": "image", "data": "AQID", "mimeType": "image/png"}
///         ],
///         "isError": false
///     })
/// );
/// let failed = ToolResult::error("the disk is full");
/// assert_eq!(
///     call_tool_result(&failed),
///     json!({"content": [{"type": "text", "text": "the disk is full"}], "isError": true})
/// );
/// ```
pub fn call_tool_result(result: &ToolResult) -> Value {
    let mut body = Map::new();
    let content = match parts_of(result) {
        Some(parts) => json!(parts),
        None => json!([{"type": "text", "text": result.model_text()}]),
    };
    body.insert("content".into(), content);
    if let Some(structured) = result.structured_content().filter(|v| v.is_object()) {
        body.insert("structuredContent".into(), structured.clone());
    }
    body.insert("isError".into(), result.is_error().into());
    Value::Object(body)
}
