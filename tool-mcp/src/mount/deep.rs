//! A server's `tools/list` answer with a tool nested too deep to read:
//! serde_json stops at 128 levels, so rmcp would drop the whole answer,
//! and every tool with it. Read below rmcp (`lines.rs`), such an answer
//! is given again without the tools nested too deep, each remembered with
//! why, for [`Mounted::refused`](super::Mounted::refused).

use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use super::DEFAULT_MAX_SCHEMA_DEPTH;

/// The nesting of a message past which it is given again: under
/// serde_json's limit of 128, with room for what rmcp adds in reading.
const MAX_MESSAGE_DEPTH: usize = 120;

/// A tool's place in a `tools/list` answer: the message, `result`,
/// `tools`, the tool.
const TOOL_DEPTH: usize = 4;

/// What stands in for a value nested too deep, followed by how deep it
/// went: a string no listing means.
const CUT: &str = "\u{0}nested ";

/// The tools of one listing left out as nested too deep, and why.
#[derive(Debug)]
pub(crate) struct TooDeep {
    left_out: Mutex<Vec<(String, String)>>,
    /// The mount's bound on a schema's depth, which each reason names.
    limit: usize,
}

impl Default for TooDeep {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_SCHEMA_DEPTH)
    }
}

impl TooDeep {
    /// None left out yet, under the mount's bound `limit`.
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            left_out: Mutex::default(),
            limit,
        }
    }

    /// The tools left out since the last time, and why.
    pub(crate) fn take(&self) -> Vec<(String, String)> {
        std::mem::take(&mut *self.left_out.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// `message` again without its tools nested too deep, if it is a
    /// `tools/list` answer with any; those tools are remembered.
    pub(crate) fn rewrite(&self, message: &[u8]) -> Option<Vec<u8>> {
        if memchr::memmem::find(message, b"\"tools\"").is_none()
            || deepest(message) <= MAX_MESSAGE_DEPTH
        {
            return None;
        }
        let mut page: Value = serde_json::from_slice(&cut(message)).ok()?;
        let tools = page.get_mut("result")?.get_mut("tools")?.as_array_mut()?;
        let mut left_out = Vec::new();
        tools.retain(|tool| {
            let Some(depth) = cut_depth(tool) else {
                return true;
            };
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            // Counted from the tool's own level, as a schema's is.
            let depth = depth + 1 - TOOL_DEPTH;
            let limit = self.limit;
            let reason = if depth > limit {
                format!(
                    "it is nested {depth} deep in the server's list, over the mount's limit of {limit}"
                )
            } else {
                format!(
                    "it is nested {depth} deep in the server's list, deeper than a listing is read ({})",
                    MAX_MESSAGE_DEPTH + 1 - TOOL_DEPTH
                )
            };
            left_out.push((name.to_owned(), reason));
            false
        });
        if left_out.is_empty() {
            return None;
        }
        let mut line = serde_json::to_vec(&page).ok()?;
        line.push(b'\n');
        self.left_out
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(left_out);
        Some(line)
    }
}

/// Walks a message's bytes, calling `each` with each byte outside strings
/// that opens or closes a value, and the depth it leaves.
fn walk(message: &[u8], mut each: impl FnMut(usize, u8, usize)) {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (at, &byte) in message.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                each(at, byte, depth);
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                each(at, byte, depth);
            }
            _ => {}
        }
    }
}

/// How deep the message is nested.
fn deepest(message: &[u8]) -> usize {
    let mut deepest = 0;
    walk(message, |_, _, depth| deepest = deepest.max(depth));
    deepest
}

/// The message with each value nested past [`MAX_MESSAGE_DEPTH`] cut: a
/// string of [`CUT`] and how deep it went in its place.
fn cut(message: &[u8]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(message.len());
    let mut from = 0;
    let mut cut_at: Option<(usize, usize)> = None;
    walk(message, |at, byte, depth| match (cut_at, byte) {
        (None, b'{' | b'[') if depth > MAX_MESSAGE_DEPTH => {
            kept.extend_from_slice(&message[from..at]);
            cut_at = Some((at, depth));
        }
        (Some((_, deepest)), b'{' | b'[') => cut_at = Some((at, deepest.max(depth))),
        (Some((_, deepest)), _) if depth == MAX_MESSAGE_DEPTH => {
            let stand_in = Value::String(format!("{CUT}{deepest}"));
            kept.extend_from_slice(stand_in.to_string().as_bytes());
            from = at + 1;
            cut_at = None;
        }
        _ => {}
    });
    kept.extend_from_slice(&message[from..]);
    kept
}

/// How deep the deepest value cut from `value` went, if one was.
fn cut_depth(value: &Value) -> Option<usize> {
    let mut deepest = None;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => {
                if let Some(depth) = text.strip_prefix(CUT).and_then(|d| d.parse().ok()) {
                    deepest = deepest.max(Some(depth));
                }
            }
            Value::Array(values) => stack.extend(values),
            Value::Object(fields) => stack.extend(fields.values()),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!(
            r#"{{"x":{}{}}}"#,
            "[".repeat(depth - 1),
            "]".repeat(depth - 1)
        )
    }

    #[test]
    fn a_tool_nested_too_deep_is_left_out_and_the_others_kept() {
        let page = format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"tools":[{{"name":"fine","inputSchema":{}}},{{"name":"deep","inputSchema":{}}}]}}}}"#,
            nested(3),
            nested(1000)
        );
        let too_deep = TooDeep::default();
        let line = too_deep.rewrite(page.as_bytes()).expect("given again");
        let page: Value = serde_json::from_slice(&line).expect("readable");
        assert_eq!(page["id"], 2);
        assert_eq!(page["result"]["tools"].as_array().map(Vec::len), Some(1));
        assert_eq!(page["result"]["tools"][0]["name"], "fine");
        assert_eq!(
            too_deep.take(),
            [(
                "deep".to_owned(),
                format!(
                    "it is nested 1001 deep in the server's list, over the mount's limit of {DEFAULT_MAX_SCHEMA_DEPTH}"
                )
            )]
        );
        assert!(too_deep.take().is_empty());
    }

    #[test]
    fn what_is_not_too_deep_is_left_as_it_is() {
        let page = format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"tools":[{{"name":"fine","inputSchema":{}}}]}}}}"#,
            nested(100)
        );
        assert!(TooDeep::default().rewrite(page.as_bytes()).is_none());
        // Brackets in strings are not nesting.
        let text = format!(r#"{{"result":{{"tools":"{}"}}}}"#, "[".repeat(500));
        assert!(TooDeep::default().rewrite(text.as_bytes()).is_none());
    }
}
