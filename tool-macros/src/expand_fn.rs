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
//! /// The tool `get_weather` ...
//! #[derive(Clone, Copy, Debug, Default)]
//! struct GetWeather;
//!
//! const _: () = {
//!     static __TOOL_FACTS: Facts = Facts { name, description, metadata };
//!     #[derive(Deserialize, JsonSchema)]
//!     #[serde(crate = "::tool_core::__private::serde", bound = "String: Deserialize<'de>", ...)]
//!     struct __ToolInput<'m> {
//!         /// City name.
//!         city: String,
//!         marker: PhantomData<&'m ()>,
//!     }
//!     fn __tool_start<'m>(ctx: Cow<ToolContext<App>>, args: Arguments)
//!         -> Result<Started, ToolError>
//!     where __ToolInput<'m>: DeserializeOwned
//!     {
//!         let now = args.now;
//!         // The arguments read, then the policy checks that need no answer.
//!         let __ToolInput { city, .. } = args.read::<__ToolInput<'m>>()?;
//!         let ctx = ctx.into_owned();
//!         Ok(Started::wait(async move {
//!             let output = get_weather(&ctx, city).await;
//!             /* output -> ToolResult, by its type */
//!         }))
//!         // without a context: Started::finish(get_weather(city), |output| ..)
//!         // a plain fn: Started::call(now, move || ..), or call_with(ctx, ..)
//!     }
//!     fn __tool_input_schema<'m>() -> Value { derived_generated_schema::<__ToolInput<'m>>() }
//!     impl<'m> IntoTool<App, Generated> for GetWeather {
//!         fn into_registration(self) -> Registration<App> {
//!             Registration::with_context(Compiled { facts: &__TOOL_FACTS,
//!                 input_schema, output_schema, start })
//!         }
//!     }
//! };
//! ```
//!
//! Every generated function is compiled once: none is generic over a type.
//! A function without a context parameter is a tool for every registry
//! (`impl<C> IntoTool<C, Generated>`, whose body only names the functions).
//! A plain (not `async`) function runs at once when the call may
//! (`Started::call`).

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Lifetime, ReturnType, parse_quote};

use crate::ast::{Arg, ToolFn};
use crate::attr::ToolArgs;
use crate::check::Identity;
use crate::expand::{
    compiled, convert_output, facts, input_schema, krate, output_schema_fn, private_path_string,
};

pub(crate) fn expand(tool: &ToolFn, args: &ToolArgs, identity: &Identity) -> TokenStream {
    let krate = krate(args);
    let p = quote!(#krate::__private);
    let item = &tool.item;
    let fn_ident = &item.sig.ident;
    let span = fn_ident.span();
    let tool_type = tool_type(tool);
    let vis = &item.vis;
    let Identity { name, .. } = identity;

    let input = quote_spanned!(Span::mixed_site()=> __ToolInput);
    let ctx = format_ident!("__tool_ctx", span = Span::mixed_site());
    let output = format_ident!("__tool_output", span = Span::mixed_site());
    // Call-site: serde and schemars read the bounds back from a string.
    let marker = Lifetime::new("'__tool_m", Span::call_site());
    let tool_args = format_ident!("__tool_args", span = Span::mixed_site());
    let now = format_ident!("__tool_now", span = Span::mixed_site());

    let check = if args.schema.is_some() {
        quote!(check_serde_parameter)
    } else {
        quote!(check_parameter)
    };
    let checks = tool.params().map(|param| {
        let ty = &param.ty;
        quote_spanned!(ty.span()=> #p::#check::<#ty>();)
    });
    // What the generated items assume of the input struct, or of each
    // parameter type in the derived impls: assumptions that mention a
    // lifetime are checked where they are used, not where they are
    // written, so a parameter type that does not fit is reported once, by
    // the check above.
    let mut bounds: Vec<syn::WherePredicate> =
        vec![parse_quote!(#input<#marker>: #p::DeserializeOwned)];
    if args.schema.is_none() {
        bounds.push(parse_quote!(#input<#marker>: #p::InputSchema));
    }
    let input_struct = input_struct(tool, args, &krate, &input, &marker, name);
    let fields: Vec<_> = tool.params().map(|param| &param.ident).collect();
    let call_args = tool.args.iter().map(|arg| match arg {
        Arg::Context => quote!(&#ctx),
        Arg::Param(param) => {
            let ident = &param.ident;
            quote!(#ident)
        }
    });
    let call = quote_spanned!(span=> #fn_ident(#(#call_args),*));
    let return_span = match &item.sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => span,
    };
    let convert = convert_output(&krate, name, &output, return_span);
    let started = match (item.sig.asyncness.is_some(), tool.context.is_some()) {
        (false, false) => quote! {
            #p::Started::call(#now, move || {
                let #output = #call;
                #convert
            })
        },
        (false, true) => quote! {
            #p::Started::call_with(#ctx, #now, move |#ctx| {
                let #output = #call;
                #convert
            })
        },
        // The function's own future, its output converted by a plain fn.
        (true, false) => quote! {
            #p::Started::finish(#call, |#output| #convert)
        },
        // A future that owns the context it lends the function.
        (true, true) => quote! {{
            let #ctx = #ctx.into_owned();
            #p::Started::wait(async move {
                let #output = #call.await;
                #convert
            })
        }},
    };
    let ctx_param = tool
        .context
        .as_ref()
        .map(|ctx_type| quote!(#ctx: #p::Cow<'_, #p::ToolContext<#ctx_type>>,));
    let start = quote! {
        fn __tool_start<#marker>(
            #ctx_param
            #tool_args: #p::Arguments<'_>,
        ) -> #p::Result<#p::Started, #p::ToolError>
        where
            #(#bounds,)*
        {
            let #now = #tool_args.now;
            let #input { #(#fields,)* .. } = match #tool_args.read::<#input<#marker>>() {
                #p::Result::Ok(input) => input,
                #p::Result::Err(error) => return #p::Result::Err(error),
            };
            #p::Result::Ok(#started)
        }
    };
    let input_schema = match &args.schema {
        Some(_) => {
            let body = input_schema(args, &krate, &quote!(#input<#marker>), span);
            quote! {
                fn __tool_input_schema() -> #p::Value {
                    #body
                }
            }
        }
        None => {
            let body = quote_spanned!(span=> #p::derived_generated_schema::<#input<#marker>>());
            quote! {
                fn __tool_input_schema<#marker>() -> #p::Value
                where
                    #(#bounds,)*
                {
                    #body
                }
            }
        }
    };
    let output_schema = output_schema_fn(args, &krate);
    let facts = facts(args, &krate, identity);
    let compiled = compiled(args, &krate);
    let registration = match &tool.context {
        Some(ctx_type) => quote! {
            impl<#marker> #p::IntoTool<#ctx_type, #p::Generated> for #tool_type
            where
                #(#bounds,)*
            {
                fn into_registration(self) -> #p::Registration<#ctx_type> {
                    #p::Registration::with_context(#compiled)
                }
            }
        },
        None => quote! {
            impl<#marker, __C: #p::Send + #p::Sync + 'static> #p::IntoTool<__C, #p::Generated> for #tool_type
            where
                #(#bounds,)*
            {
                fn into_registration(self) -> #p::Registration<__C> {
                    #p::Registration::free(#compiled)
                }
            }
        },
    };
    let doc = format!(
        "The tool `{name}`: [`{fn_ident}`], to register in a `ToolRegistry` (`.with({tool_type})`)."
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

            #facts

            #input_struct

            #start

            #input_schema

            #output_schema

            #registration
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
/// the lifetime its bounds depend on (see `__private::Select`).
fn input_struct(
    tool: &ToolFn,
    args: &ToolArgs,
    krate: &syn::Path,
    input: &TokenStream,
    marker: &Lifetime,
    name: &str,
) -> TokenStream {
    let p = quote!(#krate::__private);
    let serde_crate = private_path_string(krate, "serde");
    let expecting = format!("the arguments of tool `{name}` as a JSON object");
    // serde's impl has its own lifetime `'de` to hang the bounds on; the
    // schema's impl has none, so it names its parameter types through
    // `Select`, with the struct's.
    let bound = |predicate: &dyn Fn(&syn::Type) -> syn::WherePredicate| {
        tool.params()
            .map(|param| predicate(&param.ty).to_token_stream().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let serde_bound = bound(&|ty| parse_quote!(#ty: #p::Deserialize<'de>));
    let fields = tool.params().map(|param| {
        let attrs = &param.attrs;
        let ident = &param.ident;
        let ty = &param.ty;
        quote!(#(#attrs)* #ident: #ty)
    });
    let marker_field = quote_spanned!(Span::mixed_site()=> __marker);
    let derived = args.schema.is_none();
    let skip_schema = derived.then(|| quote!(#[schemars(skip)]));
    let item = quote! {
        #[derive(#p::Deserialize)]
        #[serde(crate = #serde_crate, bound = #serde_bound, deny_unknown_fields, expecting = #expecting)]
        struct #input<#marker> {
            #(#fields,)*
            #[serde(skip)]
            #skip_schema
            #marker_field: #p::PhantomData<&#marker ()>,
        }
    };
    if derived {
        let schemars_crate = private_path_string(krate, "schemars");
        let schema_bound =
            bound(&|ty| parse_quote!(<&#marker () as #p::Select<#ty>>::Type: #p::InputSchema));
        let span = tool.item.sig.ident.span();
        quote_spanned! {span=>
            #p::derive_json_schema! { #schemars_crate, #schema_bound, #item }
        }
    } else {
        item
    }
}
