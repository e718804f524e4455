//! The tool-name rule every provider accepts.

/// Checks a tool name against `^[a-zA-Z0-9_-]{1,64}$`, the rule OpenAI and
/// Anthropic enforce (and the others accept); the reason on failure.
pub(crate) fn check_tool_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("it is empty")
    } else if name.len() > 64 {
        Err("it is longer than 64 characters")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        Err("it has a character other than an ASCII letter, digit, `_` or `-`")
    } else {
        Ok(())
    }
}
