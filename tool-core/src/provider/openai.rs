//! OpenAI: Chat Completions and Responses; and the servers that speak
//! Chat Completions with differences of their own (Groq, Ollama, vLLM),
//! each difference a field of [`ChatServer`].

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::dispatch::read::raw::kind;
use crate::output::media::AsText;
use crate::output::media::{Media, MediaKind, Part};
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::call::{list, optional_string, string_at, typed_call};
use crate::provider::listing::SEARCH_TOOL;
use crate::provider::parts::{LeftOut, is_common_image, parts_of};

/// How a server of the OpenAI Chat family differs from OpenAI's own Chat
/// Completions in the calls it sends and the messages it takes back
/// (docs/providers.md 11); the definitions' differences are the dialect's.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChatServer {
    /// Whether a whole response may hold the assistant message under
    /// `message` (Ollama's `/api/chat`), as well as under
    /// `choices[0].message`.
    pub(super) message_field: bool,
    /// The fields of the assistant message that the server takes back in a
    /// request, when it refuses others (Groq); `None` takes the message as
    /// it came.
    pub(super) turn_fields: Option<&'static [&'static str]>,
    /// The field of a `tool` message that names the tool called (Groq's
    /// `name`, Ollama's `tool_name`), when the server's documentation sends
    /// one.
    pub(super) tool_name_field: Option<&'static str>,
    /// Whether a `tool` message leaves out `tool_call_id` for a call that
    /// came without an id (Ollama before 0.12.10), rather than send it
    /// empty.
    pub(super) id_only_when_given: bool,
    /// Whether a `user` message carries images in its own `images` field,
    /// as base64 (Ollama's `/api/chat`), rather than as content parts.
    pub(super) images_field: bool,
}

/// OpenAI's own Chat Completions, and vLLM, which speaks it as it is.
pub(super) const OPENAI: ChatServer = ChatServer {
    message_field: false,
    turn_fields: None,
    tool_name_field: None,
    id_only_when_given: false,
    images_field: false,
};

/// Groq (docs/providers.md 11.1).
pub(super) const GROQ: ChatServer = ChatServer {
    turn_fields: Some(&[
        "role",
        "content",
        "name",
        "reasoning",
        "tool_calls",
        "function_call",
    ]),
    tool_name_field: Some("name"),
    ..OPENAI
};

/// Ollama (docs/providers.md 11.2).
pub(super) const OLLAMA: ChatServer = ChatServer {
    message_field: true,
    tool_name_field: Some("tool_name"),
    id_only_when_given: true,
    images_field: true,
    ..OPENAI
};

/// The assistant message of a completion (or of an Ollama chat response),
/// or the message itself; a bare `tool_calls` array is read as the message
/// that holds it, as the other providers' bare lists are.
fn chat_message<'r>(server: &ChatServer, response: &'r Value) -> Result<Cow<'r, Value>, String> {
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
    if server.message_field
        && let Some(message) = response.get("message")
    {
        return Ok(Cow::Borrowed(message));
    }
    if response.get("role").is_some() || response.get("tool_calls").is_some() {
        return Ok(Cow::Borrowed(response));
    }
    let whole = if server.message_field {
        "a chat response (with `message`) or completion (with `choices`)"
    } else {
        "a chat completion (with `choices`)"
    };
    Err(format!(
        "expected {whole}, its message or its `tool_calls`, got {}",
        kind(response)
    ))
}

/// The calls of a Chat message: `arguments` as the server sent them, a
/// JSON string (OpenAI, Groq, vLLM) or an object (Ollama); an `id` when
/// the server gave one; no `type` is read as a function call (Ollama sends
/// none).
pub(super) fn parse_chat(
    server: &ChatServer,
    response: &Value,
) -> Result<Vec<ProviderCall>, String> {
    let message = chat_message(server, response)?;
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

/// The assistant message, with only the fields the server takes back.
pub(super) fn chat_turn(server: &ChatServer, response: &Value) -> Result<Vec<Value>, String> {
    let mut message = chat_message(server, response)?.into_owned();
    if let (Some(fields), Value::Object(map)) = (server.turn_fields, &mut message) {
        map.retain(|field, _| fields.contains(&field.as_str()));
    }
    Ok(vec![message])
}

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
pub(super) fn format_chat<'a>(
    server: &ChatServer,
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
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
        Some(json!({"role": "user", "content": self.parts}))
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
    let items = output_items(response)?;
    let mut calls = Vec::new();
    for (at, item) in items.iter().enumerate() {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => calls.push(typed_call(
                item,
                &format!("`output[{at}]`"),
                "call_id",
                "arguments",
            )?),
            // A search the application runs: a call of its search tool
            // (the hosted search's, `execution: "server"`, ran already).
            Some("tool_search_call")
                if item.get("execution").and_then(Value::as_str) == Some("client") =>
            {
                let id = string_at(item, "call_id", &format!("`output[{at}]`"))?;
                let mut call = ProviderCall::new(
                    Some(id.to_owned()),
                    SEARCH_TOOL,
                    item.get("arguments").cloned().unwrap_or(Value::Null),
                );
                call.search = true;
                calls.push(call);
            }
            _ => {}
        }
    }
    Ok(calls)
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
            if call.search {
                return search_output(call, result);
            }
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
