//! The `#[tool]` attribute macro of [tool-core](https://docs.rs/tool-core).
//!
//! Use it through `tool_core::tool`; the documentation is there. This crate
//! is split the way serde_derive and thiserror are: `attr` parses the
//! arguments, `ast` reads the item into an IR that keeps the user's tokens,
//! `check` applies the rules that span both, `expand_fn` and `expand_struct`
//! generate code, and `fallback` emits the item and the errors when there
//! are any.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod docs;
mod expand;
mod expand_fn;
mod expand_struct;
mod fallback;
#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// tool-core re-exports this attribute as `tool_core::tool`; use it from
/// there.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::tool(args.into(), input.into()).into()
}

/// Accepts `#[schemars(...)]` attributes and generates nothing: used by
/// tool-core, with its `schemars` feature off, so that the one error it
/// raises is not followed by one per attribute.
#[doc(hidden)]
#[proc_macro_derive(SchemarsInert, attributes(schemars))]
pub fn schemars_inert(_: TokenStream) -> TokenStream {
    TokenStream::new()
}
