//! What every family's replay of a whole response as a stream is made
//! with: text and arguments cut into small pieces, so that a reader sees the
//! shapes a real stream has, and server-sent events.

use serde_json::Value;

/// How many characters of text, and of arguments, a piece holds.
pub(crate) const TEXT_PIECE: usize = 4;
pub(crate) const ARGUMENTS_PIECE: usize = 6;

/// `text` in pieces of `size` characters.
pub(crate) fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size)
        .map(|piece| piece.iter().collect())
        .collect()
}

/// One server-sent event, named `kind`.
pub(crate) fn sse(kind: &str, data: &Value) -> String {
    format!("event: {kind}\ndata: {data}\n\n")
}
