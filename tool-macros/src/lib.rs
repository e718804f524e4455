//! The `#[tool]`, `#[resource]` and `#[prompt]` attribute macros of
//! [tool-core](https://docs.rs/tool-core).
//!
//! Use them through `tool_core`; the documentation is there. This crate
//! is split the way serde_derive and thiserror are, one stage per module,
//! each depending only on the stages before it:
//!
//! - `entry` runs the stages below in order;
//! - parse: `attr` reads the `#[tool(...)]` arguments, `docs` the doc
//!   comments;
//! - IR: `ast` reads the item, keeping the user's tokens;
//! - check: `check` holds every rule that can fail;
//! - codegen: `codegen` generates the tool, `codegen::function` and
//!   `codegen::structure` each form, `codegen::validate` the call of the
//!   tool's own check;
//! - fallback: `fallback` emits the item and the errors when there are any.
//!
//! `ctxt` collects the errors of every stage, `case` converts names.
//!
//! `#[resource]` and `#[prompt]` (re-exported as `tool_core::resource`
//! and `tool_core::prompt`) have the same stages in the `served` folder,
//! reading the function with `ast` and checking its context with `check`.
//!
//! `#[derive(Elicit)]` (re-exported as `tool_core::elicit::Elicit`) has the
//! same stages in the `elicit` folder, sharing `ctxt` and `codegen`'s
//! attributes for generated code.

mod ast;
mod attr;
mod case;
mod check;
mod codegen;
mod ctxt;
mod docs;
mod elicit;
mod entry;
mod fallback;
mod served;
#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// tool-core re-exports this attribute as `tool_core::tool`; use it from
/// there.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    entry::tool(args.into(), input.into()).into()
}

/// tool-core re-exports this attribute as `tool_core::resource`; use it
/// from there.
#[proc_macro_attribute]
pub fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    served::expand(served::Kind::Resource, args.into(), input.into()).into()
}

/// tool-core re-exports this attribute as `tool_core::prompt`; use it from
/// there.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    served::expand(served::Kind::Prompt, args.into(), input.into()).into()
}

/// tool-core re-exports this derive as `tool_core::elicit::Elicit`; use it
/// from there.
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    elicit::derive(input.into()).into()
}

/// Accepts `#[schemars(...)]` attributes and generates nothing: used by
/// tool-core, with its `schemars` feature off, so that the one error it
/// raises is not followed by one per attribute.
#[doc(hidden)]
#[proc_macro_derive(SchemarsInert, attributes(schemars))]
pub fn schemars_inert(_: TokenStream) -> TokenStream {
    TokenStream::new()
}
