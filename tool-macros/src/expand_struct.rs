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
//! Output: the struct unchanged, plus
//!
//! ```text
//! /// The tool `web_search`, ...
//! #[derive(Clone, Copy, Debug, Default)]
//! struct WebSearchTool;
//!
//! const _: () = {
//!     fn start(ctx: Cow<ToolContext<App>>, args: Arguments, gate: Gate, now: bool)
//!         -> Result<Started, ToolError>
//!     {
//!         let input = args.read::<WebSearch>("web_search")?;
//!         gate()?;
//!         let ctx = ctx.into_owned();
//!         Ok(Started::wait(async move {
//!             let output = input.run(&ctx);   // awaited if it is a future
//!             /* output -> ToolResult, by its type */
//!         }))
//!     }
//!     fn input_schema() -> Value { derived_schema::<WebSearch>() }
//!     impl IntoTool<App, Generated> for WebSearchTool { /* Registration::with_context(..) */ }
//! };
//! ```
//!
//! Without `context`, `run` takes only `self` and the struct is a tool for
//! every registry (`impl<C> IntoTool<C, Generated>`).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::ast::ToolStruct;
use crate::attr::ToolArgs;
use crate::check::Identity;
use crate::expand::{compiled, convert_output, facts, input_schema, krate, output_schema_fn};

pub(crate) fn expand(tool: &ToolStruct, args: &ToolArgs, identity: &Identity) -> TokenStream {
    let krate = krate(args);
    let p = quote!(#krate::__private);
    let item = &tool.item;
    let ident = &item.ident;
    let span = ident.span();
    let vis = &item.vis;
    let tool_type = tool_type(tool);
    let name = &identity.name;

    let ctx = format_ident!("__tool_ctx", span = Span::mixed_site());
    let tool_args = format_ident!("__tool_args", span = Span::mixed_site());
    let input = format_ident!("__tool_input", span = Span::mixed_site());
    let call = format_ident!("__tool_call", span = Span::mixed_site());
    let output = format_ident!("__tool_output", span = Span::mixed_site());

    let (ctx_param, own_ctx, run_args) = match &args.context {
        Some(ctx_type) => (
            quote!(#ctx: #p::Cow<'_, #p::ToolContext<#ctx_type>>,),
            quote!(let #ctx = #ctx.into_owned();),
            quote!(&#ctx),
        ),
        None => (quote!(), quote!(), quote!()),
    };
    // Spanned at the struct's name: a missing `Deserialize` or a missing or
    // mistyped `run` is reported there.
    let read = quote_spanned!(span=> #p::read_struct::<#ident>(#tool_args));
    let receiver = quote_spanned!(span=> #input);
    let run_call = quote_spanned!(span=> #receiver.run(#run_args));
    let require_schemars = if args.schema.is_none() {
        quote_spanned!(span=> #p::require_schemars!();)
    } else {
        quote!()
    };
    let input_schema = input_schema(args, &krate, &quote_spanned!(span=> #ident), span);
    let output_schema = output_schema_fn(args, &krate);
    let convert = convert_output(&krate, name, &output, span);
    let facts = facts(args, &krate, identity);
    let compiled = compiled(args, &krate);
    let registration = match &args.context {
        Some(ctx_type) => quote! {
            impl #p::IntoTool<#ctx_type, #p::Generated> for #tool_type {
                fn into_registration(self) -> #p::Registration<#ctx_type> {
                    #p::Registration::with_context(#compiled)
                }
            }
        },
        None => quote! {
            impl<__C: #p::Send + #p::Sync + 'static> #p::IntoTool<__C, #p::Generated> for #tool_type {
                fn into_registration(self) -> #p::Registration<__C> {
                    #p::Registration::free(#compiled)
                }
            }
        },
    };
    let doc = format!(
        "The tool `{name}`, whose input is [`{ident}`], to register in a `ToolRegistry` (`.with({tool_type})`)."
    );

    quote! {
        #item

        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_type;

        const _: () = {
            #require_schemars

            #facts

            fn __tool_start(
                #ctx_param
                #tool_args: #p::Arguments<'_>,
            ) -> #p::Result<#p::Started, #p::ToolError> {
                let #input = #read?;
                #own_ctx
                #p::Result::Ok(#p::Started::wait(async move {
                    #[allow(unused_imports)]
                    use #p::{FutureProbe as _, ReadyProbe as _};
                    let #call = #run_call;
                    let #output = (&#call).__tool_await_kind().into_future(#call).await;
                    #convert
                }))
            }

            fn __tool_input_schema() -> #p::Value {
                #input_schema
            }

            #output_schema

            #registration
        };
    }
}

/// `WebSearch` -> `WebSearchTool`, at the struct name's span.
pub(crate) fn tool_type(tool: &ToolStruct) -> syn::Ident {
    let ident = &tool.item.ident;
    format_ident!(
        "{}Tool",
        syn::ext::IdentExt::unraw(ident),
        span = ident.span()
    )
}
