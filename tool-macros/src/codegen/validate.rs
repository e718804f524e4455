//! What the function named by `validate` is called with, in both forms:
//! every parameter (a struct's `&Self`) for `validate = check`, or the
//! ones named for `validate = check(a, b, ctx)`, each spanned at the name
//! the user wrote so that a type `check` does not take is reported there,
//! in the user's types. `check` has made sure every name is known.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;

use crate::ast::ToolFn;
use crate::attr::{ToolArgs, Validate};

/// What the function named by `validate` is called with, each by
/// reference: every parameter in order (not the context) for
/// `validate = check`; the ones named, in that order, for
/// `validate = check(start, end, ctx)`, the context's name giving the
/// `&ToolContext<C>`. `binding` is where a parameter's value is. Each
/// is spanned at the name the user wrote, so that a type `check` does
/// not take is reported there, in the user's types.
pub(crate) fn function_args(
    tool: &ToolFn,
    validate: &Validate,
    ctx: &Ident,
    binding: impl Fn(&Ident) -> TokenStream,
) -> Vec<TokenStream> {
    let Some(names) = &validate.names else {
        let span = validate.path.span();
        return tool
            .named_params()
            .map(|(ident, _)| {
                let mut ident = ident.clone();
                ident.set_span(span);
                let value = binding(&ident);
                quote_spanned!(span=> &#value)
            })
            .collect();
    };
    // `check` has made sure each name is a parameter's or the
    // context's.
    names
        .iter()
        .filter_map(|name| {
            let text = name.unraw().to_string();
            let span = name.span();
            let is_context = tool
                .contexts()
                .any(|context| context.name.as_ref().is_some_and(|n| n.unraw() == text));
            if is_context {
                let ctx = Ident::new(&ctx.to_string(), Span::mixed_site().located_at(span));
                return Some(quote_spanned!(span=> &*#ctx));
            }
            let (ident, _) = tool
                .named_params()
                .find(|(ident, _)| ident.unraw() == text)?;
            let mut ident = ident.clone();
            ident.set_span(span);
            let value = binding(&ident);
            Some(quote_spanned!(span=> &#value))
        })
        .collect()
}

/// What the function named by `validate` is called with: the struct read
/// (`&Self`) for `validate = check`; for `validate = check(self, start,
/// ctx)`, the ones named in that order, by reference: `self` the struct, a
/// field's name the field, `ctx` the context (with `context = ...`). Each
/// is spanned at the name the user wrote.
pub(crate) fn struct_args(
    validate: &Validate,
    args: &ToolArgs,
    read: &Ident,
    ctx: &Ident,
) -> Vec<TokenStream> {
    let Some(names) = &validate.names else {
        return vec![quote!(#read)];
    };
    names
        .iter()
        .map(|name| {
            let span = name.span();
            if name == "self" {
                let read = Ident::new(&read.to_string(), Span::mixed_site().located_at(span));
                quote_spanned!(span=> #read)
            } else if name == "ctx" && args.context.is_some() {
                let ctx = Ident::new(&ctx.to_string(), Span::mixed_site().located_at(span));
                quote_spanned!(span=> &*#ctx)
            } else {
                quote_spanned!(span=> &#read.#name)
            }
        })
        .collect()
}
