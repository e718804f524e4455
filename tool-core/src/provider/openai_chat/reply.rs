//! The reply to a Chat Completions turn: a `tool` message per call, and the
//! media they cannot carry in a `user` message after them.

use serde_json::{Map, Value, json};

use crate::output::media::{MediaKind, Part};
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::object::object;
use crate::provider::openai_chat::server::ChatServer;
use crate::provider::parts::{file_name, is_common_image, parts_of};

/// One `tool` message per call, in order: Chat Completions refuses a
/// conversation where a `tool_call_id` goes unanswered. The server's
/// differences: the tool named beside the id (Groq's `name`, Ollama's
/// `tool_name`), no empty `tool_call_id` where it issued none.
///
/// A `tool` message takes only text, so media is named in it and sent in
/// one `user` message after the last of them: images as `image_url`,
/// documents as `file`, WAV and MP3 audio as `input_audio`, each group
/// headed by the call it came from; for Ollama, the images in the message's
/// `images` field, under the headings.
pub(crate) fn format_chat<'a, 'b>(
    server: &ChatServer,
    pairs: impl Iterator<Item = (&'a ProviderCall, &'b ToolResult)>,
) -> Vec<Value> {
    let mut messages = Vec::new();
    let mut attached = Attached::default();
    for (call, result) in pairs {
        let mut message = Map::new();
        message.insert("role".into(), "tool".into());
        if !(server.id_only_when_given && call.id().is_none()) {
            message.insert("tool_call_id".into(), call.id().unwrap_or_default().into());
        }
        if let Some(field) = server.tool_name_field {
            message.insert(field.into(), call.name().into());
        }
        message.insert("content".into(), result.model_text().into());
        messages.push(Value::Object(message));
        if let Some(parts) = parts_of(result) {
            attached.add(server, call, parts);
        }
    }
    messages.extend(attached.into_message(server));
    messages
}

/// The media of a reply's results, for the `user` message after the
/// `tool` messages.
#[derive(Default)]
struct Attached {
    /// Content parts; for Ollama, only the headings.
    parts: Vec<Value>,
    /// Ollama's base64 images.
    images: Vec<Value>,
}

impl Attached {
    fn add(&mut self, server: &ChatServer, call: &ProviderCall, parts: &[Part]) {
        let carried: Vec<Value> = if server.images_field {
            parts.iter().filter_map(ollama_image).collect()
        } else {
            parts.iter().filter_map(chat_part).collect()
        };
        if carried.is_empty() {
            return;
        }
        let heading = match call.id() {
            Some(id) => format!("Attached by tool `{}` (call `{id}`):", call.name()),
            None => format!("Attached by tool `{}`:", call.name()),
        };
        self.parts.push(json!({"type": "text", "text": heading}));
        if server.images_field {
            self.images.extend(carried);
        } else {
            self.parts.extend(carried);
        }
    }

    fn into_message(self, server: &ChatServer) -> Option<Value> {
        if self.parts.is_empty() {
            return None;
        }
        if server.images_field {
            let headings: Vec<&str> = self
                .parts
                .iter()
                .filter_map(|part| part["text"].as_str())
                .collect();
            return Some(json!({
                "role": "user", "content": headings.join("\n"), "images": self.images,
            }));
        }
        Some(object([
            ("role", "user".into()),
            ("content", Value::Array(self.parts)),
        ]))
    }
}

/// An image as Ollama takes it: base64, in a message's `images`.
fn ollama_image(part: &Part) -> Option<Value> {
    let media = part.as_media()?;
    is_common_image(media.media_type(), false).then(|| media.base64().into())
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
