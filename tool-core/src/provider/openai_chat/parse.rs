//! A Chat Completions response read: its calls and the model's turn.

use std::borrow::Cow;

use serde_json::Value;

use crate::dispatch::read::raw::kind;
use crate::provider::call::ProviderCall;
use crate::provider::call::{list, optional_string, string_at};
use crate::provider::object::object;
use crate::provider::openai_chat::server::ChatServer;

/// The assistant message of a completion (or of an Ollama chat response),
/// or the message itself; a bare `tool_calls` array is read as the message
/// that holds it, as the other providers' bare lists are.
fn chat_message<'r>(server: &ChatServer, response: &'r Value) -> Result<Cow<'r, Value>, String> {
    if response.is_array() {
        return Ok(Cow::Owned(object([
            ("role", "assistant".into()),
            ("tool_calls", response.clone()),
        ])));
    }
    if response.get("choices").is_some() {
        // `get`, not `pointer`: a pointer is read and its steps copied on
        // every call.
        return response["choices"]
            .get(0)
            .and_then(|choice| choice.get("message"))
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
pub(crate) fn parse_chat(
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
pub(crate) fn chat_turn(server: &ChatServer, response: &Value) -> Result<Vec<Value>, String> {
    let mut message = chat_message(server, response)?.into_owned();
    if let (Some(fields), Value::Object(map)) = (server.turn_fields, &mut message) {
        map.retain(|field, _| fields.contains(&field.as_str()));
    }
    Ok(vec![message])
}
