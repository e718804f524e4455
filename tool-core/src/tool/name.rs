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

/// A tool's name as a registry keeps it: a `#[tool]`'s own, `'static`, or
/// one made at run time (a prefix, a rename, a hand-written or mounted
/// tool's), shared. Every call whose context can see it holds one: the
/// first is copied, the second counted (an atomic operation each way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    Static(&'static str),
    Shared(std::sync::Arc<str>),
}

impl std::ops::Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Name::Static(name) => name,
            Name::Shared(name) => name,
        }
    }
}

impl From<std::borrow::Cow<'static, str>> for Name {
    fn from(name: std::borrow::Cow<'static, str>) -> Self {
        match name {
            std::borrow::Cow::Borrowed(name) => Name::Static(name),
            std::borrow::Cow::Owned(name) => Name::Shared(name.into()),
        }
    }
}

impl From<&'static str> for Name {
    fn from(name: &'static str) -> Self {
        Name::Static(name)
    }
}

impl From<String> for Name {
    fn from(name: String) -> Self {
        Name::Shared(name.into())
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}
