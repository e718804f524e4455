//! The struct form.
//!
//! Input:
//!
//! ```text
//! /// Search the web.
//! #[tool(context = App)]
//! #[derive(Deserialize, Serialize, JsonSchema)]
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
//! impl WebSearch {
//!     /// The tool `web_search`, ...
//!     fn tool() -> StructTool<WebSearch> { StructTool::new() }
//! }
//! const _: () = {
//!     impl ToolStruct<App> for WebSearch {
//!         /* name, description, schemas, metadata */
//!         async fn execute(self, ctx: &ToolContext<App>) -> ToolResult {
//!             let output = self.run(ctx);   // awaited if it is a future
//!             /* output -> ToolResult, by its type */
//!         }
//!     }
//! };
//! ```
//!
//! Without `context`, `run` takes only `self` and the struct is a tool for
//! every registry (`impl<C> ToolStruct<C>`).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::ast::ToolStruct;
use crate::attr::ToolArgs;
use crate::check::Identity;
use crate::expand::{convert_output, input_schema, krate, metadata, output_schema};

pub(crate) fn expand(tool: &ToolStruct, args: &ToolArgs, identity: &Identity) -> TokenStream {
    let krate = krate(args);
    let p = quote!(#krate::__private);
    let item = &tool.item;
    let ident = &item.ident;
    let span = ident.span();
    let vis = &item.vis;
    let Identity { name, description } = identity;

    let ctx = quote_spanned!(Span::mixed_site()=> __tool_ctx);
    let call = format_ident!("__tool_call", span = Span::mixed_site());
    let output = format_ident!("__tool_output", span = Span::mixed_site());

    let (impl_generics, ctx_type, call_args) = match &args.context {
        Some(ctx_type) => (quote!(), quote!(#ctx_type), quote!(#ctx)),
        None => (
            quote!(<__C: #p::Send + #p::Sync + 'static>),
            quote!(__C),
            quote!(),
        ),
    };
    let input_schema = input_schema(args, &krate, &quote_spanned!(span=> Self), span);
    // Spanned at the struct's name: a missing or mistyped `run` is reported
    // there.
    let receiver = quote_spanned!(span=> self);
    let run_call = quote_spanned!(span=> #receiver.run(#call_args));
    let require_schemars = if args.schema.is_none() {
        quote_spanned!(span=> #p::require_schemars!();)
    } else {
        quote!()
    };
    let output_schema = output_schema(args, &krate);
    let metadata = metadata(args, &krate);
    let uses_context = args.context.is_some();
    let convert = convert_output(&krate, name, &output, span);
    let doc =
        format!("The tool `{name}`, whose input is this struct; register it in a `ToolRegistry`.");

    quote! {
        #item

        impl #ident {
            #[doc = #doc]
            #vis const fn tool() -> #p::StructTool<Self> {
                #p::StructTool::new()
            }
        }

        const _: () = {
            #require_schemars

            #[automatically_derived]
            impl #impl_generics #p::ToolStruct<#ctx_type> for #ident {
                const NAME: &'static str = #name;
                const DESCRIPTION: &'static str = #description;

                fn input_schema() -> #p::Value {
                    #input_schema
                }

                fn output_schema() -> #p::Option<#p::Value> {
                    #output_schema
                }

                fn metadata() -> #p::ToolMetadata {
                    #metadata
                }

                const USES_CONTEXT: bool = #uses_context;

                async fn execute(self, #ctx: &#p::ToolContext<#ctx_type>) -> #p::ToolResult {
                    #[allow(unused_imports)]
                    use #p::{FutureProbe as _, ReadyProbe as _};
                    let #call = #run_call;
                    let #output = (&#call).__tool_await_kind().into_future(#call).await;
                    #convert
                }
            }
        };
    }
}
