//! What a model sent, repeated back to it: bounded, and with nothing in it
//! that could rearrange or hide the text around it.
//!
//! A model's output is untrusted input: a tool name of a megabyte, a key
//! full of newlines, a right-to-left override that makes the error read
//! backwards. Every piece of it that goes into a text the model (or a log)
//! reads passes through [`Echo`], the one place the bound is kept.

use std::fmt::{self, Write as _};

/// The most characters of one piece of model output repeated in a
/// model-facing text (a tool name, an argument's name, a value, a JSON
/// Pointer), escapes included; a longer piece is cut and ends with `…`.
pub const MAX_ECHO_CHARS: usize = 64;

/// The most problems one error lists; the rest are counted ("and 3 more").
pub const MAX_LISTED_PROBLEMS: usize = 8;

/// Model output as it is repeated: at most [`MAX_ECHO_CHARS`] characters,
/// control characters and bidirectional and invisible formatting
/// characters written as escapes (`\n`, `\u{202e}`), and so is a
/// backtick, which quotes the echo in the text around it.
///
/// ```
/// use tool_core::error::Echo;
///
/// assert_eq!(Echo("get_weather").to_string(), "get_weather");
/// assert_eq!(Echo("a\nb\u{202e}c").to_string(), "a\\nb\\u{202e}c");
/// assert_eq!(Echo(&"x".repeat(1000)).to_string().chars().count(), 64);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a>(pub &'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole: usize = self.0.chars().map(escaped_width).sum();
        // Room for the `…` when the text does not fit.
        let room = if whole <= MAX_ECHO_CHARS {
            MAX_ECHO_CHARS
        } else {
            MAX_ECHO_CHARS - 1
        };
        let mut written = 0;
        for c in self.0.chars() {
            let width = escaped_width(c);
            if written + width > room {
                return f.write_char('…');
            }
            write_escaped(f, c)?;
            written += width;
        }
        Ok(())
    }
}

fn write_escaped(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    match c {
        '\n' => f.write_str("\\n"),
        '\r' => f.write_str("\\r"),
        '\t' => f.write_str("\\t"),
        c if is_hidden(c) => write!(f, "\\u{{{:x}}}", c as u32),
        c => f.write_char(c),
    }
}

/// How many characters `c` takes once escaped.
fn escaped_width(c: char) -> usize {
    match c {
        '\n' | '\r' | '\t' => 2,
        // `\u{` + hex digits + `}`
        c if is_hidden(c) => 4 + (32 - (c as u32 | 1).leading_zeros()).div_ceil(4) as usize,
        _ => 1,
    }
}

/// Control characters, and the formatting characters that reorder or hide
/// text: bidirectional embeddings, overrides, isolates and marks,
/// zero-width characters, line and paragraph separators, the byte order
/// mark; and the backtick, so that an echo cannot close its quotes.
fn is_hidden(c: char) -> bool {
    c == '`'
        || c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// Every `` `…` `` and `"…"` span of a deserializer's message bounded as
/// an [`Echo`]: serde's messages repeat the key or the value they are
/// about (`unknown field `…``, `invalid type: string "…"`), and nothing
/// else in them comes from the model.
pub(crate) fn bound_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest.as_bytes()[open] as char;
        out.push_str(&rest[..=open]);
        let inner = &rest[open + 1..];
        let Some(close) = closing(inner, quote) else {
            let _ = write!(out, "{}", Echo(inner));
            return out;
        };
        let _ = write!(out, "{}", Echo(&inner[..close]));
        out.push(quote);
        rest = &inner[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Where a span opened by `quote` closes: for `"`, the first quote not
/// escaped by a backslash (serde writes strings with `{:?}`).
fn closing(text: &str, quote: char) -> Option<usize> {
    if quote == '`' {
        return text.find('`');
    }
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_plain_text_is_unchanged() {
        for text in ["", "city", "東京", "🦀", &"x".repeat(MAX_ECHO_CHARS)] {
            assert_eq!(Echo(text).to_string(), text);
        }
    }

    #[test]
    fn long_text_is_cut_to_the_bound() {
        let cut = Echo(&"x".repeat(MAX_ECHO_CHARS + 1)).to_string();
        assert_eq!(cut, format!("{}…", "x".repeat(MAX_ECHO_CHARS - 1)));
        let escapes = Echo(&"\u{202e}".repeat(100)).to_string();
        assert!(escapes.chars().count() <= MAX_ECHO_CHARS, "{escapes}");
        assert!(escapes.ends_with('…') && escapes.starts_with("\\u{202e}"));
    }

    #[test]
    fn hidden_characters_are_shown() {
        assert_eq!(
            Echo("a\u{0}b\u{1b}[31m\r\n\t\u{200b}\u{2066}\u{feff}").to_string(),
            "a\\u{0}b\\u{1b}[31m\\r\\n\\t\\u{200b}\\u{2066}\\u{feff}"
        );
    }

    #[test]
    fn quoted_spans_of_a_message_are_bounded() {
        let key = "k".repeat(500);
        let message = format!("unknown field `{key}`, expected one of `city`, `units`");
        assert_eq!(
            bound_quoted(&message),
            format!(
                "unknown field `{}…`, expected one of `city`, `units`",
                "k".repeat(MAX_ECHO_CHARS - 1)
            )
        );
        let value = format!("{:?}", format!("a\"b{}", "v".repeat(500)));
        let message = format!("invalid type: string {value}, expected u8");
        let bounded = bound_quoted(&message);
        assert!(
            bounded.starts_with("invalid type: string \"a\\\"b"),
            "{bounded}"
        );
        assert!(bounded.ends_with("…\", expected u8"), "{bounded}");
        assert_eq!(bound_quoted("missing field `city`"), "missing field `city`");
    }
}
