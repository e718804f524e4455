//! A response as the application holds it: parsed, or as the text the
//! provider sent. From the text, each call keeps its arguments as the text
//! they came as, so a `#[tool]` reads its input straight out of it, as it
//! does OpenAI's arguments, with no value made of them
//! ([`ProviderCall::arguments_text`]).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};

use crate::provider::call::ProviderCall;

/// A provider's response, as [`Provider::respond`], [`Provider::respond_in`]
/// and [`Provider::parse_calls`] take it: a parsed [`Value`], or the body's
/// text (`&str`, `&String`), which is parsed once and whose calls keep
/// their arguments' text.
///
/// Anthropic's, Gemini's, Ollama's and MCP's calls carry their arguments
/// as an object: read from a [`Value`], a call's arguments are a value the
/// registry reads its tool's input from; read from the text, they are the
/// object's text, which a `#[tool]` reads as it reads OpenAI's arguments,
/// without a value made of them (`cargo bench --bench respond`).
///
/// ```
/// use tool_core::provider::Provider;
///
/// let body = r#"{"role": "assistant", "content": [
///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
/// ]}"#;
/// let calls = Provider::Anthropic { strict: false }.parse_calls(body).unwrap();
/// assert_eq!(calls[0].arguments_text(), Some(r#"{"city": "Paris"}"#));
/// assert_eq!(calls[0].arguments()["city"], "Paris");
/// ```
///
/// [`Provider::respond`]: crate::provider::Provider::respond
/// [`Provider::respond_in`]: crate::provider::Provider::respond_in
/// [`Provider::parse_calls`]: crate::provider::Provider::parse_calls
#[derive(Clone, Copy, Debug)]
pub enum ProviderResponse<'a> {
    /// The response, parsed.
    Value(&'a Value),
    /// The body as the provider sent it.
    Text(&'a str),
}

impl<'a> From<&'a Value> for ProviderResponse<'a> {
    fn from(value: &'a Value) -> Self {
        ProviderResponse::Value(value)
    }
}

impl<'a> From<&'a str> for ProviderResponse<'a> {
    fn from(text: &'a str) -> Self {
        ProviderResponse::Text(text)
    }
}

impl<'a> From<&'a String> for ProviderResponse<'a> {
    fn from(text: &'a String) -> Self {
        ProviderResponse::Text(text)
    }
}

/// A response read: its value, and the text of each object found under a
/// key that holds a call's arguments ([`ARGUMENT_KEYS`]), in the order of
/// the text.
pub(crate) struct ReadResponse<'a> {
    pub(crate) value: Cow<'a, Value>,
    texts: Vec<&'a str>,
}

/// The keys under which the providers put a call's arguments as an
/// object: Anthropic's `input`, Gemini's `args`, Ollama's and MCP's
/// `arguments` (OpenAI's `arguments`, a string, is text already).
const ARGUMENT_KEYS: [&str; 3] = ["input", "args", "arguments"];

impl<'a> ProviderResponse<'a> {
    /// The response's value, and from text the objects' texts; an error
    /// says why the text is no JSON.
    pub(crate) fn read(self) -> Result<ReadResponse<'a>, String> {
        match self {
            ProviderResponse::Value(value) => Ok(ReadResponse {
                value: Cow::Borrowed(value),
                texts: Vec::new(),
            }),
            ProviderResponse::Text(text) => {
                let mut texts = Vec::new();
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let value = KeepTexts { texts: &mut texts }
                    .deserialize(&mut deserializer)
                    .and_then(|value| deserializer.end().map(|()| value))
                    .map_err(|error| format!("the body is not JSON ({error})"))?;
                Ok(ReadResponse {
                    value: Cow::Owned(value),
                    texts,
                })
            }
        }
    }
}

impl ReadResponse<'_> {
    /// Gives each of `calls` whose arguments are an object the text that
    /// object came as. The objects are found again in the value in the
    /// text's order, and a call takes the first not yet taken that equals
    /// its arguments; where the value and the texts disagree (a key given
    /// twice drops one of them), no call is given a text, and each is read
    /// from its value as before.
    pub(crate) fn keep_texts(&self, calls: &mut [ProviderCall]) {
        if self.texts.is_empty() {
            return;
        }
        let mut objects = Vec::with_capacity(self.texts.len());
        argument_objects(&self.value, &mut objects);
        if objects.len() != self.texts.len() {
            return;
        }
        let mut taken = vec![false; objects.len()];
        for call in calls.iter_mut().filter(|call| call.arguments.is_object()) {
            let found = (0..objects.len()).find(|&at| !taken[at] && *objects[at] == call.arguments);
            if let Some(at) = found {
                taken[at] = true;
                call.text = Some(self.texts[at].into());
            }
        }
    }
}

/// Whether a member under `key` holding an object is a call's arguments.
fn holds_arguments(key: &str) -> bool {
    ARGUMENT_KEYS.contains(&key)
}

/// The objects under the keys of [`ARGUMENT_KEYS`] in `value`, in its order,
/// as [`KeepTexts`] met them: not looked into.
fn argument_objects<'v>(value: &'v Value, found: &mut Vec<&'v Value>) {
    match value {
        Value::Object(object) => {
            for (key, member) in object {
                if holds_arguments(key) {
                    if member.is_object() {
                        found.push(member);
                    }
                } else {
                    argument_objects(member, found);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| argument_objects(item, found)),
        _ => {}
    }
}

/// Reads a [`Value`] as serde_json does, keeping the text of each object
/// under a key of [`ARGUMENT_KEYS`].
struct KeepTexts<'t, 'de> {
    texts: &'t mut Vec<&'de str>,
}

impl<'de> DeserializeSeed<'de> for KeepTexts<'_, 'de> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeepTexts<'_, 'de> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(KeepTexts {
            texts: &mut *self.texts,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let member = if holds_arguments(&key) {
                let raw: &'de RawValue = map.next_value()?;
                let text = raw.get();
                let member: Value = serde_json::from_str(text).map_err(de::Error::custom)?;
                if member.is_object() {
                    self.texts.push(text);
                }
                member
            } else {
                map.next_value_seed(KeepTexts {
                    texts: &mut *self.texts,
                })?
            };
            object.insert(key, member);
        }
        Ok(Value::Object(object))
    }
}
