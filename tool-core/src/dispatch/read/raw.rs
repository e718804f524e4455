//! The arguments as a model sends them: an object, or OpenAI's object in a
//! JSON string; nothing at all for a tool without parameters.

use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Value};

use crate::error::pointer::push_key;
use crate::error::tool_error::{ToolError, Violation};

/// The default limit on the arguments of one call: 1 MiB of compact JSON.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1024 * 1024;

/// The arguments as a JSON object, or why they cannot be: over `limit`
/// bytes, not JSON, not an object, or (in a JSON string) an object with a
/// key twice, whose first value would otherwise be dropped without a word.
/// `null`, an empty string and the string `"null"` (the ways providers say
/// a tool without parameters gets none) are `{}`.
pub(crate) fn normalize(tool: &str, args: Value, limit: usize) -> Result<Value, ToolError> {
    let malformed = |problem: String| ToolError::MalformedArguments {
        tool: tool.to_owned(),
        problem,
    };
    match args {
        Value::Object(_) => {
            check_size(tool, &args, limit)?;
            Ok(args)
        }
        Value::Null => Ok(Value::Object(Map::new())),
        Value::String(text) => {
            if text.len() > limit {
                return Err(too_large(tool, text.len(), limit));
            }
            if text.trim().is_empty() {
                return Ok(Value::Object(Map::new()));
            }
            match parse(&text) {
                Ok(Value::Object(object)) => Ok(Value::Object(object)),
                Ok(Value::Null) => Ok(Value::Object(Map::new())),
                Ok(other) => Err(malformed(format!(
                    "are {}, not a JSON object",
                    kind(&other)
                ))),
                Err(Unreadable::Json(error)) => {
                    Err(malformed(format!("are not valid JSON ({error})")))
                }
                Err(Unreadable::KeyTwice(twice)) => Err(ToolError::InvalidArguments {
                    tool: tool.to_owned(),
                    violations: vec![twice.violation()],
                }),
            }
        }
        other => Err(malformed(format!(
            "are {}, not a JSON object",
            kind(&other)
        ))),
    }
}

/// Why a JSON text is no value.
enum Unreadable {
    Json(serde_json::Error),
    KeyTwice(KeyTwice),
}

/// An object with a key twice: where, and which key.
#[derive(Default)]
struct KeyTwice {
    /// The steps to the object, innermost first (they are added as the
    /// error leaves each level).
    steps: Vec<String>,
    key: String,
}

impl KeyTwice {
    fn violation(self) -> Violation {
        let mut pointer = String::new();
        for step in self.steps.iter().rev() {
            push_key(&mut pointer, step);
        }
        if pointer.is_empty() {
            Violation::new(
                "",
                format!("argument `{}` is given twice; give it once", self.key),
            )
        } else {
            Violation::new(
                pointer,
                format!("key `{}` is given twice; give it once", self.key),
            )
        }
    }
}

/// `text` as JSON, refusing an object with a key twice (serde_json keeps
/// the last value and drops the first).
fn parse(text: &str) -> Result<Value, Unreadable> {
    let mut twice = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed = UniqueKeys { twice: &mut twice }
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    match (parsed, twice) {
        (_, Some(twice)) => Err(Unreadable::KeyTwice(twice)),
        (Ok(value), None) => Ok(value),
        (Err(error), None) => Err(Unreadable::Json(error)),
    }
}

/// Reads a [`Value`] as serde_json does, but stops at a key given twice,
/// leaving where in `twice`.
struct UniqueKeys<'t> {
    twice: &'t mut Option<KeyTwice>,
}

impl UniqueKeys<'_> {
    /// Adds `step` to the path of a key found twice below it.
    fn within<T, E>(
        &mut self,
        step: impl FnOnce() -> String,
        result: Result<T, E>,
    ) -> Result<T, E> {
        if result.is_err()
            && let Some(twice) = self.twice.as_mut()
        {
            twice.steps.push(step());
        }
        result
    }
}

impl<'de> DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let index = items.len();
            let item = seq.next_element_seed(UniqueKeys {
                twice: &mut *self.twice,
            });
            match self.within(|| index.to_string(), item)? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(UniqueKeys {
                twice: &mut *self.twice,
            });
            let value = self.within(|| key.clone(), value)?;
            match object.entry(key) {
                Entry::Vacant(slot) => {
                    slot.insert(value);
                }
                Entry::Occupied(slot) => {
                    *self.twice = Some(KeyTwice {
                        steps: Vec::new(),
                        key: slot.key().clone(),
                    });
                    return Err(de::Error::custom("a key given twice"));
                }
            }
        }
        Ok(Value::Object(object))
    }
}

/// A JSON value's kind, for messages: `a string`, `an object`, `null`.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn too_large(tool: &str, size: usize, limit: usize) -> ToolError {
    ToolError::ArgumentsTooLarge {
        tool: tool.to_owned(),
        size,
        limit,
    }
}

/// Refuses a value whose compact JSON is over `limit` bytes, counted
/// without writing it and given up as soon as it is over.
fn check_size(tool: &str, value: &Value, limit: usize) -> Result<(), ToolError> {
    // A bound that reads no string's bytes settles almost every call.
    if upper_bound(value) <= limit {
        return Ok(());
    }
    let mut size = 0;
    if add_size(value, &mut size, limit) {
        Ok(())
    } else {
        Err(too_large(tool, size, limit))
    }
}

/// At least the compact JSON size of `value`: each byte of a string counted
/// as the longest escape (`\u00XX`), each number as the longest number.
fn upper_bound(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 24,
        Value::String(text) => 2 + 6 * text.len(),
        Value::Array(items) => {
            let mut size = 2 + items.len();
            for item in items {
                size += upper_bound(item);
            }
            size
        }
        Value::Object(map) => {
            let mut size = 2 + 4 * map.len();
            for (key, item) in map {
                size += 6 * key.len() + upper_bound(item);
            }
            size
        }
    }
}

/// Adds the compact JSON size of `value` to `size`; `false` once past
/// `limit`.
fn add_size(value: &Value, size: &mut usize, limit: usize) -> bool {
    match value {
        Value::Null => *size += 4,
        Value::Bool(true) => *size += 4,
        Value::Bool(false) => *size += 5,
        Value::Number(number) => *size += number_size(number),
        Value::String(text) => *size += string_size(text),
        Value::Array(items) => {
            *size += 2 + items.len().saturating_sub(1);
            for item in items {
                if !add_size(item, size, limit) {
                    return false;
                }
            }
        }
        Value::Object(map) => {
            *size += 2 + map.len().saturating_sub(1);
            for (key, item) in map {
                *size += string_size(key) + 1;
                if !add_size(item, size, limit) {
                    return false;
                }
            }
        }
    }
    *size <= limit
}

/// The length of a JSON string literal as serde_json writes it.
fn string_size(text: &str) -> usize {
    let bytes = text.as_bytes();
    let plain = |byte: &u8| *byte >= 0x20 && *byte != b'"' && *byte != b'\\';
    if bytes.iter().all(plain) {
        return bytes.len() + 2;
    }
    2 + bytes
        .iter()
        .map(|byte| match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// The length of a number as serde_json writes it: integers counted
/// digit by digit, floats (rare in arguments) formatted.
fn number_size(number: &serde_json::Number) -> usize {
    if let Some(n) = number.as_u64() {
        digits(n)
    } else if let Some(n) = number.as_i64() {
        1 + digits(n.unsigned_abs())
    } else {
        struct Count(usize);
        impl fmt::Write for Count {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 += s.len();
                Ok(())
            }
        }
        let mut count = Count(0);
        let _ = write!(count, "{number}");
        count.0
    }
}

fn digits(mut n: u64) -> usize {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(args: Value, limit: usize) -> String {
        normalize("t", args, limit)
            .expect_err("an error")
            .to_string()
    }

    #[test]
    fn objects_and_strings_holding_objects_are_arguments() {
        assert_eq!(
            normalize("t", json!({"a": 1}), 100).ok(),
            Some(json!({"a": 1}))
        );
        assert_eq!(
            normalize("t", json!("{\"a\": 1}"), 100).ok(),
            Some(json!({"a": 1}))
        );
        assert_eq!(normalize("t", json!(null), 100).ok(), Some(json!({})));
        assert_eq!(normalize("t", json!(" "), 100).ok(), Some(json!({})));
        // What some OpenAI-compatible servers send for a tool without
        // parameters.
        assert_eq!(normalize("t", json!("null"), 100).ok(), Some(json!({})));
        assert_eq!(normalize("t", json!(" null\n"), 100).ok(), Some(json!({})));
    }

    #[test]
    fn a_key_given_twice_is_refused_where_it_is() {
        let cases = [
            (
                r#"{"city": "Paris", "city": "Lyon"}"#,
                "invalid arguments for tool `t`: argument `city` is given twice; give it once. Correct the arguments and call the tool again.",
            ),
            (
                r#"{"address": {"street": "a", "number": 1, "street": "b"}}"#,
                "invalid arguments for tool `t`: argument `address` at `/address`: key `street` is given twice; give it once. Correct the arguments and call the tool again.",
            ),
            (
                r#"{"stops": [{"at": 1}, {"at": 2, "at": 3}], "x~/y": {"k": 1, "k": 1}}"#,
                "invalid arguments for tool `t`: argument `stops` at `/stops/1`: key `at` is given twice; give it once. Correct the arguments and call the tool again.",
            ),
            (
                r#"{"x~/y": {"k": 1, "k": 1}}"#,
                "invalid arguments for tool `t`: argument `x~/y` at `/x~0~1y`: key `k` is given twice; give it once. Correct the arguments and call the tool again.",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(message(json!(text), 1000), expected, "{text}");
        }
    }

    #[test]
    fn json_text_reads_as_serde_json_reads_it() {
        let texts = [
            r#"{"a": [1, -2, 3.5, 1e300, 18446744073709551615, -9223372036854775808, null, true, false]}"#,
            r#"{"s": "quote \" \u00e9 \ud83d\ude00", "o": {"p": {}, "q": []}, "": 0}"#,
            r#"{"a": 1} "#,
        ];
        for text in texts {
            let ours = normalize("t", json!(text), 1000).expect("arguments");
            let theirs: Value = serde_json::from_str(text).expect("JSON");
            assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
        }
        assert_eq!(
            message(json!(r#"{"a": 1} x"#), 100),
            "the arguments for tool `t` are not valid JSON (trailing characters at line 1 column 10); send them as a JSON object"
        );
    }

    #[test]
    fn anything_else_is_an_error_the_model_can_act_on() {
        assert_eq!(
            message(json!("{\"a\": "), 100),
            "the arguments for tool `t` are not valid JSON (EOF while parsing a value at line 1 column 6); send them as a JSON object"
        );
        assert_eq!(
            message(json!([1, 2]), 100),
            "the arguments for tool `t` are an array, not a JSON object; send them as a JSON object"
        );
        assert_eq!(
            message(json!("[1]"), 100),
            "the arguments for tool `t` are an array, not a JSON object; send them as a JSON object"
        );
        assert_eq!(
            message(json!({"text": "x".repeat(100)}), 50),
            "the arguments for tool `t` are over the limit of 50 bytes (at least 111); call it again with smaller arguments"
        );
        assert_eq!(
            message(json!("y".repeat(60)), 50),
            "the arguments for tool `t` are over the limit of 50 bytes (at least 60); call it again with smaller arguments"
        );
    }

    #[test]
    fn the_limit_counts_compact_json_exactly() {
        let values = [
            json!({"a": "bc"}),
            json!({"text": "quote \" backslash \\ newline \n tab \t bell \u{7} é 😀", "n": [1, -2, 3.5, 1e300, null, true, false]}),
            json!({"nested": {"deep": [{"x": {}}, [], ""]}, "big": u64::MAX, "small": i64::MIN}),
        ];
        for args in values {
            let exact = args.to_string().len();
            let mut size = 0;
            assert!(add_size(&args, &mut size, usize::MAX));
            assert_eq!(size, exact, "{args}");
            assert!(upper_bound(&args) >= exact, "{args}");
            assert!(normalize("t", args.clone(), exact).is_ok());
            assert!(normalize("t", args, exact - 1).is_err());
        }
    }
}
