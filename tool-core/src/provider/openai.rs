//! OpenAI: Chat Completions and Responses.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::call::{kind, list, optional_string, string_at, typed_calls};
use super::parts::{LeftOut, is_common_image, parts_of};
use crate::provider::ProviderCall;
use crate::tool::media::AsText;
use crate::{Media, MediaKind, Part, ToolResult};

/// The assistant message of a completion, or the message itself; a bare
/// `tool_calls` array is read as the message that holds it, as the other
/// providers' bare lists are.
fn chat_message(response: &Value) -> Result<Cow<'_, Value>, String> {
    if response.is_array() {
        return Ok(Cow::Owned(
            json!({"role": "assistant", "tool_calls": response}),
        ));
    }
    if response.get("choices").is_some() {
        return response
            .pointer("/choices/0/message")
            .map(Cow::Borrowed)
            .ok_or_else(|| "`choices[0]` has no `message`".to_owned());
    }
    if response.get("role").is_some() || response.get("tool_calls").is_some() {
        return Ok(Cow::Borrowed(response));
    }
    Err(format!(
        "expected a chat completion (with `choices`), its message or its `tool_calls`, got {}",
        kind(response)
    ))
}

pub(super) fn parse_chat(response: &Value) -> Result<Vec<ProviderCall>, String> {
    let message = chat_message(response)?;
    list(&message, "tool_calls", "a message", true)?
        .iter()
        .enumerate()
        .map(|(at, call)| {
            let what = format!("`tool_calls[{at}]`");
            if let Some(other) = call.get("type").and_then(Value::as_str)
                && other != "function"
            {
                return Err(format!("{what} is a `{other}` call, not a function call"));
            }
            let function = call
                .get("function")
                .ok_or_else(|| format!("{what} has no `function`"))?;
            let name = string_at(function, "name", &format!("{what}.function"))?;
            Ok(ProviderCall::new(
                optional_string(call, "id"),
                name,
                function.get("arguments").cloned().unwrap_or(Value::Null),
            ))
        })
        .collect()
}

pub(super) fn chat_turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(vec![chat_message(response)?.into_owned()])
}

/// One `tool` message per call, in order: Chat Completions refuses a
/// conversation where a `tool_call_id` goes unanswered.
///
/// A `tool` message takes only text, so media is named in it and sent in
/// one `user` message after the last of them: images as `image_url`,
/// documents as `file`, WAV and MP3 audio as `input_audio`, each group
/// headed by the call it came from.
pub(super) fn format_chat<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    let mut messages = Vec::new();
    let mut attached = Vec::new();
    for (call, result) in pairs {
        let id = call.id().unwrap_or_default();
        messages.push(json!({
            "role": "tool",
            "tool_call_id": id,
            "content": result.model_text(),
        }));
        let parts: Vec<Value> = parts_of(result)
            .unwrap_or_default()
            .iter()
            .filter_map(chat_part)
            .collect();
        if !parts.is_empty() {
            let heading = format!("Attached by tool `{}` (call `{id}`):", call.name());
            attached.push(json!({"type": "text", "text": heading}));
            attached.extend(parts);
        }
    }
    if !attached.is_empty() {
        messages.push(json!({"role": "user", "content": attached}));
    }
    messages
}

/// A part as a Chat Completions `user` message carries it; `None` for what
/// its `tool` message's text already holds.
fn chat_part(part: &Part) -> Option<Value> {
    match part {
        Part::Media(media) => match media.kind() {
            MediaKind::Image if is_common_image(media.media_type(), true) => Some(json!({
                "type": "image_url", "image_url": {"url": media.data_url()},
            })),
            MediaKind::Audio => audio_format(media.media_type()).map(|format| json!({
                "type": "input_audio", "input_audio": {"data": media.base64(), "format": format},
            })),
            MediaKind::Document => Some(json!({
                "type": "file", "file": {"filename": file_name(media), "file_data": media.data_url()},
            })),
            MediaKind::Image => None,
        },
        Part::Link(link) if link.is_web() && is_common_image(link.media_type().unwrap_or_default(), true) => {
            Some(json!({"type": "image_url", "image_url": {"url": link.uri()}}))
        }
        _ => None,
    }
}

/// The `format` Chat Completions takes audio in: WAV and MP3 only.
fn audio_format(media_type: &str) -> Option<&'static str> {
    match media_type.to_ascii_lowercase().as_str() {
        "audio/wav" | "audio/x-wav" | "audio/wave" => Some("wav"),
        "audio/mpeg" | "audio/mp3" => Some("mp3"),
        _ => None,
    }
}

/// The file name OpenAI is given for a document: its own, or `document`
/// with the extension of its type, by which OpenAI tells how to read it.
fn file_name(media: &Media) -> String {
    if let Some(name) = media.name() {
        return name.to_owned();
    }
    let extension = match media.media_type().to_ascii_lowercase().as_str() {
        "application/pdf" => ".pdf",
        "text/plain" => ".txt",
        "text/csv" => ".csv",
        "text/markdown" => ".md",
        "text/html" => ".html",
        "application/json" => ".json",
        _ => "",
    };
    format!("document{extension}")
}

/// The output items of a response, or the items themselves.
fn output_items(response: &Value) -> Result<&[Value], String> {
    list(
        response,
        "output",
        "a response (with `output`) or its output items",
        false,
    )
}

pub(super) fn parse_responses(response: &Value) -> Result<Vec<ProviderCall>, String> {
    typed_calls(
        output_items(response)?,
        "function_call",
        "call_id",
        "arguments",
        "output",
    )
}

pub(super) fn responses_turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(output_items(response)?.to_vec())
}

/// One `function_call_output` item per call, keyed by its `call_id`; the
/// output of a result made of parts is a list of input parts.
pub(super) fn format_responses<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            let output = match parts_of(result) {
                Some(parts) => Value::Array(parts.iter().map(input_part).collect()),
                None => result.model_text().into(),
            };
            json!({
                "type": "function_call_output",
                "call_id": call.id().unwrap_or_default(),
                "output": output,
            })
        })
        .collect()
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
