//! What is emitted when the input has errors: the user's item as written
//! (less what only `#[tool]` can read), the names other code refers to, and
//! the errors. So rustc reports the errors and nothing that follows from
//! them: registering the tool still type-checks.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{ToolFn, ToolStruct};
use crate::attr::ToolArgs;
use crate::expand::krate;
use crate::expand_fn::tool_type;

pub(crate) fn function(tool: &ToolFn, args: &ToolArgs, error: syn::Error) -> TokenStream {
    let krate = krate(args);
    let item = &tool.item;
    let error = error.to_compile_error();
    if item.sig.receiver().is_some() {
        // A method: a type beside it would not be legal where it stands.
        return quote!(#item #error);
    }
    let vis = &item.vis;
    let tool_type = tool_type(tool);
    let stub = stub_impl(&krate, &quote!(#tool_type));
    quote! {
        #item
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_type;
        #stub
        #error
    }
}

pub(crate) fn structure(tool: &ToolStruct, args: &ToolArgs, error: syn::Error) -> TokenStream {
    let krate = krate(args);
    let item = &tool.item;
    let vis = &item.vis;
    let error = error.to_compile_error();
    let tool_type = crate::expand_struct::tool_type(tool);
    let stub = stub_impl(&krate, &quote!(#tool_type));
    quote! {
        #item
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_type;
        #stub
        #error
    }
}

/// An `IntoTool` impl for every context, never run: the crate does not
/// compile while the error stands.
fn stub_impl(krate: &syn::Path, ty: &TokenStream) -> TokenStream {
    let p = quote!(#krate::__private);
    quote! {
        impl<__C> #p::IntoTool<__C, #p::Generated> for #ty {
            fn into_registration(self) -> #p::Registration<__C> {
                #p::fallback()
            }
        }
    }
}
