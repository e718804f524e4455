//! A tool call as a provider sends it.

use serde_json::Value;

use crate::dispatch::read::raw::kind;
use crate::registry::batch::ToolCall;

/// One tool call read from a provider's response: the provider's id for it,
/// the tool's name, the arguments as the model sent them, and what the reply
/// must carry back.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderCall {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) arguments: Value,
    pub(crate) thought_signature: Option<String>,
    /// MCP: the JSON-RPC request's id, a number or a string.
    pub(crate) request_id: Option<Value>,
    /// OpenAI Responses: the model searched for tools
    /// (`tool_search_call`), and is answered with what was found
    /// (`tool_search_output`).
    pub(crate) search: bool,
}

impl ProviderCall {
    /// A call of `name` with `arguments` and the provider's `id` for it.
    pub fn new(id: Option<String>, name: impl Into<String>, arguments: Value) -> Self {
        Self {
            id,
            name: name.into(),
            arguments,
            thought_signature: None,
            request_id: None,
            search: false,
        }
    }

    /// The provider's id for the call, which its result must name:
    /// OpenAI's `tool_call.id` (Chat, and Groq's and vLLM's) or `call_id`
    /// (Responses), Anthropic's `tool_use` id, Gemini's `functionCall.id`
    /// (often absent), Ollama's `tool_calls[].id` (absent before Ollama
    /// 0.12.10), MCP's JSON-RPC id as text.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments as the model sent them: an object (Ollama's too), or
    /// OpenAI's JSON string.
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// Gemini's `thoughtSignature` on the part that held the call, which
    /// Gemini 3 wants back, verbatim, when the conversation is replayed.
    pub fn thought_signature(&self) -> Option<&str> {
        self.thought_signature.as_deref()
    }

    /// The call as [`ToolRegistry::call_all`](crate::ToolRegistry::call_all)
    /// takes it.
    pub fn to_tool_call(&self) -> ToolCall {
        let call = ToolCall::new(self.name.clone(), self.arguments.clone());
        match &self.id {
            Some(id) => call.with_id(id.clone()),
            None => call,
        }
    }
}

/// `value[key]` as a string, or a message saying what is wrong.
pub(crate) fn string_at<'v>(value: &'v Value, key: &str, what: &str) -> Result<&'v str, String> {
    match value.get(key) {
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(format!(
            "{what} has a `{key}` that is not a string: {other}"
        )),
        None => Err(format!("{what} has no `{key}`")),
    }
}

/// `value[key]` as an optional string.
pub(crate) fn optional_string(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The array at `key` of `value`, or `value` itself when it is the array.
/// A missing `key` is no items when `may_lack` (a message without tool
/// calls), an error otherwise (an object that is not the provider's shape).
pub(crate) fn list<'v>(
    value: &'v Value,
    key: &str,
    what: &str,
    may_lack: bool,
) -> Result<&'v [Value], String> {
    match value {
        Value::Array(items) => Ok(items),
        Value::Object(object) => match object.get(key) {
            Some(Value::Array(items)) => Ok(items),
            None | Some(Value::Null) if may_lack => Ok(&[]),
            None | Some(Value::Null) => {
                Err(format!("expected {what}, got an object without `{key}`"))
            }
            Some(other) => Err(format!("`{key}` is not an array but {}", kind(other))),
        },
        other => Err(format!("expected {what}, got {}", kind(other))),
    }
}

/// The calls among `items` whose `type` is `call_type`: the id under
/// `id_key`, the name under `name`, the arguments under `arguments_key`.
/// `list` names the items in messages (`output`, `content`).
pub(crate) fn typed_calls(
    items: &[Value],
    call_type: &str,
    id_key: &str,
    arguments_key: &str,
    list: &str,
) -> Result<Vec<ProviderCall>, String> {
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.get("type").and_then(Value::as_str) == Some(call_type))
        .map(|(at, item)| typed_call(item, &format!("`{list}[{at}]`"), id_key, arguments_key))
        .collect()
}

/// One call item (`what` says where it is, for the error): its id, the
/// tool's name and the arguments.
pub(crate) fn typed_call(
    item: &Value,
    what: &str,
    id_key: &str,
    arguments_key: &str,
) -> Result<ProviderCall, String> {
    let id = string_at(item, id_key, what)?;
    let name = string_at(item, "name", what)?;
    Ok(ProviderCall::new(
        Some(id.to_owned()),
        name,
        item.get(arguments_key).cloned().unwrap_or(Value::Null),
    ))
}

/// The texts among the parts under `list` of one item of a model's turn:
/// those whose `type` is `text_type` (any, when `None`), thoughts left
/// out (Gemini's `"thought": true`).
pub(crate) fn texts_in<'t>(
    item: &'t Value,
    list: &str,
    text_type: Option<&str>,
    texts: &mut Vec<&'t str>,
) {
    let parts = item
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    texts.extend(
        parts
            .filter(|part| text_type.is_none_or(|t| part["type"] == t))
            .filter(|part| part["thought"] != true)
            .filter_map(|part| part.get("text").and_then(Value::as_str)),
    );
}
