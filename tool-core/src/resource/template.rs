//! URI templates as resources name the URIs they read: RFC 6570's simple
//! expressions, `{name}` (a value that is one path segment, without `/`)
//! and `{+name}` (a value that may hold `/`), between literal text.
//! Reading a URI finds the template it fits and the value of each name.

use std::collections::BTreeMap;
use std::fmt;

/// A URI template: `file:///logs/{day}.txt`, `repo://{owner}/{name}/readme`,
/// `docs://{+path}`.
///
/// ```
/// use tool_core::resource::UriTemplate;
///
/// let template = UriTemplate::parse("repo://{owner}/{name}/readme").unwrap();
/// let params = template.matches("repo://rust-lang/rust/readme").unwrap();
/// assert_eq!(params["owner"], "rust-lang");
/// assert_eq!(params["name"], "rust");
/// assert!(template.matches("repo://rust-lang/readme").is_none());
/// assert_eq!(template.names().collect::<Vec<_>>(), ["owner", "name"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    text: String,
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Literal(String),
    /// A name, and whether its value may hold `/` (`{+name}`).
    Name(String, bool),
}

/// Why a URI template cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplateError {
    /// The template.
    pub template: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for UriTemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "URI template `{}`: {}", self.template, self.reason)
    }
}

impl std::error::Error for UriTemplateError {}

impl UriTemplate {
    /// Reads a template; a brace left open or unopened, an empty or
    /// invalid name, a name used twice, two names with nothing between
    /// them, or an operator other than `+` is an error.
    pub fn parse(text: &str) -> Result<Self, UriTemplateError> {
        let error = |reason: String| UriTemplateError {
            template: text.to_owned(),
            reason,
        };
        let mut pieces = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            match rest.find(['{', '}']) {
                None => {
                    pieces.push(Piece::Literal(rest.to_owned()));
                    break;
                }
                Some(at) if rest.as_bytes()[at] == b'}' => {
                    return Err(error(format!(
                        "`}}` at {} closes nothing",
                        text.len() - rest.len() + at
                    )));
                }
                Some(at) => {
                    if at > 0 {
                        pieces.push(Piece::Literal(rest[..at].to_owned()));
                    }
                    let after = &rest[at + 1..];
                    let end = after
                        .find('}')
                        .ok_or_else(|| error("a `{` is never closed".to_owned()))?;
                    let expression = &after[..end];
                    let (name, slashes) = match expression.strip_prefix('+') {
                        Some(name) => (name, true),
                        None => (expression, false),
                    };
                    let valid = !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
                    if !valid {
                        return Err(error(format!(
                            "`{{{expression}}}` is not a name this server reads: use `{{name}}` or `{{+name}}`, with letters, digits, `_` and `.`"
                        )));
                    }
                    if matches!(pieces.last(), Some(Piece::Name(..))) {
                        return Err(error(format!(
                            "`{{{expression}}}` follows another name with nothing between them"
                        )));
                    }
                    if pieces
                        .iter()
                        .any(|piece| matches!(piece, Piece::Name(known, _) if known == name))
                    {
                        return Err(error(format!("`{name}` is named twice")));
                    }
                    pieces.push(Piece::Name(name.to_owned(), slashes));
                    rest = &after[end + 1..];
                }
            }
        }
        Ok(Self {
            text: text.to_owned(),
            pieces,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether it names nothing: a plain URI.
    pub fn is_plain(&self) -> bool {
        !self
            .pieces
            .iter()
            .any(|piece| matches!(piece, Piece::Name(..)))
    }

    /// The names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|piece| match piece {
            Piece::Name(name, _) => Some(name.as_str()),
            Piece::Literal(_) => None,
        })
    }

    /// The value of each name, when `uri` fits the template: each literal
    /// where it is, each value not empty, and without `/` unless its
    /// name is `{+name}`. Values are percent-decoded.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut params = BTreeMap::new();
        let mut rest = uri;
        let mut pieces = self.pieces.iter().peekable();
        while let Some(piece) = pieces.next() {
            match piece {
                Piece::Literal(literal) => rest = rest.strip_prefix(literal.as_str())?,
                Piece::Name(name, slashes) => {
                    // The value runs to the next literal (its first
                    // place), or to the end.
                    let end = match pieces.peek() {
                        Some(Piece::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let value = &rest[..end];
                    if value.is_empty() || (!slashes && value.contains('/')) {
                        return None;
                    }
                    params.insert(name.clone(), percent_decoded(value)?);
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(params)
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `%2F` as `/`; none when an escape is cut short or the bytes are not
/// UTF-8.
fn percent_decoded(value: &str) -> Option<String> {
    if !value.contains('%') {
        return Some(value.to_owned());
    }
    let bytes = value.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_gives_each_names_value_and_refuses_what_does_not_fit() {
        let template = UriTemplate::parse("test://template/{id}/data").unwrap();
        assert_eq!(
            template.matches("test://template/123/data"),
            Some(BTreeMap::from([("id".to_owned(), "123".to_owned())]))
        );
        assert_eq!(template.matches("test://template//data"), None);
        assert_eq!(template.matches("test://template/1/2/data"), None);
        assert_eq!(template.matches("test://template/123/data/more"), None);
        let deep = UriTemplate::parse("docs://{+path}").unwrap();
        assert_eq!(
            deep.matches("docs://a/b%20c.md").unwrap()["path"],
            "a/b c.md"
        );
        assert!(UriTemplate::parse("test://static").unwrap().is_plain());
    }

    #[test]
    fn a_template_that_cannot_be_read_says_why() {
        let reason = |text: &str| UriTemplate::parse(text).unwrap_err().to_string();
        assert_eq!(
            reason("a://{id"),
            "URI template `a://{id`: a `{` is never closed"
        );
        assert_eq!(
            reason("a://id}"),
            "URI template `a://id}`: `}` at 6 closes nothing"
        );
        assert_eq!(
            reason("a://{?q}"),
            "URI template `a://{?q}`: `{?q}` is not a name this server reads: use `{name}` or `{+name}`, with letters, digits, `_` and `.`"
        );
        assert_eq!(
            reason("a://{x}{y}"),
            "URI template `a://{x}{y}`: `{y}` follows another name with nothing between them"
        );
        assert_eq!(
            reason("a://{x}/{x}"),
            "URI template `a://{x}/{x}`: `x` is named twice"
        );
    }
}
