//! `#[resource]` and `#[prompt]`: what a server offers besides tools,
//! written on ordinary functions as tools are. The same stages as
//! `#[tool]`'s, sharing its IR, doc comments and checks of the context
//! parameter:
//!
//! - parse: `attr` reads the arguments of either attribute, `template` a
//!   resource's URI template;
//! - IR: `ast::ToolFn`, the function as `#[tool]` reads it, and [`Named`]
//!   below: a parameter with the name the client knows it by;
//! - check: `check` holds the rules both attributes share, `resource` and
//!   `prompt` each its own;
//! - codegen: `resource` and `prompt`, each the impl of tool-core's trait
//!   (`Resource`, `Prompt`) for a unit struct named after the function;
//! - fallback: [`fallback`] below emits the function, the struct and the
//!   errors.

mod attr;
mod check;
mod prompt;
mod resource;
mod template;
#[cfg(test)]
mod tests;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::ext::IdentExt as _;
use syn::{Ident, Item, Type};

use crate::ast::ToolFn;
use crate::codegen::{crate_or_default, lint_allowances, tool_struct};
use crate::ctxt::Errors;

pub(crate) use attr::Kind;
use attr::ServedArgs;

/// A parameter other than the context: what the client gives a value for,
/// by the name it knows it by.
pub(crate) struct Named<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    /// The name: the parameter's, or its `#[serde(rename = "...")]`.
    pub(crate) name: String,
    /// Where to point at it: the rename's string, or the parameter's name.
    pub(crate) span: Span,
    /// Its doc comments.
    pub(crate) description: Option<String>,
}

/// `#[resource(args)] item` or `#[prompt(args)] item` -> the function,
/// its type, and every error found.
///
/// With `TOOL_MACROS_DEBUG` set, prints each expansion to stderr, as
/// `#[tool]` does.
pub(crate) fn expand(kind: Kind, args: TokenStream, input: TokenStream) -> TokenStream {
    let output = expand_item(kind, args, input);
    if std::env::var_os("TOOL_MACROS_DEBUG").is_some() {
        eprintln!("{output}");
    }
    output
}

fn expand_item(kind: Kind, args: TokenStream, input: TokenStream) -> TokenStream {
    let item = match syn::parse2::<Item>(input.clone()) {
        Ok(Item::Fn(item)) => item,
        Ok(other) => {
            let error = check::unsupported_item(kind, &other).to_compile_error();
            return quote!(#other #error);
        }
        // Not an item rustc would accept either; let rustc say so.
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#input #error);
        }
    };
    let mut errors = Errors::default();
    let args = attr::parse(kind, args, &mut errors);
    let function = ToolFn::read(item, kind.attribute(), &mut errors);
    let (identity, named) = check::function(kind, &function, &args, &mut errors);
    let names = match kind {
        Kind::Resource => resource::check(&function, &args, &named, &mut errors),
        Kind::Prompt => {
            prompt::check(&args, &named, &identity, &mut errors);
            Vec::new()
        }
    };
    match errors.finish() {
        Ok(()) => match kind {
            Kind::Resource => resource::expand(&function, &args, &identity, &named, &names),
            Kind::Prompt => prompt::expand(&function, &args, &identity, &named),
        },
        Err(error) => fallback(kind, &function, &args, error),
    }
}

/// What is emitted when the input has errors: the function as written
/// (less the parameters' doc comments and `#[serde]`, which rustc refuses
/// there), its type with an impl of the trait for every context that is
/// never run, and the errors. So rustc reports the errors and nothing that
/// follows from them: adding the resource or prompt still type-checks.
fn fallback(kind: Kind, function: &ToolFn, args: &ServedArgs, error: syn::Error) -> TokenStream {
    let item = &function.item;
    let error = error.to_compile_error();
    if item.sig.receiver().is_some() {
        // A method: a type beside it would not be legal where it stands.
        return quote!(#item #error);
    }
    let krate = crate_or_default(args.krate.as_ref());
    let p = quote!(#krate::__private);
    let served_type = function.tool_type();
    let lints = lint_allowances();
    let never = quote!(#p::served_fallback());
    let methods = match kind {
        Kind::Resource => quote! {
            fn uri(&self) -> &str { #never }
            fn name(&self) -> &str { #never }
            fn description(&self) -> &str { #never }
            fn read<'__a>(
                &'__a self,
                _: &'__a #p::ToolContext<__C>,
                _: &'__a #p::ResourceRead,
            ) -> #p::BoxFuture<'__a, #p::Result<#p::Vec<#p::ResourceContents>, #p::ResourceError>> {
                #never
            }
        },
        Kind::Prompt => quote! {
            fn name(&self) -> &str { #never }
            fn description(&self) -> &str { #never }
            fn get<'__a>(
                &'__a self,
                _: &'__a #p::ToolContext<__C>,
                _: &'__a #p::PromptArguments,
            ) -> #p::BoxFuture<'__a, #p::Result<#p::Vec<#p::PromptMessage>, #p::PromptError>> {
                #never
            }
        },
    };
    let served_trait = trait_name(kind);
    let served_struct = tool_struct(&item.vis, &served_type, None);
    quote! {
        #item
        #served_struct
        #[automatically_derived]
        #lints
        impl<__C> #p::#served_trait<__C> for #served_type {
            #methods
        }
        #error
    }
}

/// The local a parameter's value is read into.
fn value_local(ident: &Ident) -> Ident {
    format_ident!("__served_{}", ident.unraw(), span = Span::mixed_site())
}

/// The generated `complete`, calling the function `complete = path`
/// names with the name being completed and what is typed so far; none
/// without it.
fn complete_fn(path: Option<&syn::Path>, p: &TokenStream) -> Option<TokenStream> {
    path.map(|path| {
        let name = format_ident!("__served_name", span = Span::mixed_site());
        let prefix = format_ident!("__served_prefix", span = Span::mixed_site());
        let call = quote::quote_spanned!(syn::spanned::Spanned::span(path)=> #path(#name, #prefix));
        quote! {
            fn complete(&self, #name: &str, #prefix: &str) -> #p::Vec<#p::String> {
                #call
            }
        }
    })
}

/// The generics and the context type of the generated impl: the
/// function's context's, or any (`<__C>`) for a function without one.
fn context_generics(function: &ToolFn) -> (TokenStream, TokenStream) {
    match function.context() {
        Some(ctx_type) => (quote!(), quote!(#ctx_type)),
        None => (quote!(<__C>), quote!(__C)),
    }
}

/// The trait the generated type implements: `Resource` or `Prompt`.
fn trait_name(kind: Kind) -> Ident {
    let name = match kind {
        Kind::Resource => "Resource",
        Kind::Prompt => "Prompt",
    };
    Ident::new(name, Span::call_site())
}
