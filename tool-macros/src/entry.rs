//! The expansion from end to end: parse the arguments and the item, read
//! the item into the IR, check it, then generate the tool, or, when there
//! are errors, the fallback that carries them.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Item, ItemFn, ItemStruct};

use crate::ast::{ToolFn, ToolStruct};
use crate::ctxt::Errors;
use crate::{attr, check, codegen, fallback};

/// `#[tool(args)] item` -> the item, its tool, and every error found.
///
/// With `TOOL_MACROS_DEBUG` set, prints each expansion to stderr: a way to
/// read what is generated without cargo-expand.
pub(crate) fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    let output = expand(args, input);
    if std::env::var_os("TOOL_MACROS_DEBUG").is_some() {
        eprintln!("{output}");
    }
    output
}

fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let item: Item = match syn::parse2(input.clone()) {
        Ok(item) => item,
        // Not an item rustc would accept either; let rustc say so.
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#input #error);
        }
    };
    match item {
        Item::Fn(item) => function(args, item),
        Item::Struct(item) => structure(args, item),
        other => {
            let error = check::unsupported_item(&other).to_compile_error();
            quote!(#other #error)
        }
    }
}

fn function(args: TokenStream, item: ItemFn) -> TokenStream {
    let mut errors = Errors::default();
    let args = attr::parse(args, &mut errors);
    let tool = ToolFn::from_syn(item, &mut errors);
    let identity = check::function(&tool, &args, &mut errors);
    match errors.finish() {
        Ok(()) => codegen::function::expand(&tool, &args, &identity),
        Err(error) => fallback::function(&tool, &args, error),
    }
}

fn structure(args: TokenStream, item: ItemStruct) -> TokenStream {
    let mut errors = Errors::default();
    let args = attr::parse(args, &mut errors);
    let tool = ToolStruct::from_syn(item, &mut errors);
    let identity = check::structure(&tool, &args, &mut errors);
    match errors.finish() {
        Ok(()) => codegen::structure::expand(&tool, &args, &identity),
        Err(error) => fallback::structure(&tool, &args, error),
    }
}
