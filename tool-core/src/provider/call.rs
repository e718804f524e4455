//! A tool call as a provider sends it.

use serde_json::Value;

use crate::dispatch::read::raw::kind;
use crate::registry::batch::ToolCall;

/// One tool call read from a provider's response: the provider's id for it,
/// the tool's name, the arguments as the model sent them, and what the reply
/// must carry back.
///
/// Two calls are equal when all of that is: the text their arguments came
/// as ([`ProviderCall::arguments_text`]) is how they were read, not what
/// they are.
#[derive(Clone, Debug)]
pub struct ProviderCall {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) arguments: Value,
    /// The arguments' object as the text the provider sent it, where the
    /// call was read from text (a stream, a body given as text).
    pub(crate) text: Option<Box<str>>,
    pub(crate) thought_signature: Option<String>,
    /// MCP: the JSON-RPC request's id, a number or a string.
    pub(crate) request_id: Option<Value>,
    /// OpenAI Responses: the model searched for tools
    /// (`tool_search_call`), and is answered with what was found
    /// (`tool_search_output`).
    pub(crate) search: bool,
}

impl PartialEq for ProviderCall {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.name == other.name
            && self.arguments == other.arguments
            && self.thought_signature == other.thought_signature
            && self.request_id == other.request_id
            && self.search == other.search
    }
}

impl ProviderCall {
    /// A call of `name` with `arguments` and the provider's `id` for it.
    pub fn new(id: Option<String>, name: impl Into<String>, arguments: Value) -> Self {
        Self {
            id,
            name: name.into(),
            arguments,
            text: None,
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

    /// The arguments as JSON text, which the registry reads a `#[tool]`'s
    /// input straight out of ([`to_tool_call`](Self::to_tool_call)):
    /// OpenAI's string; the object's text as Anthropic's stream sent it;
    /// the object written compactly where a stream's delta gave it so
    /// (Gemini's, Ollama's). `None` for an object read from a parsed
    /// [`Value`]: copying that value costs less than writing it out and
    /// reading it again.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let response = json!({"content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    /// ]});
    /// let calls = Provider::Anthropic { strict: false }.parse_calls(&response).unwrap();
    /// assert_eq!(calls[0].arguments_text(), None);
    ///
    /// let response = json!({"choices": [{"message": {"tool_calls": [{
    ///     "id": "call_1", "type": "function",
    ///     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}
    /// }]}}]});
    /// let calls = Provider::OpenAiChat { strict: false }.parse_calls(&response).unwrap();
    /// assert_eq!(calls[0].arguments_text(), Some(r#"{"city":"Paris"}"#));
    /// ```
    pub fn arguments_text(&self) -> Option<&str> {
        match (&self.text, &self.arguments) {
            (Some(text), _) => Some(text),
            (None, Value::String(text)) => Some(text),
            (None, _) => None,
        }
    }

    /// This call with its arguments' object kept as `text`, the JSON text
    /// it came as, which the registry reads the tool's input from.
    pub(crate) fn with_text(mut self, text: &str) -> Self {
        // Other arguments (none, OpenAI's string) are text already or none.
        if self.arguments.is_object() {
            self.text = Some(text.into());
        }
        self
    }

    /// Gemini's `thoughtSignature` on the part that held the call, which
    /// Gemini 3 wants back, verbatim, when the conversation is replayed.
    pub fn thought_signature(&self) -> Option<&str> {
        self.thought_signature.as_deref()
    }

    /// The call as [`ToolRegistry::call_all`](crate::ToolRegistry::call_all)
    /// takes it: the arguments as their text where the call kept it, which a
    /// `#[tool]` reads its input straight out of, and their value
    /// otherwise.
    pub fn to_tool_call(&self) -> ToolCall {
        let arguments = match &self.text {
            Some(text) => Value::String(text.to_string()),
            None => self.arguments.clone(),
        };
        let call = ToolCall::new(self.name.clone(), arguments);
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
