//! JSON Pointers (RFC 6901), as violations name where arguments are wrong
//! and schema walks name where they are: a key escaped as a pointer's
//! step, and a step read back as its key.

/// Appends `/key` to a JSON Pointer, escaped as RFC 6901 says.
pub(crate) fn push_key(pointer: &mut String, key: &str) {
    pointer.push('/');
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// A JSON Pointer's step as the key it stands for: [`push_key`]'s escapes
/// undone.
pub(crate) fn unescape_key(step: &str) -> std::borrow::Cow<'_, str> {
    if step.contains('~') {
        step.replace("~1", "/").replace("~0", "~").into()
    } else {
        step.into()
    }
}
