//! A resource's URI template, read where it is written: the names it
//! holds, or why it cannot be read.
//!
//! The same rules, with the same reasons, as tool-core's
//! `UriTemplate::parse`, which reads the URI again when the resource is
//! added: a proc-macro crate cannot call into the runtime that depends on
//! it. `ui-tests/tests/fail/resource-bad-template.rs` and tool-core's
//! template tests pin both messages.

/// The names of the template `text` (`{name}`, `{+name}`), in order; an
/// empty list for a URI that names nothing. The error is
/// `UriTemplateError`'s text.
pub(crate) fn names(text: &str) -> Result<Vec<String>, String> {
    let error = |reason: String| format!("URI template `{text}`: {reason}");
    let mut names: Vec<String> = Vec::new();
    // Whether the last piece read was a name: two names need text between.
    let mut after_name = false;
    let mut rest = text;
    while !rest.is_empty() {
        let Some(at) = rest.find(['{', '}']) else {
            break;
        };
        if rest[at..].starts_with('}') {
            return Err(error(format!(
                "`}}` at {} closes nothing",
                text.len() - rest.len() + at
            )));
        }
        if at > 0 {
            after_name = false;
        }
        let after = &rest[at + 1..];
        let end = after
            .find('}')
            .ok_or_else(|| error("a `{` is never closed".to_owned()))?;
        let expression = &after[..end];
        let name = expression.strip_prefix('+').unwrap_or(expression);
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if !valid {
            return Err(error(format!(
                "`{{{expression}}}` is not a name this server reads: use `{{name}}` or `{{+name}}`, with letters, digits, `_` and `.`"
            )));
        }
        if after_name {
            return Err(error(format!(
                "`{{{expression}}}` follows another name with nothing between them"
            )));
        }
        if names.iter().any(|known| known == name) {
            return Err(error(format!("`{name}` is named twice")));
        }
        names.push(name.to_owned());
        after_name = true;
        rest = &after[end + 1..];
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_order_and_none_for_a_plain_uri() {
        assert_eq!(
            names("repo://{owner}/{+name}/readme"),
            Ok(vec!["owner".to_owned(), "name".to_owned()])
        );
        assert_eq!(names("test://static-text"), Ok(Vec::new()));
    }

    /// tool-core's `a_template_that_cannot_be_read_says_why`, word for word.
    #[test]
    fn a_template_that_cannot_be_read_says_why_as_tool_core_does() {
        let reason = |text: &str| names(text).unwrap_err();
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
