//! `#[resource]`: its own rules (a URI, a template that reads, each of its
//! names a parameter's and each parameter one of its names), and the code
//! it generates.
//!
//! Input:
//!
//! ```text
//! /// The data of an id.
//! #[resource(uri = "test://template/{id}/data", mime_type = "application/json", complete = ids)]
//! async fn template_data(ctx: &ToolContext<App>, id: u32) -> Result<Value, ResourceError> { ... }
//! ```
//!
//! Output (`p` is `::tool_core::__private`; generated locals are hidden
//! by mixed-site hygiene):
//!
//! ```text
//! async fn template_data(ctx: &ToolContext<App>, id: u32) -> Result<Value, ResourceError> { ... }
//!
//! /// The resource `template_data`: [`template_data`], to add to a `Resources` (`.with(TemplateData)`).
//! #[derive(Clone, Copy, Debug, Default)]
//! struct TemplateData;
//!
//! const _: () = {
//!     impl p::Resource<App> for TemplateData {
//!         fn uri(&self) -> &str { "test://template/{id}/data" }
//!         fn name(&self) -> &str { "template_data" }
//!         fn description(&self) -> &str { "The data of an id." }
//!         fn mime_type(&self) -> p::Option<&str> { p::Some("application/json") }
//!         fn read<'__a>(&'__a self, ctx: &'__a p::ToolContext<App>, read: &'__a p::ResourceRead)
//!             -> p::BoxFuture<'__a, p::Result<p::Vec<p::ResourceContents>, p::ResourceError>>
//!         {
//!             p::Box::pin(async move {
//!                 // `template_value::<T>` at the parameter's type: a type that
//!                 // cannot be read from text is reported there.
//!                 let id = match p::template_value::<u32>(read, "id") { .. };
//!                 let output = template_data(ctx, id).await;
//!                 p::resource_contents(read, p::Some("application/json"), output)
//!             })
//!         }
//!         fn complete(&self, name: &str, prefix: &str) -> p::Vec<p::String> { ids(name, prefix) }
//!     }
//! };
//! ```
//!
//! A function without a context is a resource for every context
//! (`impl<__C> p::Resource<__C>`); a plain `fn` is called inside the
//! future all the same.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::{Ident, ReturnType};

use super::attr::ServedArgs;
use super::template::names;
use super::{Kind, Named, complete_fn, context_generics, trait_name, value_local};
use crate::ast::{Arg, ToolFn};
use crate::check::Identity;
use crate::codegen::{crate_or_default, generated_attrs, tool_struct};
use crate::ctxt::Errors;

/// Checks the URI and that its names and the parameters are the same;
/// gives the template's names, none for a URI that names nothing.
pub(crate) fn check(
    function: &ToolFn,
    args: &ServedArgs,
    named: &[Named<'_>],
    errors: &mut Errors,
) -> Vec<String> {
    let fn_name = function.item.sig.ident.unraw().to_string();
    let Some(uri) = &args.uri else {
        // At the attribute: the call site of an attribute macro.
        errors.push(syn::Error::new(
            Span::call_site(),
            "`#[resource]` needs the URI it is read at: `#[resource(uri = \"file:///notes.md\")]`, or the template of its URIs: `#[resource(uri = \"notes://{day}\")]`",
        ));
        return Vec::new();
    };
    let text = uri.value();
    let names = match names(&text) {
        Ok(names) => names,
        Err(reason) => {
            errors.spanned(uri, reason);
            return Vec::new();
        }
    };
    if names.is_empty() {
        for param in named {
            errors.push(syn::Error::new(
                param.span,
                format!("`{text}` is a fixed URI, which names nothing, so `{fn_name}` takes no parameter but the context; to read many URIs, name their parts in a template: `{{{}}}`", param.name),
            ));
        }
        if let Some(complete) = &args.complete {
            errors.spanned(
                complete,
                format!(
                    "`complete` completes the names of a URI template, and `{text}` names none"
                ),
            );
        }
        return names;
    }
    for name in &names {
        if !named.iter().any(|param| &param.name == name) {
            errors.spanned(
                uri,
                format!("the URI template names `{name}`, and `{fn_name}` has no parameter `{name}` to take its value: add `{name}: String` (or any type that implements `FromStr`)"),
            );
        }
    }
    let listed: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    for param in named {
        if !names.contains(&param.name) {
            errors.push(syn::Error::new(
                param.span,
                format!(
                    "`{}` is not a name of the URI template `{text}`, which names {}: each parameter but the context takes the value of the name it is called by",
                    param.name,
                    listed.join(", ")
                ),
            ));
        }
    }
    names
}

/// The function, its type, and the type's `Resource` impl.
pub(crate) fn expand(
    function: &ToolFn,
    args: &ServedArgs,
    identity: &Identity,
    named: &[Named<'_>],
    names: &[String],
) -> TokenStream {
    let item = &function.item;
    let krate = crate_or_default(args.krate.as_ref());
    let p = quote!(#krate::__private);
    let served_type = function.tool_type();
    let fn_ident = &item.sig.ident;
    let Identity { name, description } = identity;
    let doc = format!(
        "The resource `{name}`: [`{fn_ident}`], to add to a `Resources` (`.with({served_type})`)."
    );
    let served_struct = tool_struct(&item.vis, &served_type, Some(&doc));
    let generated = generated_attrs(&item.attrs);
    let ctx = format_ident!("__resource_ctx", span = Span::mixed_site());
    let read = format_ident!("__resource_read", span = Span::mixed_site());
    let output = format_ident!("__resource_output", span = Span::mixed_site());
    let error = format_ident!("__resource_error", span = Span::mixed_site());

    let uri = args
        .uri
        .as_ref()
        .map(syn::LitStr::value)
        .unwrap_or_default();
    let mime_type = match &args.mime_type {
        Some(mime_type) => quote!(#p::Some(#mime_type)),
        None => quote!(#p::None),
    };
    let mime_type_fn = args.mime_type.as_ref().map(|_| {
        quote! {
            fn mime_type(&self) -> #p::Option<&str> {
                #mime_type
            }
        }
    });
    // Each template value, read at its parameter's type, in the
    // template's order.
    let values = names.iter().filter_map(|name| {
        let param = named.iter().find(|param| &param.name == name)?;
        let local = value_local(param.ident);
        let ty = param.ty;
        let read_value = quote_spanned!(ty.span()=> #p::template_value::<#ty>(#read, #name));
        Some(quote! {
            let #local = match #read_value {
                #p::Result::Ok(value) => value,
                #p::Result::Err(#error) => return #p::Result::Err(#error),
            };
        })
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
    // contents is reported there.
    let returned = Ident::new(
        &output.to_string(),
        Span::mixed_site().located_at(return_span),
    );
    let contents =
        quote_spanned!(return_span=> #p::resource_contents(#read, #mime_type, #returned));
    let complete = complete_fn(args.complete.as_ref(), &p);
    let (generics, ctx_type) = context_generics(function);
    let served_trait = trait_name(Kind::Resource);
    quote! {
        #item

        #served_struct

        #generated
        const _: () = {
            #[automatically_derived]
            impl #generics #p::#served_trait<#ctx_type> for #served_type {
                fn uri(&self) -> &str {
                    #uri
                }

                fn name(&self) -> &str {
                    #name
                }

                fn description(&self) -> &str {
                    #description
                }

                #mime_type_fn

                fn read<'__a>(
                    &'__a self,
                    #ctx: &'__a #p::ToolContext<#ctx_type>,
                    #read: &'__a #p::ResourceRead,
                ) -> #p::BoxFuture<'__a, #p::Result<#p::Vec<#p::ResourceContents>, #p::ResourceError>> {
                    #p::Box::pin(async move {
                        #(#values)*
                        let #output = #call;
                        #contents
                    })
                }

                #complete
            }
        };
    }
}
