//! The impls `#[derive(Elicit)]` generates, in a `const _: () = { ... }`
//! and through `#krate::__private` only, as `#[tool]`'s are.
//!
//! A question:
//!
//! ```text
//! // Input:
//! #[derive(Deserialize, JsonSchema, Elicit)]
//! struct Booking { room: Room, #[serde(flatten)] stay: Stay, #[serde(skip)] seen: bool }
//!
//! // Output:
//! const _: () = {
//!     impl p::Elicit for Booking {
//!         fn __requested_schema() -> p::Result<p::Arc<p::Value>, p::ElicitError> {
//!             p::elicit_requested_schema::<Self>()
//!         }
//!     }
//!     // Never called: each bound is checked at the field's type, whose
//!     // span it carries, so a field that cannot be asked fails there.
//!     fn __elicit_fields() {
//!         p::elicit_field::<Room>();
//!         p::elicit_flattened::<Stay>();
//!     }
//! };
//! ```
//!
//! A choice (an enum of unit variants) implements `ElicitChoice` and
//! `ElicitValue` (and so `ElicitField`, of itself and in an `Option`); a
//! newtype implements `ElicitValue`, with its one field checked as a
//! question's are.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Path;
use syn::spanned::Spanned as _;

use super::{Field, Item, Shape};
use crate::codegen::generated_attrs;

/// The impls of an item that passed `check`.
pub(crate) fn impls(item: &Item<'_>) -> TokenStream {
    let p = private(item);
    let name = &item.input.ident;
    let body = match &item.shape {
        Shape::Question(fields) => {
            let checks = fields.iter().filter_map(|field| field_check(&p, field));
            quote! {
                #[automatically_derived]
                impl #p::Elicit for #name {
                    fn __requested_schema() -> #p::Result<#p::Arc<#p::Value>, #p::ElicitError> {
                        #p::elicit_requested_schema::<Self>()
                    }
                }
                #[allow(dead_code)]
                fn __elicit_fields() {
                    #(#checks)*
                }
            }
        }
        Shape::Newtype(field) => {
            let check = field_check(&p, field);
            quote! {
                #[automatically_derived]
                impl #p::ElicitValue for #name {}
                #[allow(dead_code)]
                fn __elicit_fields() {
                    #check
                }
            }
        }
        Shape::Choice(_) => choice(&p, item),
        // `check` refuses these.
        Shape::Unnamed(_) | Shape::Union => TokenStream::new(),
    };
    wrap(item, body)
}

/// The errors, and the impls other code relies on where the item's shape
/// says which: so that a question or choice with a bad attribute raises
/// that error, not one more at each use. None for a generic item, whose
/// impls could not be written, or one that is no question or choice.
pub(crate) fn fallback(item: &Item<'_>, error: syn::Error) -> TokenStream {
    let error = error.to_compile_error();
    if !item.input.generics.params.is_empty() {
        return error;
    }
    let p = private(item);
    let name = &item.input.ident;
    let body = match &item.shape {
        Shape::Question(_) => quote! {
            #[automatically_derived]
            impl #p::Elicit for #name {
                fn __requested_schema() -> #p::Result<#p::Arc<#p::Value>, #p::ElicitError> {
                    #p::elicit_fallback()
                }
            }
        },
        Shape::Newtype(_) => quote! {
            #[automatically_derived]
            impl #p::ElicitValue for #name {}
        },
        Shape::Choice(_) => choice(&p, item),
        Shape::Unnamed(_) | Shape::Union => TokenStream::new(),
    };
    let impls = wrap(item, body);
    quote! {
        #impls
        #error
    }
}

/// `#krate::__private`.
fn private(item: &Item<'_>) -> TokenStream {
    let krate: Path = item
        .attrs
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::tool_core));
    quote!(#krate::__private)
}

/// A choice's impls: a marker each, nothing to check (its variants are
/// `check`'s).
fn choice(p: &TokenStream, item: &Item<'_>) -> TokenStream {
    let name = &item.input.ident;
    quote! {
        #[automatically_derived]
        impl #p::ElicitChoice for #name {}
        #[automatically_derived]
        impl #p::ElicitValue for #name {}
    }
}

/// The bound on one field's type, at that type: `ElicitField`, or
/// `Elicit` for a flattened field, whose fields are asked as the
/// question's own. None for a field that is not asked, or whose schema
/// comes from a function (`schema_with`), which only the conversion at run
/// time can check.
fn field_check(p: &TokenStream, field: &Field<'_>) -> Option<TokenStream> {
    if field.attrs.skipped || field.attrs.schema_with {
        return None;
    }
    let ty = field.asked_type();
    let check = if field.attrs.flatten {
        quote!(elicit_flattened)
    } else {
        quote!(elicit_field)
    };
    Some(quote_spanned! {ty.span()=> #p::#check::<#ty>();})
}

/// `const _: () = { ... }` around generated items, with the attributes
/// `#[tool]` puts on its own.
fn wrap(item: &Item<'_>, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return body;
    }
    let attrs = generated_attrs(&item.input.attrs);
    quote! {
        #attrs
        const _: () = {
            #body
        };
    }
}
