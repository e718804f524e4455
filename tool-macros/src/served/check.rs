//! The rules `#[resource]` and `#[prompt]` share: the shape of the
//! function, its context (as `#[tool]` takes it: `check::context_type`,
//! `check::one_context`), its parameters' names and attributes, its name
//! and description. Each error points at the user's tokens that break the
//! rule, in the order the rules run: the function's shape, each parameter
//! in turn, then its name.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::{Attribute, Item, LitStr};

use super::Named;
use super::attr::{Kind, ServedArgs};
use crate::ast::{Arg, Param, ToolFn};
use crate::attr::skip_value;
use crate::check::{Identity, context_type, item_keyword, one_context};
use crate::ctxt::Errors;
use crate::docs::{doc_text_of, is_doc};

/// The error for an item that is not a function, at the keyword that
/// says what it is.
pub(crate) fn unsupported_item(kind: Kind, item: &Item) -> syn::Error {
    syn::Error::new_spanned(
        item_keyword(item),
        format!("`{}` goes on a function", kind.attribute()),
    )
}

/// Checks the function and the arguments both attributes take; gives its
/// name and description and its parameters by their names.
pub(crate) fn function<'a>(
    kind: Kind,
    function: &'a ToolFn,
    args: &ServedArgs,
    errors: &mut Errors,
) -> (Identity, Vec<Named<'a>>) {
    let what = kind.attribute();
    let sig = &function.item.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.spanned(
            &sig.generics,
            format!(
                "a `{what}` function cannot be generic: each of its values is read from text into one concrete type"
            ),
        );
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.spanned(
            token,
            format!(
                "a `{what}` function cannot be `unsafe`: nothing could uphold its contract when a client reads it"
            ),
        );
    }
    let mut named = Vec::new();
    let mut first_context: Option<Span> = None;
    for arg in &function.args {
        match arg {
            Arg::Receiver(receiver) => errors.spanned(
                receiver,
                format!("a `{what}` function cannot take `self`; put `{what}` on a free function"),
            ),
            Arg::Context(context) => {
                context_type(context, errors);
                if let Some(attr) = context.attrs.first() {
                    errors.spanned(
                        attr,
                        format!("the context parameter is none of the values a `{what}` function is given, so it takes no doc comment or `#[serde]`"),
                    );
                }
                one_context(context, &mut first_context, what, errors);
            }
            Arg::Param(param) => {
                if let Some(param) = parameter(kind, param, errors) {
                    named.push(param);
                }
            }
        }
    }
    for (index, param) in named.iter().enumerate() {
        if named[..index].iter().any(|other| other.name == param.name) {
            errors.push(syn::Error::new(
                param.span,
                format!("two parameters are named `{}`", param.name),
            ));
        }
    }
    (identity(kind, function, args, errors), named)
}

/// A parameter by its name: a plain name, with a doc comment and
/// `#[serde(rename = "...")]` at most.
fn parameter<'a>(kind: Kind, param: &'a Param, errors: &mut Errors) -> Option<Named<'a>> {
    let what = kind.attribute();
    let rename = rename(kind, &param.attrs, errors);
    let description = doc_text_of(&param.attrs, what, errors);
    let Some(ident) = param.ident() else {
        let role = match kind {
            Kind::Resource => "the name of the template's value it takes",
            Kind::Prompt => "the name of the argument",
        };
        errors.spanned(
            &param.pat,
            format!("a `{what}` parameter must be a plain name, not a pattern: the name is {role}"),
        );
        return None;
    };
    let (name, span) = match rename {
        Some(lit) => (lit.value(), lit.span()),
        None => (ident.unraw().to_string(), ident.span()),
    };
    Some(Named {
        ident,
        ty: &param.ty,
        name,
        span,
        description,
    })
}

/// The `#[serde(rename = "...")]` among a parameter's attributes: the one
/// key that means something for a value read from text.
fn rename(kind: Kind, attrs: &[Attribute], errors: &mut Errors) -> Option<LitStr> {
    let what = kind.attribute();
    let mut rename = None;
    for attr in attrs.iter().filter(|attr| !is_doc(attr)) {
        if !attr.path().is_ident("serde") {
            errors.spanned(
                attr,
                format!("a `{what}` parameter takes no `#[schemars]`: its value is text, read with `FromStr`, and has no schema"),
            );
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("rename") {
                errors.spanned(
                    &meta.path,
                    format!("a `{what}` parameter takes only `#[serde(rename = \"...\")]`: its value is read from text with `FromStr`, not deserialized"),
                );
                return skip_value(&meta);
            }
            let lit: LitStr = meta.value()?.parse()?;
            if rename.is_some() {
                errors.spanned(&meta.path, "the parameter is renamed twice");
            } else if lit.value().is_empty() {
                errors.spanned(&lit, "a parameter's name cannot be empty");
            } else {
                rename = Some(lit);
            }
            Ok(())
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
    rename
}

/// The name (the function's, unless `name = "..."`), which cannot be
/// empty, and the description (`description = "..."`, else the doc
/// comments, else none).
fn identity(kind: Kind, function: &ToolFn, args: &ServedArgs, errors: &mut Errors) -> Identity {
    let name = match &args.name {
        Some(lit) => {
            if lit.value().trim().is_empty() {
                let what = match kind {
                    Kind::Resource => "a resource's",
                    Kind::Prompt => "a prompt's",
                };
                errors.spanned(lit, format!("{what} name cannot be empty"));
            }
            lit.value()
        }
        None => function.default_name(),
    };
    let description = match &args.description {
        Some(lit) => lit.value(),
        None => function.docs.clone().unwrap_or_default(),
    };
    Identity { name, description }
}
