//! MCP: `tools/call` requests in, JSON-RPC responses out, and the
//! [`call_tool_result`] each response carries, which an MCP server built on
//! another SDK sends as it is.

pub(crate) mod dialect;
pub(crate) mod result;

pub use result::{call_tool_result, tool_result};

use serde_json::{Map, Value, json};

use crate::dispatch::read::raw::kind;
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::call::string_at;
use crate::provider::choice::ToolChoice;
use crate::provider::family::{Family, ListState, Parameters};
use crate::provider::not_strict::Blocker;
use crate::provider::object::object;
use crate::tool::ToolInfo;

/// The Model Context Protocol (`mcp`): `tools/list` entries, `tools/call`
/// requests in, JSON-RPC responses out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mcp;

impl Family for Mcp {
    fn name(&self) -> &'static str {
        "mcp"
    }

    fn api(&self) -> &'static str {
        "MCP"
    }

    fn response_kind(&self) -> &'static str {
        "MCP tools/call request"
    }

    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        _list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>> {
        Ok(Parameters::plain(dialect::mcp_input(
            &tool.definition.input_schema,
        )))
    }

    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        mcp_tool(tool, parameters.schema.take())
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        parse(response)
    }

    /// Nothing: the client keeps its own conversation.
    fn model_turn(&self, _response: &Value) -> Result<Vec<Value>, String> {
        Ok(Vec::new())
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        format(answered)
    }

    fn tool_choice(&self, _choice: &ToolChoice) -> Result<Option<Value>, String> {
        Err(
            "the client's model chooses; a server offers tools, it does not pick among them"
                .to_owned(),
        )
    }
}

/// JSON-RPC's "invalid params", which MCP answers an unknown tool with.
const INVALID_PARAMS: i64 = -32602;

fn parse(request: &Value) -> Result<Vec<ProviderCall>, String> {
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
fn format<'a, 'b>(pairs: impl Iterator<Item = (&'a ProviderCall, &'b ToolResult)>) -> Vec<Value> {
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
            object([
                ("jsonrpc", "2.0".into()),
                ("id", id),
                ("result", call_tool_result(result)),
            ])
        })
        .collect()
}

/// An MCP `Tool`: name, title, description, the schemas, the annotations.
fn mcp_tool(tool: &ToolInfo<'_>, input_schema: Value) -> Value {
    let metadata = tool.metadata;
    let mut definition = Map::new();
    definition.insert("name".into(), tool.definition.name.as_str().into());
    if let Some(title) = &metadata.title {
        definition.insert("title".into(), title.as_ref().into());
    }
    definition.insert(
        "description".into(),
        tool.definition.description.as_str().into(),
    );
    definition.insert("inputSchema".into(), input_schema);
    // MCP takes only object output schemas; a tool returning something else
    // is described by its text.
    if let Some(output) = tool.output_schema.map(dialect::mcp_output)
        && output.get("type").and_then(Value::as_str) == Some("object")
    {
        definition.insert("outputSchema".into(), output);
    }
    let mut annotations = Map::new();
    if let Some(title) = &metadata.title {
        annotations.insert("title".into(), title.as_ref().into());
    }
    // Only the hints that differ from MCP's defaults: a client reads an
    // absent hint as its default, and a list of 100 tools need not say
    // 400 times what goes without saying.
    let hints = [
        ("readOnlyHint", metadata.read_only, false),
        ("destructiveHint", metadata.destructive, true),
        ("idempotentHint", metadata.idempotent, false),
        ("openWorldHint", metadata.open_world, true),
    ];
    for (hint, value, mcp_default) in hints {
        if value != mcp_default {
            annotations.insert(hint.into(), value.into());
        }
    }
    if !annotations.is_empty() {
        definition.insert("annotations".into(), Value::Object(annotations));
    }
    Value::Object(definition)
}
