//! The arguments as a model sends them: an object, or OpenAI's object in a
//! JSON string; nothing at all for a tool without parameters.

use std::io;

use serde_json::{Map, Value};

use crate::ToolError;

/// The default limit on the arguments of one call: 1 MiB of compact JSON.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1024 * 1024;

/// The arguments as a JSON object, or why they cannot be: over `limit`
/// bytes, not JSON, or not an object. `null` and an empty string (what
/// some providers send for a tool without parameters) are `{}`.
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
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(object)) => Ok(Value::Object(object)),
                Ok(other) => Err(malformed(format!(
                    "are {}, not a JSON object",
                    kind(&other)
                ))),
                Err(error) => Err(malformed(format!("are not valid JSON ({error})"))),
            }
        }
        other => Err(malformed(format!(
            "are {}, not a JSON object",
            kind(&other)
        ))),
    }
}

fn kind(value: &Value) -> &'static str {
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

/// Counts the compact JSON of `value`, stopping just past `limit`.
fn check_size(tool: &str, value: &Value, limit: usize) -> Result<(), ToolError> {
    let mut counter = Counter { count: 0, limit };
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => Ok(()),
        Err(_) => Err(too_large(tool, counter.count, limit)),
    }
}

/// A writer that only counts, and fails once past its limit so that a huge
/// value is not walked to the end.
struct Counter {
    count: usize,
    limit: usize,
}

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.count += buf.len();
        if self.count > self.limit {
            Err(io::Error::other("over the limit"))
        } else {
            Ok(buf.len())
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
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
            "the arguments for tool `t` are over the limit of 50 bytes (at least 109); call it again with smaller arguments"
        );
        assert_eq!(
            message(json!("y".repeat(60)), 50),
            "the arguments for tool `t` are over the limit of 50 bytes (at least 60); call it again with smaller arguments"
        );
    }

    #[test]
    fn the_limit_counts_compact_json_exactly() {
        let args = json!({"a": "bc"});
        assert_eq!(args.to_string().len(), 10);
        assert!(normalize("t", args.clone(), 10).is_ok());
        assert!(normalize("t", args, 9).is_err());
    }
}
