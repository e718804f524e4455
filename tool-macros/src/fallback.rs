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
    let ident = &item.ident;
    let vis = &item.vis;
    let error = error.to_compile_error();
    if !item.generics.params.is_empty() {
        // `impl Echo` would be one more error about the missing generics.
        return quote!(#item #error);
    }
    quote! {
        #item
        impl #ident {
            #[doc(hidden)]
            #vis const fn tool() -> #krate::__private::FallbackTool {
                #krate::__private::FallbackTool
            }
        }
        #error
    }
}

/// A `TypedTool` impl for every context whose bodies are never run: the
/// crate does not compile while the error stands.
fn stub_impl(krate: &syn::Path, ty: &TokenStream) -> TokenStream {
    let p = quote!(#krate::__private);
    quote! {
        const _: () = {
            impl<__C: 'static> #p::TypedTool<__C> for #ty {
                type Input = #p::Value;
                fn name(&self) -> &str { ::core::unreachable!() }
                fn description(&self) -> &str { ::core::unreachable!() }
                fn input_schema(&self) -> #p::Value { ::core::unreachable!() }
                fn execute(&self, _: &#p::ToolContext<__C>, _: #p::Value) -> impl #p::Future<Output = #p::ToolResult> + #p::Send {
                    async { ::core::unreachable!() }
                }
            }
        };
    }
}
