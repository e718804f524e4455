//! The arguments of `#[resource(...)]` and `#[prompt(...)]`, read by hand
//! with `parse_nested_meta` as `#[tool(...)]`'s are: an unknown key, a key
//! given twice and a value of the wrong kind are recorded and parsing
//! goes on, so the user sees every bad argument at once.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{Expr, LitStr, Path};

use crate::attr::{crate_path, path_text, skip_value};
use crate::ctxt::Errors;

/// Which of the two attributes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Resource,
    Prompt,
}

impl Kind {
    /// The attribute as a user writes it, for messages: `#[resource]`.
    pub(crate) fn attribute(self) -> &'static str {
        match self {
            Kind::Resource => "#[resource]",
            Kind::Prompt => "#[prompt]",
        }
    }

    /// Every key the attribute accepts, in the order its docs list them.
    pub(crate) fn keys(self) -> &'static [&'static str] {
        match self {
            Kind::Resource => &[
                "uri",
                "name",
                "description",
                "mime_type",
                "complete",
                "crate",
            ],
            Kind::Prompt => &["name", "description", "complete", "crate"],
        }
    }
}

/// The parsed arguments; `None` where the user said nothing.
#[derive(Default)]
pub(crate) struct ServedArgs {
    /// `uri = "test://template/{id}/data"`: a resource's URI or template.
    pub(crate) uri: Option<LitStr>,
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    /// `mime_type = "text/plain"`: a resource's media type.
    pub(crate) mime_type: Option<LitStr>,
    /// `complete = complete_ids`: the function that completes a
    /// template's names or a prompt's arguments.
    pub(crate) complete: Option<Path>,
    pub(crate) krate: Option<Path>,
}

/// Parses the arguments of `kind`, recording every problem in `errors`
/// and going on past it.
pub(crate) fn parse(kind: Kind, args: TokenStream, errors: &mut Errors) -> ServedArgs {
    let mut out = ServedArgs::default();
    let parser = syn::meta::parser(|meta| parse_one(kind, &mut out, &meta, errors));
    if let Err(error) = parser.parse2(args) {
        errors.push(error);
    }
    out
}

/// One `key = value`. A value that is not even the right kind of tokens
/// is a parse error, which ends the parsing (`?`).
fn parse_one(
    kind: Kind,
    out: &mut ServedArgs,
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<()> {
    let key = path_text(&meta.path);
    if meta.path.get_ident().is_none() || !kind.keys().contains(&key.as_str()) {
        // nmae = ...   (anything else, or a key of the other attribute)
        let expected: Vec<String> = kind.keys().iter().map(|k| format!("`{k}`")).collect();
        errors.spanned(
            &meta.path,
            format!(
                "unknown `{}` argument `{key}`; expected one of: {}",
                kind.attribute(),
                expected.join(", ")
            ),
        );
        return skip_value(meta);
    }
    let attribute = kind.attribute();
    match key.as_str() {
        // uri = "test://template/{id}/data"
        "uri" => set(&mut out.uri, meta.value()?.parse()?, attribute, meta, errors),
        // name = "static-text"
        "name" => set(&mut out.name, meta.value()?.parse()?, attribute, meta, errors),
        // description = "The data of an id."
        "description" => set(&mut out.description, meta.value()?.parse()?, attribute, meta, errors),
        // mime_type = "application/json"
        "mime_type" => set(&mut out.mime_type, meta.value()?.parse()?, attribute, meta, errors),
        // complete = complete_ids
        "complete" => match meta.value()?.parse()? {
            Expr::Path(path) if path.qself.is_none() => {
                set(&mut out.complete, path.path, attribute, meta, errors);
            }
            other => errors.spanned(
                other,
                "expected the function that completes a value, by its path: `complete = complete_ids`, a `fn(&str, &str) -> Vec<String>` given the name and what is typed so far",
            ),
        },
        // crate = tool_core   or   crate = "tool_core"
        _ => set(&mut out.krate, crate_path(meta)?, attribute, meta, errors),
    }
    Ok(())
}

/// Stores a key's value, or reports that the key came twice.
fn set<T>(
    slot: &mut Option<T>,
    value: T,
    attribute: &str,
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) {
    if slot.is_some() {
        let key = path_text(&meta.path);
        errors.spanned(
            &meta.path,
            format!("duplicate `{attribute}` argument `{key}`"),
        );
    } else {
        *slot = Some(value);
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    fn messages(kind: Kind, tokens: TokenStream) -> Vec<String> {
        let mut errors = Errors::default();
        parse(kind, tokens, &mut errors);
        match errors.finish() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn every_key_of_a_resource() {
        let mut errors = Errors::default();
        let args = parse(
            Kind::Resource,
            quote!(
                uri = "a://{x}",
                name = "n",
                description = "d",
                mime_type = "text/plain",
                complete = ids,
                crate = my_core
            ),
            &mut errors,
        );
        assert!(errors.finish().is_ok());
        assert_eq!(args.uri.map(|uri| uri.value()).as_deref(), Some("a://{x}"));
        assert!(args.complete.is_some() && args.krate.is_some() && args.mime_type.is_some());
    }

    #[test]
    fn a_prompt_reports_every_bad_key_at_once() {
        let messages = messages(
            Kind::Prompt,
            quote!(
                uri = "a://b",
                name = "x",
                name = "y",
                complete = |a, b| vec![]
            ),
        );
        assert_eq!(
            messages,
            [
                "unknown `#[prompt]` argument `uri`; expected one of: `name`, `description`, `complete`, `crate`",
                "duplicate `#[prompt]` argument `name`",
                "expected the function that completes a value, by its path: `complete = complete_ids`, a `fn(&str, &str) -> Vec<String>` given the name and what is typed so far",
            ]
        );
    }
}
