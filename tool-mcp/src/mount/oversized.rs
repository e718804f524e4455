//! A message from the server too large to read, seen as it streams past
//! (never held whole): whether it answers a request, and which one, so
//! that the request ends at once in an error that says why, instead of
//! at its time limit when rmcp drops the message unread. Over HTTP, the
//! request is the one whose answer is too large.

use rmcp::model::{ClientJsonRpcMessage, ErrorCode, ErrorData, ServerJsonRpcMessage};
use serde_json::Value;

/// The error code of the answer that stands in for one too large.
const TOO_LARGE_CODE: i32 = -32_090;

/// The message of that answer, which, with its code, tells it from a
/// server's own error.
const TOO_LARGE_MESSAGE: &str = "answer too large to read";

/// The bytes of an answer's `id` kept at most: an id is a number or a
/// short string.
const MAX_ID_BYTES: usize = 256;

/// Whether `error` is the one that stands in for an answer too large.
pub(crate) fn is_too_large(error: &ErrorData) -> bool {
    error.code == ErrorCode(TOO_LARGE_CODE) && error.message == TOO_LARGE_MESSAGE
}

/// The keys of the message's top-level object that tell an answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Id,
    Answer,
    Method,
    Other,
}

/// A message read as it streams past, byte by byte, in bounded memory:
/// its top-level `id`, and whether it is an answer (`result` or `error`)
/// rather than a request or notification (`method`).
#[derive(Default)]
pub(crate) struct Scan {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// In the top-level object, the next string is a key.
    expects_key: bool,
    /// The top-level key being read, while it is short enough to be one
    /// looked for.
    key: Option<Vec<u8>>,
    last_key: Option<Key>,
    /// The raw `id`, while it is read (`None` before and after).
    reading_id: Option<Vec<u8>>,
    id: Option<Value>,
    answers: bool,
    asks: bool,
    /// The stand-in answer was given.
    told: bool,
}

impl Scan {
    /// Reads the next bytes of the message.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.byte(byte);
        }
    }

    fn byte(&mut self, byte: u8) {
        if let Some(id) = &mut self.reading_id {
            if id.len() < MAX_ID_BYTES {
                id.push(byte);
            } else {
                // Too long to be an id: none is read.
                self.reading_id = None;
            }
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
                if let Some(key) = self.key.take() {
                    self.key_read(&key);
                }
                return;
            }
            if let Some(key) = &mut self.key {
                if key.len() < 8 {
                    key.push(byte);
                } else {
                    self.key = None;
                    self.last_key = Some(Key::Other);
                }
            }
            return;
        }
        match byte {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expects_key {
                    self.key = Some(Vec::new());
                    self.expects_key = false;
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth == 1 {
                    self.expects_key = byte == b'{';
                }
            }
            b'}' | b']' => {
                if self.depth == 1 {
                    self.id_read(1);
                }
                self.depth = self.depth.saturating_sub(1);
            }
            b':' if self.depth == 1 && self.last_key == Some(Key::Id) => {
                self.reading_id = Some(Vec::new());
            }
            b',' if self.depth == 1 => {
                self.id_read(1);
                self.expects_key = true;
            }
            _ => {}
        }
    }

    fn key_read(&mut self, key: &[u8]) {
        let key = match key {
            b"id" => Key::Id,
            b"result" | b"error" => Key::Answer,
            b"method" => Key::Method,
            _ => Key::Other,
        };
        self.answers |= key == Key::Answer;
        self.asks |= key == Key::Method;
        self.last_key = Some(key);
    }

    /// The `id`'s value ends, its last `trailing` bytes (the `,` or `}`)
    /// not its own.
    fn id_read(&mut self, trailing: usize) {
        let Some(raw) = self.reading_id.take() else {
            return;
        };
        let raw = &raw[..raw.len().saturating_sub(trailing)];
        self.id = serde_json::from_slice::<Value>(raw)
            .ok()
            .filter(|id| id.is_number() || id.is_string());
    }

    /// The answer that stands in for this one, a line, once the message
    /// is known to answer a request, and which; given once.
    pub(crate) fn stand_in(&mut self) -> Option<Vec<u8>> {
        if self.told || !self.answers || self.asks {
            return None;
        }
        let id = self.id.clone()?;
        self.told = true;
        let mut line = serde_json::to_vec(&stand_in(id)).ok()?;
        line.push(b'\n');
        Some(line)
    }
}

/// The error answer to request `id` that stands in for one too large.
pub(crate) fn stand_in(id: Value) -> Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": TOO_LARGE_CODE, "message": TOO_LARGE_MESSAGE},
    })
}

/// The error answer to `message`, if it is a request, that stands in for
/// one too large: as rmcp reads it, and as an event's data.
pub(crate) fn stand_in_for(
    message: &ClientJsonRpcMessage,
) -> Option<(ServerJsonRpcMessage, String)> {
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    let answer = stand_in(serde_json::to_value(&request.id).ok()?);
    let data = answer.to_string();
    Some((serde_json::from_value(answer).ok()?, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(message: &[u8]) -> Scan {
        let mut scan = Scan::default();
        for chunk in message.chunks(3) {
            scan.feed(chunk);
        }
        scan
    }

    #[test]
    fn an_answers_id_is_read_wherever_it_is() {
        for message in [
            br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"a,\"}"}]}}"#.as_slice(),
            br#"{"result":{"id":1,"x":[1,2]},"jsonrpc":"2.0","id": "r-7" }"#,
        ] {
            let mut scan = scanned(message);
            let line = scan.stand_in().expect("an answer");
            let answer: Value = serde_json::from_slice(&line).expect("JSON");
            assert!(answer["id"] == 7 || answer["id"] == "r-7", "{answer}");
            assert_eq!(answer["error"]["message"], TOO_LARGE_MESSAGE);
            assert!(scan.stand_in().is_none(), "given once");
        }
    }

    #[test]
    fn a_request_or_notification_is_not_answered() {
        for message in [
            br#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}"#.as_slice(),
            br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"id":1}}"#,
        ] {
            assert!(scanned(message).stand_in().is_none());
        }
    }

    #[test]
    fn an_answer_is_told_before_its_end_once_its_id_and_result_are_read() {
        let mut scan = scanned(br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"zzz"#);
        assert!(scan.stand_in().is_some());
        let mut scan = scanned(br#"{"jsonrpc":"2.0","result":{"content":[{"text":"zzz"#);
        assert!(scan.stand_in().is_none());
    }
}
