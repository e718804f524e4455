//! Gemini's content read (its `functionCall` parts, the model's turn) and
//! answered (one user content of `functionResponse` parts).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::dispatch::read::raw::kind;
use crate::output::media::AsText;
use crate::output::media::{Media, MediaKind, Part};
use crate::output::result::{ToolOutput, ToolResult};
use crate::provider::call::ProviderCall;
use crate::provider::call::{optional_string, string_at};
use crate::provider::object::object;
use crate::provider::parts::{LeftOut, is_common_image, parts_of};

/// The model's content: `candidates[0].content` of a response, the content
/// itself, or its bare `parts` (read as the model's content that holds
/// them, as the other providers' bare lists are).
fn content(response: &Value) -> Result<Cow<'_, Value>, String> {
    if response.is_array() {
        return Ok(Cow::Owned(object([
            ("role", "model".into()),
            ("parts", response.clone()),
        ])));
    }
    if response.get("candidates").is_some() {
        // `get`, not `pointer`: a pointer is read and its steps copied on
        // every call.
        return response["candidates"]
            .get(0)
            .and_then(|candidate| candidate.get("content"))
            .map(Cow::Borrowed)
            .ok_or_else(|| {
                // A candidate stopped for safety or a malformed call has no
                // content; its reason is what the application needs to know.
                match response.pointer("/candidates/0/finishReason") {
                    Some(Value::String(reason)) => {
                        format!("`candidates[0]` has no `content` (finishReason `{reason}`)")
                    }
                    _ => "`candidates[0]` has no `content`".to_owned(),
                }
            });
    }
    if response.get("parts").is_some() {
        return Ok(Cow::Borrowed(response));
    }
    Err(format!(
        "expected a response (with `candidates`), a content (with `parts`) or its parts, got {}",
        kind(response)
    ))
}

pub(crate) fn parse(response: &Value) -> Result<Vec<ProviderCall>, String> {
    let content = content(response)?;
    let Some(parts) = content.get("parts").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    parts
        .iter()
        .enumerate()
        .filter_map(|(at, part)| part.get("functionCall").map(|call| (at, part, call)))
        .map(|(at, part, call)| {
            let name = string_at(call, "name", &format!("`parts[{at}].functionCall`"))?;
            // A call without arguments may leave `args` out.
            let arguments = call.get("args").cloned().unwrap_or_else(|| json!({}));
            let mut parsed = ProviderCall::new(optional_string(call, "id"), name, arguments);
            parsed.thought_signature = optional_string(part, "thoughtSignature");
            Ok(parsed)
        })
        .collect()
}

pub(crate) fn turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(vec![content(response)?.into_owned()])
}

/// One user content holding a `functionResponse` part per call, in order.
/// `response` must be an object: the output under `output`, a failure's
/// text under `error`, as Gemini's documentation asks. Media goes in the
/// function response's own `parts` (Gemini 3), each referred to from
/// `response` by its `displayName`.
pub(crate) fn format<'a, 'b>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'b ToolResult)>,
) -> Vec<Value> {
    let parts: Vec<Value> = pairs
        .map(|(call, result)| {
            let (response, media) = if result.is_error() {
                (json!({ "error": result.model_text() }), Vec::new())
            } else if let Some(parts) = parts_of(result) {
                with_media(parts)
            } else {
                match result.output() {
                    ToolOutput::Json(value) => (object([("output", value.clone())]), Vec::new()),
                    _ => (json!({ "output": result.model_text() }), Vec::new()),
                }
            };
            let mut function_response = Map::new();
            function_response.insert("name".into(), call.name().into());
            if let Some(id) = call.id() {
                function_response.insert("id".into(), id.into());
            }
            function_response.insert("response".into(), response);
            if !media.is_empty() {
                function_response.insert("parts".into(), media.into());
            }
            object([("functionResponse", Value::Object(function_response))])
        })
        .collect();
    if parts.is_empty() {
        return Vec::new();
    }
    vec![object([
        ("role", "user".into()),
        ("parts", Value::Array(parts)),
    ])]
}

/// The `response` of a result made of parts and the function response's
/// `parts`: the text (and what Gemini cannot take, said in text) under
/// `output`; each image, PDF or plain-text document as `inlineData`, named
/// by a unique `displayName` that `response` refers to once
/// (`{"image_ref": {"$ref": "chart.png"}}`).
fn with_media(parts: &[Part]) -> (Value, Vec<Value>) {
    let mut response = Map::new();
    let mut texts = Vec::new();
    let mut inline = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut kinds: Vec<MediaKind> = Vec::new();
    for part in parts {
        let Part::Media(media) = part else {
            texts.push(AsText(part).to_string());
            continue;
        };
        if !takes(media) {
            texts.push(
                LeftOut {
                    part,
                    api: "Gemini",
                }
                .to_string(),
            );
            continue;
        }
        let kind = media.kind().name();
        let count = names.len() + 1;
        let name = match media.name() {
            Some(name) if !names.iter().any(|taken| taken == name) => name.to_owned(),
            _ => format!("{kind}_{count}"),
        };
        let key = match kinds.iter().filter(|seen| **seen == media.kind()).count() {
            0 => format!("{kind}_ref"),
            n => format!("{kind}_ref_{}", n + 1),
        };
        response.insert(key, json!({ "$ref": name }));
        inline.push(json!({"inlineData": {
            "displayName": name,
            "mimeType": media.media_type().to_ascii_lowercase(),
            "data": media.base64(),
        }}));
        names.push(name);
        kinds.push(media.kind());
    }
    if !texts.is_empty() {
        response.insert("output".into(), texts.join("\n").into());
    }
    (Value::Object(response), inline)
}

/// Whether Gemini takes the media in a function response: PNG, JPEG and
/// WebP images, PDFs and plain text.
fn takes(media: &Media) -> bool {
    let media_type = media.media_type().to_ascii_lowercase();
    is_common_image(&media_type, false)
        || media_type == "application/pdf"
        || media_type == "text/plain"
}
