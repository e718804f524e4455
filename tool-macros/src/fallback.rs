//! What is emitted when the input has errors: the user's item as written
//! (less what only `#[tool]` can read), the names other code refers to, and
//! the errors. So rustc reports the errors and nothing that follows from
//! them: registering the tool still type-checks, and IDEs still see the
//! item.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, Path, Visibility};

use crate::ast::{ToolFn, ToolStruct};
use crate::attr::ToolArgs;
use crate::codegen::{krate, lint_allowances, tool_struct};

/// The function, its tool type, and the errors.
pub(crate) fn function(tool: &ToolFn, args: &ToolArgs, error: syn::Error) -> TokenStream {
    let item = &tool.item;
    let error = error.to_compile_error();
    if item.sig.receiver().is_some() {
        // A method: a type beside it would not be legal where it stands.
        return quote!(#item #error);
    }
    let stub = stub(&krate(args), &item.vis, &tool.tool_type());
    quote! {
        #item
        #stub
        #error
    }
}

/// The struct, its tool type, and the errors.
pub(crate) fn structure(tool: &ToolStruct, args: &ToolArgs, error: syn::Error) -> TokenStream {
    let item = &tool.item;
    let error = error.to_compile_error();
    let stub = stub(&krate(args), &item.vis, &tool.tool_type());
    quote! {
        #item
        #stub
        #error
    }
}

/// The tool type, with an `IntoTool` impl for every context that is never
/// run: the crate does not compile while the error stands.
fn stub(krate: &Path, vis: &Visibility, tool_type: &Ident) -> TokenStream {
    let p = quote!(#krate::__private);
    let lints = lint_allowances();
    let tool_struct = tool_struct(vis, tool_type, None);
    quote! {
        #tool_struct
        #[automatically_derived]
        #lints
        impl<__C> #p::IntoTool<__C, #p::Generated> for #tool_type {
            fn into_registration(self) -> #p::Registration<__C> {
                #p::fallback()
            }
        }
    }
}
