//! The struct form.
//!
//! Input:
//!
//! ```text
//! /// Search the web.
//! #[tool(context = App)]
//! #[derive(Deserialize, JsonSchema)]
//! struct WebSearch { query: String }
//!
//! impl WebSearch {
//!     async fn run(self, ctx: &ToolContext<App>) -> Result<Vec<Hit>, Error> { ... }
//! }
//! ```
//!
//! Output (`p` is `::tool_core::__private`; every generated local is
//! hidden by mixed-site hygiene): the struct unchanged, plus
//!
//! ```text
//! /// The tool `web_search`, whose input is [`WebSearch`], to register in a `ToolRegistry` (`.with(WebSearchTool)`).
//! #[allow(clippy::exhaustive_structs)]
//! #[derive(Clone, Copy, Debug, Default)]
//! struct WebSearchTool;
//!
//! // serde_derive's lint allowances; `allow(deprecated)` too when the
//! // item is deprecated.
//! #[doc(hidden)]
//! #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::absolute_paths)]
//! const _: () = {
//!     p::require_schemars!();  // an error if the schema is derived and schemars is off
//!
//!     static __TOOL_FACTS: p::Facts = p::Facts { name, description, metadata };
//!
//!     // The run may borrow the context it is given: the call's, lent for
//!     // a call made at once, or one it owns.
//!     fn __tool_start<'c>(ctx: p::Cow<'c, p::ToolContext<App>>, args: p::Arguments<'_>)
//!         -> p::Result<p::Started<'c>, p::ToolError>
//!     {
//!         // Polled once where it starts if it may run at once.
//!         let now = args.now();
//!         // `true`: a key that is none of the fields is refused.
//!         let input = p::read_struct::<WebSearch>(args, true)?;
//!         Ok(p::Started::wait(now, async move {
//!             let call = input.run(&*ctx);
//!             let output = /* `call`, awaited if it is a future */;
//!             /* output -> ToolResult, by its type */
//!         }))
//!     }
//!
//!     // Closed to unknown arguments (`additionalProperties: false`).
//!     fn __tool_input_schema() -> p::Value {
//!         p::closed_schema(p::derived_schema::<WebSearch>())
//!     }
//!
//!     #[automatically_derived]
//!     impl p::IntoTool<App, p::Generated> for WebSearchTool {
//!         fn into_registration(self) -> p::Registration<App> {
//!             p::Registration::with_context(p::Compiled { facts: &__TOOL_FACTS,
//!                 input_schema: __tool_input_schema, output_schema: p::no_output_schema,
//!                 start: __tool_start })
//!         }
//!     }
//! };
//! ```
//!
//! Without `context`, `run` takes only `self` and the struct is a tool for
//! every registry (`impl<__C> IntoTool<__C, Generated>`). With
//! `schema = ...`, `__tool_input_schema` returns the user's expression and
//! nothing requires schemars; with `allow_unknown_arguments` the schema is
//! not closed and `read_struct` is given `false`; with
//! `output_schema = ...` a `fn __tool_output_schema` returns the user's;
//! with a bare `output_schema` it returns the schema of what `run` returns,
//! its type inferred from a call of `run` in a future that is never polled:
//!
//! ```text
//!     fn __tool_output_schema() -> p::Option<p::Value> {
//!         use p::{PlainSchemaProbe as _, ResultSchemaProbe as _};
//!         let returned = p::output_of(async {
//!             let input: WebSearch = p::never();
//!             let ctx: p::ToolContext<App> = p::never();
//!             let call = input.run(&ctx);
//!             /* `call`, awaited if it is a future */
//!         });
//!         // `T` of a `Result<T, E>`, else the type: `T: JsonSchema`.
//!         p::Some((&returned).__tool_output_kind().schema())
//!     }
//! ```
//!
//! With `validate = check`, the start function reads with
//! `p::read_struct_checked::<WebSearch, _>(args, true, |read| check(read))`;
//! `validate = check(self, query, ctx)` passes `read`, `&read.query` and
//! the context, `&*ctx`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Ident, Lifetime, Path};

use crate::ast::ToolStruct;
use crate::attr::{OutputSchema, ToolArgs};
use crate::check::Identity;
use crate::codegen::{
    compiled, convert_output, facts, generated_attrs, input_schema, krate, output_schema_fn,
    tool_struct, validate,
};

pub(crate) fn expand(tool: &ToolStruct, args: &ToolArgs, identity: &Identity) -> TokenStream {
    let krate = krate(args);
    let p = quote!(#krate::__private);
    let item = &tool.item;
    let ident = &item.ident;
    let span = ident.span();
    let vis = &item.vis;
    let tool_type = tool.tool_type();
    let name = &identity.name;

    let require_schemars = if args.schema.is_none() {
        quote_spanned!(span=> #p::require_schemars!();)
    } else {
        quote!()
    };
    let facts = facts(args, &krate, identity);
    let start = start_fn(tool, args, &krate, name);
    let input_schema = input_schema(args, &krate, &quote_spanned!(span=> #ident), span);
    // A derived schema is closed to unknown arguments, as a function's is.
    let input_schema = if args.schema.is_none() && !allows_unknown_arguments(args) {
        quote!(#p::closed_schema(#input_schema))
    } else {
        input_schema
    };
    let output_schema = output_schema_fn(args, &krate, || returned(tool, args, &krate));
    let registration = registration(args, &krate, &tool_type);
    let doc = format!(
        "The tool `{name}`, whose input is [`{ident}`], to register in a `ToolRegistry` (`.with({tool_type})`)."
    );
    let generated = generated_attrs(&item.attrs);
    let tool_struct = tool_struct(vis, &tool_type, Some(&doc));

    quote! {
        #item

        #tool_struct

        #generated
        const _: () = {
            #require_schemars

            #facts

            #start

            fn __tool_input_schema() -> #p::Value {
                #input_schema
            }

            #output_schema

            #registration
        };
    }
}

/// `fn __tool_start`: reads the struct and starts `run`, awaited if it is
/// `async`.
fn start_fn(tool: &ToolStruct, args: &ToolArgs, krate: &Path, name: &str) -> TokenStream {
    let p = quote!(#krate::__private);
    let ident = &tool.item.ident;
    let span = ident.span();
    let ctx = format_ident!("__tool_ctx", span = Span::mixed_site());
    let tool_args = format_ident!("__tool_args", span = Span::mixed_site());
    let input = format_ident!("__tool_input", span = Span::mixed_site());
    let call = format_ident!("__tool_call", span = Span::mixed_site());
    let output = format_ident!("__tool_output", span = Span::mixed_site());
    let now = format_ident!("__tool_now", span = Span::mixed_site());

    // The run may borrow the context it is given (`'__tool_c`, late bound).
    let lent = Lifetime::new("'__tool_c", Span::call_site());
    let (generics, ctx_param, started, run_args) = match &args.context {
        Some(ctx_type) => (
            quote!(<#lent>),
            quote!(#ctx: #p::Cow<#lent, #p::ToolContext<#ctx_type>>,),
            quote!(#p::Started<#lent>),
            quote!(&*#ctx),
        ),
        None => (quote!(), quote!(), quote!(#p::Started<'static>), quote!()),
    };
    // Spanned at the struct's name: a missing `Deserialize` or a missing or
    // mistyped `run` is reported there.
    let closed = !allows_unknown_arguments(args);
    let read = match &args.validate {
        None => quote_spanned!(span=> #p::read_struct::<#ident>(#tool_args, #closed)),
        // The tool's own checks, on the struct read (and the context, when
        // the tool has one), before the gate.
        Some(validate) => {
            let read = format_ident!("__tool_read", span = Span::mixed_site());
            let check_args = validate::struct_args(validate, args, &read, &ctx);
            let path = &validate.path;
            let verdict = quote_spanned!(path.span()=> #path(#(#check_args),*));
            quote_spanned! {span=>
                #p::read_struct_checked::<#ident, _>(#tool_args, #closed, |#read| #verdict)
            }
        }
    };
    let receiver = quote_spanned!(span=> #input);
    let run_call = quote_spanned!(span=> #receiver.run(#run_args));
    let convert = convert_output(krate, name, &output, span);
    // `|read| check(read)` is the closure clippy would have written as
    // `check`, but `read_struct_checked` takes any closure; its body is
    // spanned at the user's path, so clippy takes it for theirs.
    let allow = args
        .validate
        .as_ref()
        .map(|_| quote!(#[allow(clippy::redundant_closure, clippy::implicit_return)]));
    quote! {
        #allow
        fn __tool_start #generics(
            #ctx_param
            #tool_args: #p::Arguments<'_>,
        ) -> #p::Result<#started, #p::ToolError> {
            let #now = #tool_args.now();
            let #input = #read?;
            #p::Result::Ok(#p::Started::wait(#now, async move {
                #[allow(unused_imports)]
                use #p::{FutureProbe as _, ReadyProbe as _};
                let #call = #run_call;
                let #output = (&#call).__tool_await_kind().into_future(#call).await;
                #convert
            }))
        }
    }
}

/// What `run` returns, awaited if it is a future, as a `PhantomData`: the
/// macro sees only the struct, so the type is inferred from a call of
/// `run` in a future that is never polled. Spanned at the bare
/// `output_schema`, where a type without a schema is reported.
fn returned(tool: &ToolStruct, args: &ToolArgs, krate: &Path) -> (TokenStream, Span) {
    let p = quote!(#krate::__private);
    let ident = &tool.item.ident;
    let span = match &args.output_schema {
        Some(OutputSchema::Derived(span)) => *span,
        _ => ident.span(),
    };
    let input = format_ident!("__tool_input", span = Span::mixed_site());
    let ctx = format_ident!("__tool_ctx", span = Span::mixed_site());
    let call = format_ident!("__tool_call", span = Span::mixed_site());
    let (own_ctx, run_args) = match &args.context {
        Some(ctx_type) => (
            quote!(let #ctx: #p::ToolContext<#ctx_type> = #p::never();),
            quote!(&#ctx),
        ),
        None => (quote!(), quote!()),
    };
    let run_call = quote_spanned!(ident.span()=> #input.run(#run_args));
    let returned = quote! {
        #p::output_of(async {
            #[allow(unused_imports)]
            use #p::{FutureProbe as _, ReadyProbe as _};
            let #input: #ident = #p::never();
            #own_ctx
            let #call = #run_call;
            (&#call).__tool_await_kind().into_future(#call).await
        })
    };
    (returned, span)
}

/// Whether the struct reads arguments besides its fields:
/// `#[tool(allow_unknown_arguments)]`.
fn allows_unknown_arguments(args: &ToolArgs) -> bool {
    args.allow_unknown_arguments
        .as_ref()
        .is_some_and(|flag| flag.value)
}

/// `impl IntoTool for WebSearchTool`: for the `context` type's registry, or
/// for every registry without one.
fn registration(args: &ToolArgs, krate: &Path, tool_type: &Ident) -> TokenStream {
    let p = quote!(#krate::__private);
    let compiled = compiled(args, krate);
    match &args.context {
        Some(ctx_type) => quote! {
            #[automatically_derived]
            impl #p::IntoTool<#ctx_type, #p::Generated> for #tool_type {
                fn into_registration(self) -> #p::Registration<#ctx_type> {
                    #p::Registration::with_context(#compiled)
                }
            }
        },
        None => quote! {
            #[automatically_derived]
            impl<__C: #p::Send + #p::Sync + 'static> #p::IntoTool<__C, #p::Generated> for #tool_type {
                fn into_registration(self) -> #p::Registration<__C> {
                    #p::Registration::free(#compiled)
                }
            }
        },
    }
}
