//! OpenAI: Chat Completions and Responses; and the servers that speak
//! Chat Completions with differences of their own (Groq, Ollama, vLLM),
//! each difference a field of [`ChatServer`].

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::call::{kind, list, optional_string, string_at, typed_calls};
use crate::ToolResult;
use crate::provider::ProviderCall;

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
}

/// OpenAI's own Chat Completions, and vLLM, which speaks it as it is.
pub(super) const OPENAI: ChatServer = ChatServer {
    message_field: false,
    turn_fields: None,
    tool_name_field: None,
    id_only_when_given: false,
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
/// conversation where a `tool_call_id` goes unanswered.
pub(super) fn format_chat<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            json!({
                "role": "tool",
                "tool_call_id": call.id().unwrap_or_default(),
                "content": result.model_text(),
            })
        })
        .collect()
}

/// One `tool` message per call, as a server of the Chat family takes it:
/// [`format_chat`]'s, naming the tool where the server's documentation does,
/// without an empty `tool_call_id` where the server issues none.
pub(super) fn format_chat_for<'a>(
    server: &ChatServer,
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    let pairs: Vec<_> = pairs.collect();
    let mut messages = format_chat(pairs.iter().copied());
    // One `tool` message per call, in the calls' order, whatever else
    // the reply holds.
    let tool_messages = messages
        .iter_mut()
        .filter_map(Value::as_object_mut)
        .filter(|message| message.get("role").and_then(Value::as_str) == Some("tool"));
    for (message, (call, _)) in tool_messages.zip(&pairs) {
        name_the_call(server, message, call);
    }
    messages
}

/// What a server's `tool` message says of its call beside OpenAI's
/// `tool_call_id`.
fn name_the_call(server: &ChatServer, message: &mut Map<String, Value>, call: &ProviderCall) {
    if server.id_only_when_given && call.id().is_none() {
        message.remove("tool_call_id");
    }
    if let Some(field) = server.tool_name_field {
        message.insert(field.to_owned(), Value::String(call.name().to_owned()));
    }
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

/// One `function_call_output` item per call, keyed by its `call_id`.
pub(super) fn format_responses<'a>(
    pairs: impl Iterator<Item = (&'a ProviderCall, &'a ToolResult)>,
) -> Vec<Value> {
    pairs
        .map(|(call, result)| {
            json!({
                "type": "function_call_output",
                "call_id": call.id().unwrap_or_default(),
                "output": result.model_text(),
            })
        })
        .collect()
}
