//! `#[prompt]`: its own rule (`complete` on a prompt with arguments), and
//! the code it generates.
//!
//! Input:
//!
//! ```text
//! /// Review a change.
//! #[prompt(complete = focuses)]
//! fn review(/** The change, as a diff. */ diff: String, /** What to look at. */ focus: Option<String>) -> String { ... }
//! ```
//!
//! Output (`p` is `::tool_core::__private`; generated locals are hidden
//! by mixed-site hygiene):
//!
//! ```text
//! fn review(diff: String, focus: Option<String>) -> String { ... }
//!
//! /// The prompt `review`: [`review`], to add to a `Prompts` (`.with(Review)`).
//! #[derive(Clone, Copy, Debug, Default)]
//! struct Review;
//!
//! const _: () = {
//!     impl<__C> p::Prompt<__C> for Review {
//!         fn name(&self) -> &str { "review" }
//!         fn description(&self) -> &str { "Review a change." }
//!         fn arguments(&self) -> p::Vec<p::PromptArgument> {
//!             p::Vec::from([
//!                 p::PromptArgument::required("diff", "The change, as a diff."),
//!                 p::PromptArgument::optional("focus", "What to look at."),
//!             ])
//!         }
//!         fn get<'__a>(&'__a self, ctx: &'__a p::ToolContext<__C>, arguments: &'__a p::PromptArguments)
//!             -> p::BoxFuture<'__a, p::Result<p::Vec<p::PromptMessage>, p::PromptError>>
//!         {
//!             p::Box::pin(async move {
//!                 // At the parameter's type (`T` of an `Option<T>`): a type
//!                 // that cannot be read from text is reported there.
//!                 let diff = match p::prompt_argument::<String>("review", arguments, "diff") { .. };
//!                 let focus = match p::optional_prompt_argument::<String>("review", arguments, "focus") { .. };
//!                 let output = review(diff, focus);
//!                 p::prompt_messages("review", output)
//!             })
//!         }
//!         fn complete(&self, name: &str, prefix: &str) -> p::Vec<p::String> { focuses(name, prefix) }
//!     }
//! };
//! ```
//!
//! With a `&ToolContext<App>` parameter the impl is `p::Prompt<App>`, and
//! the function is given the context it is got in.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{GenericArgument, Ident, PathArguments, ReturnType, Type};

use super::attr::ServedArgs;
use super::{Kind, Named, complete_fn, context_generics, trait_name, value_local};
use crate::ast::{Arg, ToolFn};
use crate::check::Identity;
use crate::codegen::{crate_or_default, generated_attrs, tool_struct};
use crate::ctxt::Errors;

/// `complete` needs arguments to complete.
pub(crate) fn check(
    args: &ServedArgs,
    named: &[Named<'_>],
    identity: &Identity,
    errors: &mut Errors,
) {
    if let Some(complete) = &args.complete
        && named.is_empty()
    {
        errors.spanned(
            complete,
            format!(
                "`complete` completes the arguments of a prompt, and `{}` takes none",
                identity.name
            ),
        );
    }
}

/// The function, its type, and the type's `Prompt` impl.
pub(crate) fn expand(
    function: &ToolFn,
    args: &ServedArgs,
    identity: &Identity,
    named: &[Named<'_>],
) -> TokenStream {
    let item = &function.item;
    let krate = crate_or_default(args.krate.as_ref());
    let p = quote!(#krate::__private);
    let served_type = function.tool_type();
    let fn_ident = &item.sig.ident;
    let Identity { name, description } = identity;
    let doc = format!(
        "The prompt `{name}`: [`{fn_ident}`], to add to a `Prompts` (`.with({served_type})`)."
    );
    let served_struct = tool_struct(&item.vis, &served_type, Some(&doc));
    let generated = generated_attrs(&item.attrs);
    let ctx = format_ident!("__prompt_ctx", span = Span::mixed_site());
    let arguments = format_ident!("__prompt_arguments", span = Span::mixed_site());
    let output = format_ident!("__prompt_output", span = Span::mixed_site());
    let error = format_ident!("__prompt_error", span = Span::mixed_site());

    let listed = named.iter().map(|param| {
        let argument = &param.name;
        let description = param.description.clone().unwrap_or_default();
        let made = match option_inner(param.ty) {
            Some(_) => quote!(optional),
            None => quote!(required),
        };
        quote!(#p::PromptArgument::#made(#argument, #description))
    });
    let arguments_fn = (!named.is_empty()).then(|| {
        quote! {
            fn arguments(&self) -> #p::Vec<#p::PromptArgument> {
                #p::Vec::from([#(#listed),*])
            }
        }
    });
    let values = named.iter().map(|param| {
        let local = value_local(param.ident);
        let argument = &param.name;
        let read_value = match option_inner(param.ty) {
            Some(inner) => quote_spanned! {inner.span()=>
                #p::optional_prompt_argument::<#inner>(#name, #arguments, #argument)
            },
            None => {
                let ty = param.ty;
                quote_spanned! {ty.span()=>
                    #p::prompt_argument::<#ty>(#name, #arguments, #argument)
                }
            }
        };
        quote! {
            let #local = match #read_value {
                #p::Result::Ok(value) => value,
                #p::Result::Err(#error) => return #p::Result::Err(#error),
            };
        }
    });
    let call_args = function.args.iter().filter_map(|arg| match arg {
        Arg::Context(_) => Some(quote!(#ctx)),
        Arg::Param(param) => param.ident().map(value_local).map(|local| quote!(#local)),
        Arg::Receiver(_) => None,
    });
    let call = quote_spanned!(fn_ident.span()=> #fn_ident(#(#call_args),*));
    let call = match item.sig.asyncness {
        Some(_) => quote!(#call.await),
        None => call,
    };
    let return_span = match &item.sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => fn_ident.span(),
    };
    // The value at the return type, its hygiene kept: a type that is no
    // messages is reported there.
    let returned = Ident::new(
        &output.to_string(),
        Span::mixed_site().located_at(return_span),
    );
    let messages = quote_spanned!(return_span=> #p::prompt_messages(#name, #returned));
    let complete = complete_fn(args.complete.as_ref(), &p);
    let (generics, ctx_type) = context_generics(function);
    let served_trait = trait_name(Kind::Prompt);
    quote! {
        #item

        #served_struct

        #generated
        const _: () = {
            #[automatically_derived]
            impl #generics #p::#served_trait<#ctx_type> for #served_type {
                fn name(&self) -> &str {
                    #name
                }

                fn description(&self) -> &str {
                    #description
                }

                #arguments_fn

                fn get<'__a>(
                    &'__a self,
                    #ctx: &'__a #p::ToolContext<#ctx_type>,
                    #arguments: &'__a #p::PromptArguments,
                ) -> #p::BoxFuture<'__a, #p::Result<#p::Vec<#p::PromptMessage>, #p::PromptError>> {
                    #p::Box::pin(async move {
                        #(#values)*
                        let #output = #call;
                        #messages
                    })
                }

                #complete
            }
        };
    }
}

/// `T` of a parameter written `Option<T>` (by any path to it): an
/// argument that may be left out.
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let segment = path.path.segments.last()?;
    if segment.ident != "Option" {
        return None;
    }
    match &segment.arguments {
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first() {
            Some(GenericArgument::Type(inner)) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}
