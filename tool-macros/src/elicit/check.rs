//! Every rule `#[derive(Elicit)]` itself enforces, each error on the
//! user's tokens. Whether a field's type can be asked is not here: that is
//! the trait bound `expand` writes at the type, which rustc checks with the
//! type in hand.

use quote::ToTokens;
use syn::spanned::Spanned as _;
use syn::{Data, Fields};

use super::{Item, Shape};
use crate::ctxt::Errors;

/// Checks the item, recording every broken rule in `errors`.
pub(crate) fn item(item: &Item<'_>, errors: &mut Errors) {
    let input = item.input;
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        errors.spanned(
            &input.generics,
            "`#[derive(Elicit)]` takes no generic parameters",
        );
    }
    match &item.shape {
        Shape::Question(_) | Shape::Newtype(_) => {}
        Shape::Unnamed(fields) => {
            // The fields, or the name of a unit struct, which has none.
            let at: &dyn ToTokens = match fields {
                Fields::Unit => name,
                other => other,
            };
            errors.spanned(
                at,
                "`#[derive(Elicit)]` needs a struct with named fields: the person is asked for an object whose properties are the fields",
            );
        }
        Shape::Union => {
            let at = match &input.data {
                Data::Union(data) => data.union_token.span(),
                _ => name.span(),
            };
            errors.push(syn::Error::new(
                at,
                "`#[derive(Elicit)]` needs a struct with named fields, or an enum of unit variants; not a union",
            ));
        }
        Shape::Choice(variants) => {
            for (key, span) in &item.attrs.not_by_name {
                errors.push(syn::Error::new(
                    *span,
                    format!(
                        "`{key}` changes how `{name}` is written: a choice is written as its variant's name"
                    ),
                ));
            }
            if variants.is_empty() {
                errors.spanned(
                    name,
                    format!(
                        "`{name}` has no variants: a choice asked of a person offers at least one"
                    ),
                );
            }
            for variant in variants {
                let original = variant.original;
                let ident = &original.ident;
                if let Some(span) = variant.attrs.untagged {
                    errors.push(syn::Error::new(
                        span,
                        format!("`#[serde(untagged)]` changes how `{ident}` is written: a choice is written as its variant's name"),
                    ));
                }
                // A variant never read from an answer may carry anything.
                if !matches!(original.fields, Fields::Unit) && !variant.attrs.skipped {
                    errors.spanned(
                        &original.fields,
                        format!("variant `{ident}` carries data: a choice asked of a person is an enum of unit variants"),
                    );
                }
            }
        }
    }
}
