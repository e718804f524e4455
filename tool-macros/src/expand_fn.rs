//! The function form.
//!
//! Input:
//!
//! ```text
//! /// Get the weather.
//! #[tool(read_only)]
//! async fn get_weather(ctx: &ToolContext<App>, /// City name.
//!                      city: String) -> Result<Weather, Error> { ... }
//! ```
//!
//! Output:
//!
//! ```text
//! /// Get the weather.
//! async fn get_weather(ctx: &ToolContext<App>, city: String) -> Result<Weather, Error> { ... }
//!
//! /// The tool of [`get_weather`] ...
//! #[derive(Clone, Copy, Debug, Default)]
//! struct GetWeather;
//!
//! const _: () = {
//!     #[derive(Deserialize, Serialize, JsonSchema)]
//!     #[serde(crate = "::tool_core::__private::serde", deny_unknown_fields, expecting = "...")]
//!     #[schemars(crate = "::tool_core::__private::schemars")]
//!     pub struct __ToolInput {
//!         /// City name.
//!         city: String,
//!     }
//!     impl TypedTool<App> for GetWeather {
//!         type Input = __ToolInput;
//!         /* name, description, schemas, metadata */
//!         async fn execute(&self, ctx: &ToolContext<App>, input: __ToolInput) -> ToolResult {
//!             let __ToolInput { city } = input;
//!             let output = get_weather(ctx, city).await;
//!             /* output -> ToolResult, by its type */
//!         }
//!     }
//! };
//! ```
//!
//! A function without a context parameter gets `impl<C> TypedTool<C>`, a
//! tool for every registry.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ReturnType;
use syn::spanned::Spanned;

use crate::ast::{Arg, ToolFn};
use crate::attr::ToolArgs;
use crate::check::Identity;
use crate::expand::{
    convert_output, input_schema, krate, metadata, output_schema, private_path_string,
};

pub(crate) fn expand(tool: &ToolFn, args: &ToolArgs, identity: &Identity) -> TokenStream {
    let krate = krate(args);
    let p = quote!(#krate::__private);
    let item = &tool.item;
    let fn_ident = &item.sig.ident;
    let span = fn_ident.span();
    let tool_type = tool_type(tool);
    let vis = &item.vis;
    let Identity { name, description } = identity;

    let input = quote_spanned!(Span::mixed_site()=> __ToolInput);
    let ctx = quote_spanned!(Span::mixed_site()=> __tool_ctx);
    let input_value = quote_spanned!(Span::mixed_site()=> __tool_input);
    let output = format_ident!("__tool_output", span = Span::mixed_site());

    let parameter = if args.schema.is_some() {
        quote!(SerdeParameter)
    } else {
        quote!(Parameter)
    };
    let check = if args.schema.is_some() {
        quote!(check_serde_parameter)
    } else {
        quote!(check_parameter)
    };
    let checks = tool.params().map(|param| {
        let ty = &param.ty;
        quote_spanned!(ty.span()=> #p::#check::<#ty>();)
    });
    let bounds = tool.params().map(|param| {
        let ty = &param.ty;
        quote_spanned!(ty.span()=> <__C as #p::Select<#ty>>::Type: #p::#parameter)
    });
    let input_struct = input_struct(tool, args, &krate, &input, name);
    let context_bound = tool
        .context
        .as_ref()
        .map(|ctx_type| quote!(__C: #p::IsContext<#ctx_type>,));
    let fields: Vec<_> = tool.params().map(|param| &param.ident).collect();
    let call_args = tool.args.iter().map(|arg| match arg {
        Arg::Context => {
            let ctx_type = &tool.context;
            quote!(<__C as #p::IsContext<#ctx_type>>::context(#ctx))
        }
        Arg::Param(param) => {
            let ident = &param.ident;
            quote!(#ident)
        }
    });
    let call = quote_spanned!(span=> #fn_ident(#(#call_args),*));
    let call = if item.sig.asyncness.is_some() {
        quote_spanned!(span=> #call.await)
    } else {
        call
    };
    let return_span = match &item.sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => span,
    };
    let convert = convert_output(&krate, name, &output, return_span);
    // A plain function answers at once: the registry need not make a future.
    let execute_now = if item.sig.asyncness.is_none() {
        quote! {
            fn execute_now(
                &self,
                #ctx: &#p::ToolContext<__C>,
                #input_value: #input<__C>,
            ) -> #p::Result<#p::ToolResult, #input<__C>> {
                let #input { #(#fields,)* .. } = #input_value;
                let #output = #call;
                #p::Result::Ok(#convert)
            }
        }
    } else {
        quote!()
    };
    let input_schema = input_schema(args, &krate, &quote!(#input<__C>), span);
    let output_schema = output_schema(args, &krate);
    let metadata = metadata(args, &krate);
    let uses_context = tool.context.is_some();
    let doc = format!(
        "The tool `{name}`: [`{fn_ident}`] as a `TypedTool`, to register in a `ToolRegistry`."
    );

    quote! {
        #item

        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_type;

        const _: () = {
            // Each parameter type, checked once where the user wrote it.
            const _: () = {
                #(#checks)*
            };

            #input_struct

            #[automatically_derived]
            impl<__C> #p::TypedTool<__C> for #tool_type
            where
                __C: #p::Send + #p::Sync + 'static,
                #context_bound
                #(#bounds,)*
            {
                type Input = #input<__C>;

                fn name(&self) -> &str {
                    #name
                }

                fn description(&self) -> &str {
                    #description
                }

                fn input_schema(&self) -> #p::Value {
                    #input_schema
                }

                fn output_schema(&self) -> #p::Option<#p::Value> {
                    #output_schema
                }

                fn metadata(&self) -> #p::ToolMetadata {
                    #metadata
                }

                fn uses_context(&self) -> bool {
                    #uses_context
                }

                async fn execute(&self, #ctx: &#p::ToolContext<__C>, #input_value: #input<__C>) -> #p::ToolResult {
                    let #input { #(#fields,)* .. } = #input_value;
                    let #output = #call;
                    #convert
                }

                #execute_now
            }
        };
    }
}

/// `get_weather` -> `GetWeather`, at the function name's span; `Tool1` for
/// a name like `_1` whose PascalCase is no identifier.
pub(crate) fn tool_type(tool: &ToolFn) -> syn::Ident {
    let ident = &tool.item.sig.ident;
    let name = crate::case::pascal_case(&syn::ext::IdentExt::unraw(ident).to_string());
    let name = if name.starts_with(char::is_alphabetic) {
        name
    } else {
        format!("Tool{name}")
    };
    syn::Ident::new(&name, ident.span())
}

/// The struct the arguments deserialize into: one field per parameter, with
/// the parameter's doc comments, `#[serde]` and `#[schemars]`; generic over
/// the marker its bounds depend on (see `__private::Select`).
fn input_struct(
    tool: &ToolFn,
    args: &ToolArgs,
    krate: &syn::Path,
    input: &TokenStream,
    name: &str,
) -> TokenStream {
    let p = quote!(#krate::__private);
    let serde_crate = private_path_string(krate, "serde");
    let expecting = format!("the arguments of tool `{name}` as a JSON object");
    let parameter = if args.schema.is_some() {
        "SerdeParameter"
    } else {
        "Parameter"
    };
    let bound: Vec<String> = tool
        .params()
        .map(|param| {
            let ty = &param.ty;
            format!(
                "<__M as {}>::Type: {}",
                private_path_string(krate, &format!("Select<{}>", quote!(#ty))),
                private_path_string(krate, parameter)
            )
        })
        .collect();
    let bound = bound.join(", ");
    let fields = tool.params().map(|param| {
        let attrs = &param.attrs;
        let ident = &param.ident;
        let ty = &param.ty;
        quote!(#(#attrs)* #ident: #ty)
    });
    let marker = quote_spanned!(Span::mixed_site()=> __marker);
    let derived = args.schema.is_none();
    let skip_schema = derived.then(|| quote!(#[schemars(skip)]));
    let item = quote! {
        #[derive(#p::Deserialize, #p::Serialize)]
        #[serde(crate = #serde_crate, bound = #bound, deny_unknown_fields, expecting = #expecting)]
        pub struct #input<__M> {
            #(#fields,)*
            #[serde(skip)]
            #skip_schema
            #marker: #p::PhantomData<fn() -> __M>,
        }
    };
    if derived {
        let schemars_crate = private_path_string(krate, "schemars");
        let span = tool.item.sig.ident.span();
        quote_spanned! {span=>
            #p::derive_json_schema! { #schemars_crate, #bound, #item }
        }
    } else {
        item
    }
}
