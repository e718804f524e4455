//! The `CallToolResult` of a result, and a result of another server's
//! `CallToolResult`.

use serde_json::{Map, Value, json};

use crate::output::media::{Link, Media, Part};
use crate::output::result::ToolResult;
use crate::provider::parts::parts_of;

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
/// not a result: see [`ToolError::UnknownTool`](crate::ToolError::UnknownTool)).
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

/// A `CallToolResult` another MCP server sent, as a [`ToolResult`]: what
/// [`call_tool_result`] writes, read back. `isError: true` is an error
/// result with the content's text. Each content block becomes a part:
/// `text`, `image` and `audio` (their base64 decoded), an embedded
/// `resource` (text or blob) as a document named by its URI, a
/// `resource_link` as a link. `structuredContent` is kept as the result's
/// structured content, beside the content the model reads; the model reads
/// the structure (as JSON) only when the server sent no content. An error
/// says what in `result` is not MCP's.
///
/// ```
/// use serde_json::json;
/// use tool_core::output::Part;
/// use tool_core::provider::mcp::{call_tool_result, tool_result};
///
/// let sent = json!({
///     "content": [
///         {"type": "text", "text": "The chart:"},
///         {"type": "image", "data": "AQID", "mimeType": "image/png"}
///     ],
///     "isError": false
/// });
/// let result = tool_result(&sent).unwrap();
/// assert!(matches!(result.as_parts(), Some([Part::Text(_), Part::Media(_)])));
/// assert_eq!(call_tool_result(&result), sent);
///
/// let refused = tool_result(&json!({"content": [{"type": "image", "data": "%%"}]}));
/// assert_eq!(
///     refused.unwrap_err(),
///     "content block 0 (`image`): `mimeType` is missing or not a string"
/// );
/// ```
pub fn tool_result(result: &Value) -> Result<ToolResult, String> {
    let object = result
        .as_object()
        .ok_or("the result is not a JSON object")?;
    let content = match object.get("content") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(blocks)) => blocks.as_slice(),
        Some(_) => return Err("`content` is not an array".to_owned()),
    };
    let parts = content
        .iter()
        .enumerate()
        .map(|(at, block)| part_of(block).map_err(|why| format!("content block {at}{why}")))
        .collect::<Result<Vec<Part>, String>>()?;
    if object.get("isError").and_then(Value::as_bool) == Some(true) {
        let text: Vec<String> = parts
            .iter()
            .map(|part| match part {
                Part::Text(text) => text.clone(),
                other => crate::output::media::AsText(other).to_string(),
            })
            .collect();
        return Ok(ToolResult::error(text.join("\n")));
    }
    let structured = object
        .get("structuredContent")
        .filter(|value| !value.is_null());
    // The model reads what the server wrote for it: its text, not the
    // structure JSON-escaped (a file's newlines as `\n`, in more tokens).
    // The structure is what the model reads only when it is all there is.
    let result = match (structured, <[Part; 1]>::try_from(parts)) {
        (Some(value), Err(none)) if none.is_empty() => ToolResult::json(value.clone()),
        (_, Ok([Part::Text(text)])) => ToolResult::text(text),
        (_, Ok(one)) => ToolResult::parts(one),
        (_, Err(parts)) => ToolResult::parts(parts),
    };
    Ok(match structured {
        Some(value) => result.with_structured_content(value.clone()),
        None => result,
    })
}

/// One content block as a part; an error starts with what the block is.
fn part_of(block: &Value) -> Result<Part, String> {
    let kind = block
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let field = |name: &str| -> Result<&str, String> {
        block
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| format!(" (`{kind}`): `{name}` is missing or not a string"))
    };
    let decoded = |data: &str| -> Result<Vec<u8>, String> {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|error| format!(" (`{kind}`): its base64 does not decode: {error}"))
    };
    match kind {
        "text" => Ok(Part::Text(field("text")?.to_owned())),
        "image" | "audio" => {
            let media_type = field("mimeType")?;
            Ok(Part::Media(Media::new(
                media_type,
                decoded(field("data")?)?,
            )))
        }
        "resource" => {
            let resource = block
                .get("resource")
                .filter(|resource| resource.is_object())
                .ok_or(" (`resource`): `resource` is missing or not an object")?;
            let uri = resource
                .get("uri")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let media_type = resource.get("mimeType").and_then(Value::as_str);
            let media = match (resource.get("text"), resource.get("blob")) {
                (Some(Value::String(text)), _) => Media::new(
                    media_type.unwrap_or("text/plain"),
                    text.clone().into_bytes(),
                ),
                (_, Some(Value::String(blob))) => Media::new(
                    media_type.unwrap_or("application/octet-stream"),
                    decoded(blob)?,
                ),
                _ => return Err(" (`resource`): it has neither `text` nor `blob`".to_owned()),
            };
            Ok(Part::Media(match uri {
                "" => media,
                uri if uri.starts_with("attachment:") => media,
                uri => media.named(uri),
            }))
        }
        "resource_link" => {
            let mut link = Link::new(field("uri")?, field("name")?);
            if let Some(description) = block.get("description").and_then(Value::as_str) {
                link = link.with_description(description);
            }
            if let Some(media_type) = block.get("mimeType").and_then(Value::as_str) {
                link = link.with_media_type(media_type);
            }
            Ok(Part::Link(link))
        }
        other => Err(format!(
            " has the type `{other}`, which MCP does not define"
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// What `call_tool_result` writes, `tool_result` reads back to the same
    /// result: every kind of part, errors, structured content.
    #[test]
    fn a_result_written_and_read_back_is_the_same() {
        let results = [
            ToolResult::text("plain"),
            ToolResult::error("the disk is full"),
            ToolResult::parts([
                Part::from("The report:"),
                Media::new("image/png", vec![1, 2, 3]).into(),
                Media::new("audio/wav", vec![4, 5]).into(),
                Media::new("text/csv", "a,b\n1,2".as_bytes().to_vec())
                    .named("report.csv")
                    .into(),
                Media::new("application/pdf", vec![0x25, 0x50])
                    .named("file:///q3.pdf")
                    .into(),
                Link::new("https://example.com/q3", "q3")
                    .with_description("The third quarter.")
                    .with_media_type("text/html")
                    .into(),
            ]),
            ToolResult::json(json!({"city": "Oslo"}))
                .with_structured_content(json!({"city": "Oslo"})),
        ];
        for result in results {
            let written = call_tool_result(&result);
            let read = tool_result(&written).unwrap();
            assert_eq!(call_tool_result(&read), written);
            assert_eq!(read.is_error(), result.is_error());
            assert_eq!(read.structured_content(), result.structured_content());
        }
    }

    /// The text a server sent is what the model reads, as it was sent;
    /// the structure beside it is kept, and stands in for the text only
    /// where there is none.
    #[test]
    fn the_model_reads_the_servers_text_and_the_structure_only_without_it() {
        let file = "line one\n\t\"two\"\n";
        let both = tool_result(&json!({
            "content": [{"type": "text", "text": file}],
            "structuredContent": {"content": file}
        }))
        .unwrap();
        assert_eq!(both.model_text(), file);
        assert_eq!(both.structured_content(), Some(&json!({"content": file})));

        let parts = tool_result(&json!({
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            "structuredContent": {"n": 2}
        }))
        .unwrap();
        assert_eq!(parts.model_text(), "a\nb");
        assert_eq!(parts.structured_content(), Some(&json!({"n": 2})));

        for content in [json!([]), Value::Null] {
            let alone = tool_result(&json!({
                "content": content,
                "structuredContent": {"content": file}
            }))
            .unwrap();
            assert_eq!(alone.model_text(), r#"{"content":"line one\n\t\"two\"\n"}"#);
            assert_eq!(alone.structured_content(), Some(&json!({"content": file})));
        }
    }

    #[test]
    fn what_is_not_mcps_is_refused_saying_where() {
        let refused = |result: Value| tool_result(&result).unwrap_err();
        assert_eq!(refused(json!([])), "the result is not a JSON object");
        assert_eq!(
            refused(json!({"content": "text"})),
            "`content` is not an array"
        );
        assert_eq!(
            refused(json!({"content": [{"type": "text", "text": "a"}, {"type": "video"}]})),
            "content block 1 has the type `video`, which MCP does not define"
        );
        assert_eq!(
            refused(
                json!({"content": [{"type": "audio", "data": "***", "mimeType": "audio/wav"}]})
            ),
            "content block 0 (`audio`): its base64 does not decode: Invalid symbol 42, offset 0."
        );
        assert_eq!(
            refused(json!({"content": [{"type": "resource", "resource": {"uri": "a"}}]})),
            "content block 0 (`resource`): it has neither `text` nor `blob`"
        );
        assert_eq!(
            refused(json!({"content": [{"type": "resource_link", "uri": "a"}]})),
            "content block 0 (`resource_link`): `name` is missing or not a string"
        );
    }
}
