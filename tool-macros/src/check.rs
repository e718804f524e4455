//! The rules that span the attribute and the item: a name providers accept,
//! a description, keys that fit the form they are used on.

use crate::attr::ToolArgs;
use crate::ctxt::Errors;
use proc_macro2::Span;

/// The checked name and description of a tool.
pub(crate) struct Identity {
    pub(crate) name: String,
    pub(crate) description: String,
}

/// Checks the name (`^[a-zA-Z0-9_-]{1,64}$`) and that there is a description;
/// `item_span` is where to point when the item itself is the problem.
pub(crate) fn identity(
    args: &ToolArgs,
    default_name: String,
    docs: Option<&str>,
    item_span: Span,
    errors: &mut Errors,
) -> Identity {
    let (name, name_span) = match &args.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (default_name, item_span),
    };
    if let Err(why) = check_name(&name) {
        errors.push(syn::Error::new(
            name_span,
            format!("invalid tool name `{name}`: {why}; providers accept 1 to 64 ASCII letters, digits, `_` and `-` (set one with `#[tool(name = \"...\")]`)"),
        ));
    }

    let (description, description_span) = match &args.description {
        Some(lit) => (lit.value(), lit.span()),
        None => (docs.unwrap_or_default().to_owned(), item_span),
    };
    if description.trim().is_empty() {
        errors.push(syn::Error::new(
            description_span,
            format!("tool `{name}` has no description; the model reads it to decide when to call the tool: add a `///` doc comment, or `#[tool(description = \"...\")]`"),
        ));
    }
    if let Some(title) = &args.title
        && title.value().trim().is_empty()
    {
        errors.spanned(title, "a tool's title cannot be empty");
    }
    if let (Some(read_only), Some(destructive)) = (&args.read_only, &args.destructive)
        && read_only.value
        && destructive.value
    {
        errors.push(syn::Error::new(
            destructive.span,
            "a `read_only` tool cannot be `destructive`: it changes nothing",
        ));
    }
    Identity { name, description }
}

/// Why `name` is not a name every provider accepts.
///
/// The same rule, with the same reasons, as tool-core's `check_tool_name`,
/// which refuses such names at registration: a proc-macro crate cannot call
/// into the runtime that depends on it. `ui-tests/tests/fail/bad-name.rs`
/// and `tests/typed_tools.rs` pin both messages.
pub(crate) fn check_name(name: &str) -> Result<(), &'static str> {
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
