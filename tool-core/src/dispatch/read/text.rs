//! Reading a `#[tool]`'s input straight out of the JSON string a model
//! sent (OpenAI's arguments arrive so), without making a
//! [`Value`](serde_json::Value) of it first.
//!
//! The detour through a `Value` is there for what needs the arguments as a
//! whole: the schema's check, the call's id, an approval, a run in the
//! background. A tool whose reading implies its schema
//! (`schema/implied.rs`), decided when it is registered, needs no check,
//! and a call that needs nothing else of the value reads the text instead:
//! the start function refuses the keys no parameter has, a key given twice
//! and a required one left out, as the schema would.
//!
//! A read that fails (a bad value, a key with an escape in it, text that is
//! not one JSON object) goes the whole way, from the start: a value, the
//! schema's check, the deserializer. A failure is thus reported exactly as
//! it would be for the value, and the text path has no messages of its own.

use std::cell::Cell;

use serde::de::DeserializeOwned;
use serde_json::Error;

use crate::error::tool_error::ToolError;

/// Reads one value of `T` at the start of the text; how many bytes it took.
pub(crate) type TextRead<T> = fn(&str) -> Result<(T, usize), Error>;

pub(crate) fn read_text<T: DeserializeOwned>(text: &str) -> Result<(T, usize), Error> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<T>();
    match values.next() {
        Some(Ok(value)) => Ok((value, values.byte_offset())),
        Some(Err(error)) => Err(error),
        None => Err(serde::de::Error::custom("no value")),
    }
}

/// The arguments' text, walked key by key: the top-level object only, each
/// value read by its parameter's reader. Any surprise ends the walk and
/// marks the call for the whole way.
pub(crate) struct Scan<'a> {
    text: &'a str,
    at: usize,
    state: ScanState,
    failed: &'a Cell<bool>,
}

#[derive(Clone, Copy, PartialEq)]
enum ScanState {
    Start,
    /// After a key's colon, before its value.
    Value,
    /// After a value.
    Next,
    /// After the closing brace.
    Done,
}

impl<'a> Scan<'a> {
    pub(crate) fn new(text: &'a str, failed: &'a Cell<bool>) -> Self {
        Self {
            text,
            at: 0,
            state: ScanState::Start,
            failed,
        }
    }

    /// Marks the call for the whole way, with an error no one reads: the
    /// call is read again from the start.
    #[cold]
    pub(crate) fn unread(&mut self, tool: &str) -> ToolError {
        self.fail();
        ToolError::MalformedArguments {
            tool: tool.to_owned(),
            problem: "are read again".to_owned(),
        }
    }

    /// Marks the call for the whole way.
    #[cold]
    pub(crate) fn fail(&mut self) {
        self.failed.set(true);
        self.state = ScanState::Done;
    }

    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.text.as_bytes().get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    /// The next key, with the scan before its value; `None` at the end of
    /// the object or on a surprise (then the scan has failed).
    pub(crate) fn next_key(&mut self) -> Option<&'a str> {
        let open = match self.state {
            ScanState::Start => self.eat(b'{'),
            ScanState::Next => true,
            ScanState::Value => false,
            ScanState::Done => return None,
        };
        if !open {
            self.fail();
            return None;
        }
        if self.eat(b'}') {
            self.state = ScanState::Done;
            return None;
        }
        // Between two entries, a comma.
        let separated = self.state == ScanState::Start || self.eat(b',');
        match self.key() {
            Some(key) if separated && self.eat(b':') => {
                self.state = ScanState::Value;
                Some(key)
            }
            _ => {
                self.fail();
                None
            }
        }
    }

    /// A key without escapes (a key with one goes the whole way).
    fn key(&mut self) -> Option<&'a str> {
        if !self.eat(b'"') {
            return None;
        }
        let rest = &self.text.as_bytes()[self.at..];
        let end = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest[end] != b'"' {
            return None;
        }
        let key = &self.text[self.at..self.at + end];
        self.at += end + 1;
        Some(key)
    }

    /// Reads the value after the last key with `read`.
    pub(crate) fn value<T>(&mut self, read: TextRead<T>) -> Option<T> {
        if self.state != ScanState::Value {
            self.fail();
            return None;
        }
        match read(&self.text[self.at..]) {
            Ok((value, used)) => {
                self.at += used;
                self.state = ScanState::Next;
                Some(value)
            }
            Err(_) => {
                self.fail();
                None
            }
        }
    }

    /// Whether the text was one object, read to its end.
    pub(crate) fn complete(&self) -> bool {
        self.state == ScanState::Done
            && !self.failed.get()
            && self.text[self.at..]
                .trim_start_matches([' ', '\n', '\r', '\t'])
                .is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> (Vec<String>, bool) {
        let failed = Cell::new(false);
        let mut scan = Scan::new(text, &failed);
        let mut keys = Vec::new();
        while let Some(key) = scan.next_key() {
            keys.push(key.to_owned());
            let read: TextRead<serde_json::Value> = read_text;
            if scan.value(read).is_none() {
                break;
            }
        }
        (keys, scan.complete())
    }

    #[test]
    fn an_object_is_walked_key_by_key() {
        assert_eq!(keys("{}"), (vec![], true));
        assert_eq!(keys(" { } \n"), (vec![], true));
        assert_eq!(
            keys(r#"{"a":1,"b" : "x" , "c":[1,{"d":2}],"e":null,"f":-1.5e3}"#),
            (["a", "b", "c", "e", "f"].map(String::from).to_vec(), true)
        );
        assert!(keys(r#"{"a":true,"b":false}"#).1);
    }

    #[test]
    fn anything_else_goes_the_whole_way() {
        for text in [
            "",
            "null",
            "[]",
            "{",
            r#"{"a":1"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"{"a":1 "b":2}"#,
            r#"{"a":1}}"#,
            r#"{"a":1} x"#,
            r#"{"a\"b":1}"#,
            r#"{"a\u0062":1}"#,
            r#"{"a":tru}"#,
            r#"{"a":1x}"#,
            "{\"a\n\":1}",
        ] {
            assert!(!keys(text).1, "{text}");
        }
    }

    #[test]
    fn a_number_read_from_the_text_ends_where_it_ends() {
        assert_eq!(read_text::<u8>("2}").unwrap(), (2, 1));
        assert_eq!(read_text::<f64>("-1.5 ,").unwrap(), (-1.5, 4));
        assert_eq!(
            read_text::<String>(r#""a\"b","#).unwrap(),
            ("a\"b".to_owned(), 6)
        );
        assert!(read_text::<u8>("300}").is_err());
    }
}
