//! A tool's result as the answer to `tools/call`, or to a task's call.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, ResultType};
use tool_core::provider::mcp::call_tool_result;
use tool_core::{ToolError, ToolResult};

/// The `CallToolResult` of a result, as tool-core writes it for MCP; an
/// unknown tool is JSON-RPC's invalid params, as MCP's specification
/// answers it, with the registry's text naming the tools there are.
pub(crate) fn answer(result: &ToolResult) -> Result<CallToolResult, ErrorData> {
    if let Some(ToolError::UnknownTool { .. }) = result.tool_error() {
        return Err(ErrorData::invalid_params(
            result.model_text().into_owned(),
            None,
        ));
    }
    // A result of text (most are, and every error) is built as it is
    // sent: `call_tool_result`'s one text block, without the detour
    // through a JSON value, which costs ten allocations a call.
    if result.is_error() || result.as_parts().is_none() {
        let content = vec![ContentBlock::text(result.model_text().into_owned())];
        let mut answer = if result.is_error() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        answer.structured_content = result
            .structured_content()
            .filter(|v| v.is_object())
            .cloned();
        return Ok(answer);
    }
    let mut answer: CallToolResult =
        serde_json::from_value(call_tool_result(result)).map_err(|error| {
            ErrorData::internal_error(format!("a result MCP cannot take: {error}"), None)
        })?;
    answer.result_type.get_or_insert(ResultType::COMPLETE);
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tool_core::output::{Image, Part};

    use super::*;

    /// Built directly or through `call_tool_result`, an answer is what
    /// tool-core writes for MCP.
    #[test]
    fn every_answer_is_tool_cores_call_tool_result() {
        let results = [
            ToolResult::text("added"),
            ToolResult::json(json!({"sum": 3})),
            ToolResult::json(json!({"sum": 3})).with_structured_content(json!({"sum": 3})),
            ToolResult::text("a list").with_structured_content(json!([1, 2])),
            ToolResult::error("the disk is full"),
            ToolResult::deferred(),
            ToolResult::parts(vec![
                Part::from("The chart:"),
                Image::png(vec![1, 2, 3]).into(),
            ]),
        ];
        for result in results {
            let mut expected = call_tool_result(&result);
            expected["resultType"] = json!("complete");
            let answer = answer(&result).expect("a result, not a protocol error");
            assert_eq!(
                serde_json::to_value(answer).unwrap(),
                expected,
                "{result:?}"
            );
        }
    }
}
