//! The reply to a Responses turn: a `function_call_output` item per call,
//! a `tool_search_output` for a search the application ran.

use serde_json::{Value, json};

use crate::output::media::AsText;
use crate::output::media::{MediaKind, Part};
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::object::object;
use crate::provider::parts::{LeftOut, file_name, is_common_image, parts_of};

/// One `function_call_output` item per call, keyed by its `call_id`; the
/// output of a result made of parts is a list of input parts.
pub(crate) fn format_responses<'a, 'b>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'b ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            if call.search {
                return search_output(call, result);
            }
            let output = match parts_of(result) {
                Some(parts) => Value::Array(parts.iter().map(input_part).collect()),
                None => result.model_text().into(),
            };
            object([
                ("type", "function_call_output".into()),
                ("call_id", call.id().unwrap_or_default().into()),
                ("output", output),
            ])
        })
        .collect()
}

/// What a client-executed search found, as OpenAI's tool search guide has
/// it answered: each tool found, its definition deferred (loaded, not shown
/// up front), in a `tool_search_output` for the search's `call_id`.
fn search_output(call: &ProviderCall, result: &ToolResult) -> Value {
    let tools: Vec<Value> = parts_of(result)
        .into_iter()
        .flatten()
        .filter_map(|part| match part {
            Part::Tool(tool) => Some(json!({
                "type": "function",
                "name": tool.name(),
                "description": tool.description(),
                "parameters": tool.input_schema().map_or_else(
                    || json!({"type": "object", "properties": {}}),
                    crate::schema::dialect::json_schema,
                ),
                "strict": false,
                "defer_loading": true,
            })),
            _ => None,
        })
        .collect();
    json!({
        "type": "tool_search_output",
        "execution": "client",
        "call_id": call.id().unwrap_or_default(),
        "status": "completed",
        "tools": tools,
    })
}

/// A part as a `function_call_output` takes it: `input_text`,
/// `input_image` (PNG, JPEG, WebP, GIF, as a data URL or at a URL),
/// `input_file` (a document, as a data URL or at a URL); audio as text
/// saying it was left out, as Responses takes none there.
fn input_part(part: &Part) -> Value {
    let text = |text: String| json!({"type": "input_text", "text": text});
    match part {
        Part::Media(media) => match media.kind() {
            MediaKind::Image if is_common_image(media.media_type(), true) => {
                json!({"type": "input_image", "image_url": media.data_url()})
            }
            MediaKind::Document => json!({
                "type": "input_file", "filename": file_name(media), "file_data": media.data_url(),
            }),
            MediaKind::Image | MediaKind::Audio => text(
                LeftOut {
                    part,
                    api: "OpenAI Responses",
                }
                .to_string(),
            ),
        },
        Part::Link(link) if link.is_web() => {
            if is_common_image(link.media_type().unwrap_or_default(), true) {
                json!({"type": "input_image", "image_url": link.uri()})
            } else {
                json!({"type": "input_file", "filename": link.name(), "file_url": link.uri()})
            }
        }
        _ => text(AsText(part).to_string()),
    }
}
