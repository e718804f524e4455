//! The attributes `#[derive(Elicit)]` reads: its own `#[elicit(...)]`, and
//! the few `#[serde(...)]` and `#[schemars(...)]` keys that change what a
//! person is asked. Every other serde and schemars key is passed over:
//! those derives read and check their own attributes, so a key this
//! module cannot parse is theirs to report, not this one's.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, LitStr, Path, Type};

use crate::attr::crate_path;
use crate::ctxt::Errors;

/// Every key `#[elicit(...)]` accepts.
const KEYS: &[&str] = &["crate"];

/// What the attributes on the struct or enum say.
#[derive(Default)]
pub(crate) struct Container {
    /// `#[elicit(crate = path)]`: where tool-core is reached.
    pub(crate) krate: Option<Path>,
    /// `#[serde(tag = ...)]`, `#[serde(content = ...)]` or
    /// `#[serde(untagged)]`: how serde writes an enum other than by its
    /// variant's name, as the attribute reads, at its key.
    pub(crate) not_by_name: Vec<(String, Span)>,
}

/// What the attributes on a field or a variant say.
#[derive(Default)]
pub(crate) struct Member {
    /// `#[serde(skip)]`, `skip_deserializing` or `#[schemars(skip)]`: not
    /// asked.
    pub(crate) skipped: bool,
    /// `#[serde(flatten)]`: a question of its own, whose fields are
    /// asked as this one's.
    pub(crate) flatten: bool,
    /// `#[schemars(with = "T")]`: asked as a `T`, at the string's span.
    pub(crate) with: Option<Type>,
    /// `#[schemars(schema_with = "f")]`: a schema no type says, so only
    /// the run-time conversion can check it.
    pub(crate) schema_with: bool,
    /// `#[serde(untagged)]` on a variant, at its key.
    pub(crate) untagged: Option<Span>,
}

/// Reads the struct's or enum's attributes.
pub(crate) fn container(attrs: &[Attribute], errors: &mut Errors) -> Container {
    let mut out = Container::default();
    for attr in attrs {
        if attr.path().is_ident("elicit") {
            let parsed = attr.parse_nested_meta(|meta| elicit_key(&mut out, &meta, errors));
            if let Err(error) = parsed {
                errors.push(error);
            }
        } else if attr.path().is_ident("serde") {
            // Unparsable serde is serde's to report.
            let _ = attr.parse_nested_meta(|meta| {
                let key = meta.path.get_ident().map(ToString::to_string);
                match key.as_deref() {
                    // tag = "kind"
                    Some(key @ ("tag" | "content")) => {
                        out.not_by_name
                            .push((format!("#[serde({key} = ...)]"), meta.path.span()));
                    }
                    // untagged
                    Some("untagged") => {
                        out.not_by_name
                            .push(("#[serde(untagged)]".into(), meta.path.span()));
                    }
                    _ => {}
                }
                skip(&meta)
            });
        }
    }
    out
}

/// One key of `#[elicit(...)]`.
fn elicit_key(
    out: &mut Container,
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<()> {
    if meta.path.is_ident("crate") {
        // crate = tool_core   or   crate = "tool_core"
        let path = crate_path(meta)?;
        if out.krate.is_some() {
            errors.spanned(&meta.path, "duplicate `#[elicit]` argument `crate`");
        } else {
            out.krate = Some(path);
        }
        return Ok(());
    }
    // nmae = ...   (anything else)
    let expected: Vec<String> = KEYS.iter().map(|k| format!("`{k}`")).collect();
    errors.spanned(
        &meta.path,
        format!(
            "unknown `#[elicit]` argument `{}`; expected one of: {}",
            path_text(&meta.path),
            expected.join(", ")
        ),
    );
    skip(meta)
}

/// Reads a field's or a variant's attributes.
pub(crate) fn member(attrs: &[Attribute], errors: &mut Errors) -> Member {
    let mut out = Member::default();
    for attr in attrs {
        let serde = attr.path().is_ident("serde");
        if !serde && !attr.path().is_ident("schemars") {
            continue;
        }
        // Unparsable serde or schemars is theirs to report.
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string);
            match (serde, key.as_deref()) {
                // #[serde(skip)], #[serde(skip_deserializing)], #[schemars(skip)]
                (true, Some("skip" | "skip_deserializing")) | (false, Some("skip")) => {
                    out.skipped = true;
                }
                // #[serde(flatten)]
                (true, Some("flatten")) => out.flatten = true,
                // #[serde(untagged)], on a variant
                (true, Some("untagged")) => out.untagged = Some(meta.path.span()),
                // #[schemars(with = "Type")]
                (false, Some("with")) => {
                    let lit: LitStr = meta.value()?.parse()?;
                    match lit.parse::<Type>() {
                        Ok(ty) => out.with = Some(ty),
                        Err(error) => errors.push(error),
                    }
                    return Ok(());
                }
                // #[schemars(schema_with = "path::to::fn")]
                (false, Some("schema_with")) => out.schema_with = true,
                _ => {}
            }
            skip(&meta)
        });
    }
    out
}

/// Consumes what follows a key this module does not read: `= value`, or
/// `(...)` as tokens (schemars' `extend("format" = "date")` is no nested
/// meta), so that the keys after it are still read.
fn skip(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Ok(())
}

fn path_text(path: &Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    segments.join("::")
}

#[cfg(test)]
mod tests {
    use proc_macro2::TokenStream;
    use quote::quote;

    use super::*;

    fn elicit_attr(tokens: TokenStream) -> Attribute {
        syn::parse_quote!(#[elicit(#tokens)])
    }

    #[test]
    fn reads_the_keys_that_change_what_is_asked_and_passes_over_the_rest() {
        let mut errors = Errors::default();
        let attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[serde(rename = "x", skip_deserializing, default = "f")]),
            syn::parse_quote!(#[schemars(extend("format" = "date"), with = "u8", schema_with = "g")]),
            syn::parse_quote!(#[serde(flatten)]),
            syn::parse_quote!(#[doc = "not read"]),
        ];
        let member = member(&attrs, &mut errors);
        assert!(member.skipped && member.flatten && member.schema_with);
        assert_eq!(
            member.with.map(|ty| quote!(#ty).to_string()),
            Some("u8".to_owned())
        );
        let container = container(
            &[
                syn::parse_quote!(#[serde(rename_all = "snake_case", tag = "kind")]),
                syn::parse_quote!(#[serde(untagged)]),
                elicit_attr(quote!(crate = "my_core")),
            ],
            &mut errors,
        );
        let keys: Vec<&str> = container
            .not_by_name
            .iter()
            .map(|(key, _)| key.as_str())
            .collect();
        assert_eq!(keys, ["#[serde(tag = ...)]", "#[serde(untagged)]"]);
        assert!(container.krate.is_some_and(|path| path.is_ident("my_core")));
        assert!(errors.finish().is_ok());
    }

    #[test]
    fn an_unknown_or_repeated_elicit_key_is_reported_and_the_rest_read() {
        let mut errors = Errors::default();
        let container = container(
            &[elicit_attr(quote!(krate = x, crate = a, crate = b))],
            &mut errors,
        );
        assert!(container.krate.is_some_and(|path| path.is_ident("a")));
        let messages: Vec<String> = match errors.finish() {
            Ok(()) => panic!("expected errors"),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        };
        assert_eq!(
            messages,
            [
                "unknown `#[elicit]` argument `krate`; expected one of: `crate`",
                "duplicate `#[elicit]` argument `crate`",
            ]
        );
    }
}
