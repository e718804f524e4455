//! An Anthropic message read (its `tool_use` blocks, the model's turn) and
//! answered (one user message of `tool_result` blocks).

use serde_json::{Map, Value, json};

use crate::output::media::{AsText, text_of};
use crate::output::media::{MediaKind, Part};
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::call::{list, typed_calls};
use crate::provider::object::object;
use crate::provider::parts::{LeftOut, is_common_image, parts_of};

const API: &str = "Anthropic Messages";

/// The content blocks of a message, or the blocks themselves.
fn blocks(response: &Value) -> Result<&[Value], String> {
    list(
        response,
        "content",
        "a message (with `content`) or its content blocks",
        false,
    )
}

pub(crate) fn parse(response: &Value) -> Result<Vec<ProviderCall>, String> {
    typed_calls(blocks(response)?, "tool_use", "id", "input", "content")
}

pub(crate) fn turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(vec![object([
        ("role", "assistant".into()),
        ("content", Value::Array(blocks(response)?.to_vec())),
    ])])
}

/// One user message whose `tool_result` blocks come first, one per
/// `tool_use`, in order; `is_error` on failures, so that the model corrects
/// its arguments rather than trusting the text. A result made of parts is a
/// list of content blocks.
pub(crate) fn format<'a, 'b>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'b ToolResult)>,
) -> Vec<Value> {
    let content: Vec<Value> = pairs
        .map(|(call, result)| {
            let mut block = Map::new();
            block.insert("type".into(), "tool_result".into());
            block.insert("tool_use_id".into(), call.id().unwrap_or_default().into());
            let content = match parts_of(result) {
                Some(parts) => parts.iter().map(content_block).collect(),
                None => result.model_text().into(),
            };
            block.insert("content".into(), content);
            if result.is_error() {
                block.insert("is_error".into(), true.into());
            }
            Value::Object(block)
        })
        .collect();
    if content.is_empty() {
        return Vec::new();
    }
    vec![object([
        ("role", "user".into()),
        ("content", Value::Array(content)),
    ])]
}

/// The content block of one part, as a `tool_result` takes them: text,
/// `image` (JPEG, PNG, GIF, WebP; base64 or a URL), `document` (a PDF, or
/// text as a plain-text source); anything else as text saying what was left
/// out.
fn content_block(part: &Part) -> Value {
    let text = |text: String| json!({"type": "text", "text": text});
    match part {
        Part::Media(media) => {
            let media_type = media.media_type().to_ascii_lowercase();
            let source = match media.kind() {
                MediaKind::Image if is_common_image(&media_type, true) => (
                    "image",
                    json!({
                        "type": "base64", "media_type": media_type, "data": media.base64(),
                    }),
                ),
                MediaKind::Document if media_type == "application/pdf" => (
                    "document",
                    json!({
                        "type": "base64", "media_type": media_type, "data": media.base64(),
                    }),
                ),
                MediaKind::Document if let Some(data) = text_of(media) => (
                    "document",
                    json!({
                        "type": "text", "media_type": "text/plain", "data": data,
                    }),
                ),
                _ => return text(LeftOut { part, api: API }.to_string()),
            };
            let mut block = json!({"type": source.0, "source": source.1});
            if let (Some(name), "document") = (media.name(), source.0) {
                block["title"] = name.into();
            }
            block
        }
        // The tool's definition, loaded for the model by the API: the
        // tool must be in the request's `tools` (deferred, normally).
        Part::Tool(tool) => json!({"type": "tool_reference", "tool_name": tool.name()}),
        Part::Link(link) if link.is_web() => {
            let media_type = link.media_type().unwrap_or_default();
            let source = json!({"type": "url", "url": link.uri()});
            if is_common_image(media_type, true) {
                json!({"type": "image", "source": source})
            } else if media_type.eq_ignore_ascii_case("application/pdf") {
                json!({"type": "document", "source": source})
            } else {
                text(AsText(part).to_string())
            }
        }
        _ => text(AsText(part).to_string()),
    }
}
