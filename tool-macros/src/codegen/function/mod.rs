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
//! Output (`p` is `::tool_core::__private`; every generated local is
//! hidden by mixed-site hygiene):
//!
//! ```text
//! /// Get the weather.
//! async fn get_weather(ctx: &ToolContext<App>, city: String) -> Result<Weather, Error> { ... }
//!
//! /// The tool `get_weather`: [`get_weather`], to register in a `ToolRegistry` (`.with(GetWeather)`).
//! #[allow(clippy::exhaustive_structs)]
//! #[derive(Clone, Copy, Debug, Default)]
//! struct GetWeather;
//!
//! // serde_derive's lint allowances; `allow(deprecated)` too when the
//! // item is deprecated.
//! #[doc(hidden)]
//! #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::absolute_paths)]
//! const _: () = {
//!     static __TOOL_FACTS: p::Facts = p::Facts { name, description, metadata };
//!
//!     // One per parameter: its name and doc comment.
//!     static __TOOL_P0: p::Param = p::Param { name: "city", title: "", description: "City name." };
//!
//!     // The run may borrow the context it is given: the call's, lent for
//!     // a call made at once, or one it owns.
//!     fn __tool_start<'c>(ctx: p::Cow<'c, p::ToolContext<App>>, args: p::Arguments<'_>)
//!         -> p::Result<p::Started<'c>, p::ToolError>
//!     {
//!         let now = args.now();
//!         let mut f0 = p::Field::<String, p::Derived>::new(&__TOOL_P0);
//!         let mut object = args.object("the arguments of tool `get_weather` as a JSON object");
//!         while let Some(key) = object.next_key() {
//!             match key {
//!                 // `slot::<T>` checks the type, spanned at it, alike everywhere.
//!                 "city" => object.read(0, p::slot::<String>(&mut f0))?,
//!                 _ => return Err(object.unknown(key, &["city"])),
//!             }
//!         }
//!         object.finish(&mut [p::slot::<String>(&mut f0)])?;
//!         let (p::Some(city),) = (f0.take(),) else { return Err(p::unread("get_weather")) };
//!         Ok({
//!             p::Started::wait(now, async move {
//!                 let output = get_weather(&*ctx, city).await;
//!                 /* output -> ToolResult, by its type */
//!             })
//!         })
//!         // without a context: p::Started::finish(now, get_weather(city), |out| ..),
//!         // polled once there if it may run at once
//!         // a plain fn: p::Started::call(now, move || ..), or call_with(ctx, ..)
//!     }
//!
//!     fn __tool_input_schema() -> p::Value {
//!         let mut f0 = p::Field::<String, p::Derived>::new(&__TOOL_P0);
//!         p::params_schema(&mut [p::slot::<String>(&mut f0)])
//!     }
//!
//!     #[automatically_derived]
//!     impl p::IntoTool<App, p::Generated> for GetWeather {
//!         fn into_registration(self) -> p::Registration<App> {
//!             p::Registration::with_context(p::Compiled { facts: &__TOOL_FACTS,
//!                 input_schema: __tool_input_schema, output_schema: p::no_output_schema,
//!                 start: __tool_start })
//!         }
//!     }
//! };
//! ```
//!
//! Nothing generated is generic over a type, and no deserializer is
//! generated per tool: the start function matches the keys itself (so they
//! are compared as constants and each read is a direct call), and what a
//! read calls is generic over the parameter's type only, shared by every
//! tool with a parameter of that type. A function without a context
//! parameter is a tool for every registry (`impl<__C> IntoTool<__C,
//! Generated>`). With `schema = ...`, the fields are `Field<T, ByHand>`
//! made slots by `slot_by_hand` (no `JsonSchema` needed) and
//! `__tool_input_schema` returns the user's expression; with
//! `output_schema = ...` a `fn __tool_output_schema` returns the user's,
//! and with a bare `output_schema` the schema of the return type,
//! `p::PhantomData::<R>` probed for `Result<T, E>` as the value is
//! converted. With `validate = check`, `check(&city)` (every parameter, in
//! order) runs between `finish_unchecked` and the gate; with
//! `validate = check(ctx, city)` it is called with those named, each
//! spanned at its name, the context as `&*ctx`. A
//! function with more than 64 parameters gets the input struct below.
//!
//! When a parameter has an attribute other than a doc comment (`#[serde]`,
//! `#[schemars]`), the parameters become the fields of an input struct that
//! derives `Deserialize` and `JsonSchema`, so that the attributes mean what
//! they mean on a field:
//!
//! ```text
//!     const _: () = { p::check_parameter::<String>(); };  // at each parameter's type
//!
//!     p::derive_json_schema! { "::tool_core::__private::schemars", "<bounds>",
//!         #[derive(p::Deserialize)]
//!         #[serde(crate = "...", bound = "<bounds>", deny_unknown_fields, expecting = "...")]
//!         struct __ToolInput<'__tool_m> {
//!             /// City name.
//!             #[serde(rename = "town")]
//!             city: String,
//!             #[serde(skip)] #[schemars(skip)]
//!             __marker: p::PhantomData<&'__tool_m ()>,
//!         }
//!     }
//!     // __tool_start, __tool_input_schema and the impl are generic over
//!     // '__tool_m, bounded by `__ToolInput<'__tool_m>: DeserializeOwned +
//!     // InputSchema`; the start function reads the struct with
//!     // `args.read::<__ToolInput<'__tool_m>>()`.
//! ```
//!
//! The bounds hang on the lifetime so that rustc checks them where the items
//! are used, not where they are written: a parameter type that does not fit
//! is reported once, by the parameter check.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Lifetime, Path, ReturnType, WherePredicate, parse_quote};

use syn::ext::IdentExt;

use crate::ast::ToolFn;
use crate::attr::ToolArgs;
use crate::check::Identity;
use crate::codegen::{
    compiled, facts, generated_attrs, input_schema, krate, output_schema_fn, private_path_string,
    tool_struct,
};
use crate::docs::field_title_and_description;

mod start;

pub(crate) fn expand(tool: &ToolFn, args: &ToolArgs, identity: &Identity) -> TokenStream {
    let expansion = Expansion::new(tool, args, &identity.name);
    let item = &tool.item;
    let fn_ident = &item.sig.ident;
    let vis = &item.vis;
    let tool_type = tool.tool_type();
    let name = &identity.name;

    let checks = expansion.parameter_checks();
    let facts = facts(args, &expansion.krate, identity);
    let input = match &expansion.plain {
        Some(docs) => expansion.param_statics(docs),
        None => expansion.input_struct(),
    };
    let start = expansion.start_fn();
    let input_schema = expansion.input_schema_fn();
    let output_schema = output_schema_fn(args, &expansion.krate, || {
        let p = &expansion.p;
        match &item.sig.output {
            ReturnType::Type(_, ty) => (
                quote_spanned!(ty.span()=> #p::PhantomData::<#ty>),
                ty.span(),
            ),
            // `check` refuses a bare `output_schema` without a return type.
            ReturnType::Default => (quote!(#p::PhantomData::<()>), fn_ident.span()),
        }
    });
    let registration = expansion.registration(&tool_type);
    let doc = format!(
        "The tool `{name}`: [`{fn_ident}`], to register in a `ToolRegistry` (`.with({tool_type})`)."
    );
    let generated = generated_attrs(&item.attrs);
    let tool_struct = tool_struct(vis, &tool_type, Some(&doc));

    quote! {
        #item

        #tool_struct

        #generated
        const _: () = {
            // Each parameter type, checked once where the user wrote it.
            const _: () = {
                #(#checks)*
            };

            #facts

            #input

            #start

            #input_schema

            #output_schema

            #registration
        };
    }
}

/// What every piece of one function's expansion reads: the tool, the path
/// to tool-core, and the names the expansion makes up.
struct Expansion<'a> {
    tool: &'a ToolFn,
    args: &'a ToolArgs,
    name: &'a str,
    krate: Path,
    /// `#krate::__private`.
    p: TokenStream,
    /// The struct the arguments deserialize into.
    input: TokenStream,
    /// The lifetime the input struct and the items that read it are generic
    /// over (see `__private::Select`).
    marker: Lifetime,
    ctx: Ident,
    output: Ident,
    tool_args: Ident,
    now: Ident,
    /// What the generated items assume of the input struct. Assumptions
    /// that mention a lifetime are checked where they are used, not where
    /// they are written, so a parameter type that does not fit is reported
    /// once, by the parameter checks, not again by every item. Empty when
    /// the parameters are read one by one.
    bounds: Vec<WherePredicate>,
    /// `<'__tool_m>` on the items that read an input struct.
    /// When no parameter has an attribute but doc comments, each one's
    /// title and description: the parameters are then read one by one
    /// (`__private::Param`), with no input struct. Otherwise the input
    /// struct derives `Deserialize` and `JsonSchema`, so that `#[serde]` and
    /// `#[schemars]` on a parameter mean what they mean on a field.
    plain: Option<Vec<(String, String)>>,
}

impl<'a> Expansion<'a> {
    fn new(tool: &'a ToolFn, args: &'a ToolArgs, name: &'a str) -> Self {
        let krate = krate(args);
        let p = quote!(#krate::__private);
        let input = quote_spanned!(Span::mixed_site()=> __ToolInput);
        // Call-site: serde and schemars read the bounds back from a string.
        let marker = Lifetime::new("'__tool_m", Span::call_site());
        // tool-core reads at most 64 parameters one by one (one bit each).
        let plain = tool
            .params()
            .map(|param| field_title_and_description(&param.attrs))
            .collect::<Option<Vec<_>>>()
            .filter(|docs| docs.len() <= 64);
        let mut bounds: Vec<WherePredicate> = Vec::new();
        if plain.is_none() {
            bounds.push(parse_quote!(#input<#marker>: #p::DeserializeOwned));
            if args.schema.is_none() {
                bounds.push(parse_quote!(#input<#marker>: #p::InputSchema));
            }
        }
        Self {
            tool,
            args,
            name,
            krate,
            p,
            input,
            marker,
            ctx: format_ident!("__tool_ctx", span = Span::mixed_site()),
            output: format_ident!("__tool_output", span = Span::mixed_site()),
            tool_args: format_ident!("__tool_args", span = Span::mixed_site()),
            now: format_ident!("__tool_now", span = Span::mixed_site()),
            bounds,
            plain,
        }
    }

    /// One never-called check per parameter, spanned at its type, so a type
    /// that cannot be a parameter is reported there, with the runtime
    /// trait's note.
    fn parameter_checks(&self) -> Vec<TokenStream> {
        if self.plain.is_some() {
            // `Param::new` checks each type, at the parameter.
            return Vec::new();
        }
        let p = &self.p;
        let check = if self.args.schema.is_some() {
            quote!(check_serde_parameter)
        } else {
            quote!(check_parameter)
        };
        self.tool
            .params()
            .map(|param| {
                let ty = &param.ty;
                quote_spanned!(ty.span()=> #p::#check::<#ty>();)
            })
            .collect()
    }

    /// The struct the arguments deserialize into: one field per parameter,
    /// with the parameter's doc comments, `#[serde]` and `#[schemars]`;
    /// generic over the lifetime its bounds depend on.
    fn input_struct(&self) -> TokenStream {
        let Self {
            krate,
            p,
            input,
            marker,
            ..
        } = self;
        let serde_crate = private_path_string(krate, "serde");
        let expecting = format!("the arguments of tool `{}` as a JSON object", self.name);
        // serde's impl has its own lifetime `'de` to hang the bounds on; the
        // schema's impl has none, so it names its parameter types through
        // `Select`, with the struct's.
        let serde_bound = self.bound(|ty| parse_quote!(#ty: #p::Deserialize<'de>));
        let fields = self.tool.named_params().map(|(ident, param)| {
            let attrs = &param.attrs;
            let ty = &param.ty;
            quote!(#(#attrs)* #ident: #ty)
        });
        let marker_field = quote_spanned!(Span::mixed_site()=> __marker);
        let derived = self.args.schema.is_none();
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
        if !derived {
            return item;
        }
        let schemars_crate = private_path_string(krate, "schemars");
        let schema_bound =
            self.bound(|ty| parse_quote!(<&#marker () as #p::Select<#ty>>::Type: #p::InputSchema));
        let span = self.tool.item.sig.ident.span();
        quote_spanned! {span=>
            #p::derive_json_schema! { #schemars_crate, #schema_bound, #item }
        }
    }

    /// One `static __TOOL_P<i>: Param` per parameter: its name and its doc
    /// comment.
    fn param_statics(&self, docs: &[(String, String)]) -> TokenStream {
        let p = &self.p;
        let require_schemars = self
            .args
            .schema
            .is_none()
            .then(|| quote!(#p::require_schemars! {}));
        let statics = self.tool.named_params().zip(docs).enumerate().map(
            |(index, ((ident, _), (title, description)))| {
                let name = ident.unraw().to_string();
                let param_static = param_static(index);
                quote! {
                    static #param_static: #p::Param = #p::Param {
                        name: #name,
                        title: #title,
                        description: #description,
                    };
                }
            },
        );
        quote! {
            #require_schemars
            #(#statics)*
        }
    }

    /// `let mut __tool_field<i> = Field::<T>::new(&__TOOL_P<i>);` for each
    /// parameter, and each field as the `&mut dyn Slot` the runtime takes,
    /// made by `slot::<T>`: where a parameter type that cannot be one fails,
    /// at the type, written alike in the start and the schema functions so
    /// that rustc reports it once.
    fn fields(&self) -> (TokenStream, Vec<TokenStream>) {
        let p = &self.p;
        let derived = self.args.schema.is_none();
        let (kind, slot) = if derived {
            (quote!(#p::Derived), quote!(slot))
        } else {
            (quote!(#p::ByHand), quote!(slot_by_hand))
        };
        let mut lets = TokenStream::new();
        let mut slots = Vec::new();
        for (index, param) in self.tool.params().enumerate() {
            let ty = &param.ty;
            let field = field_local(index);
            let param_static = param_static(index);
            lets.extend(quote!(let mut #field = #p::Field::<#ty, #kind>::new(&#param_static);));
            slots.push(quote_spanned!(ty.span()=> #p::#slot::<#ty>(&mut #field)));
        }
        (lets, slots)
    }

    /// `predicate` of every parameter type, as the string serde's and
    /// schemars' `bound = "..."` take: built as `syn` predicates, printed
    /// only for the attribute.
    fn bound(&self, predicate: impl Fn(&syn::Type) -> WherePredicate) -> String {
        self.tool
            .params()
            .map(|param| predicate(&param.ty).to_token_stream().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `fn __tool_input_schema`: the user's schema, or the one derived for
    /// the input struct.
    fn input_schema_fn(&self) -> TokenStream {
        let Self {
            p,
            input,
            marker,
            bounds,
            ..
        } = self;
        let span = self.tool.item.sig.ident.span();
        if self.args.schema.is_some() {
            let body = input_schema(self.args, &self.krate, &quote!(#input<#marker>), span);
            return quote! {
                fn __tool_input_schema() -> #p::Value {
                    #body
                }
            };
        }
        if self.plain.is_some() {
            let (lets, slots) = self.fields();
            return quote! {
                fn __tool_input_schema() -> #p::Value {
                    #lets
                    #p::params_schema(&mut [#(#slots),*])
                }
            };
        }
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

    /// `impl IntoTool for GetWeather`: for the context's registry, or for
    /// every registry when the function takes no context.
    fn registration(&self, tool_type: &Ident) -> TokenStream {
        let Self {
            p,
            marker,
            bounds,
            plain,
            ..
        } = self;
        let compiled = compiled(self.args, &self.krate);
        let marker = plain.is_none().then_some(marker).into_iter();
        match self.tool.context() {
            Some(ctx_type) => quote! {
                #[automatically_derived]
                impl<#(#marker)*> #p::IntoTool<#ctx_type, #p::Generated> for #tool_type
                where
                    #(#bounds,)*
                {
                    fn into_registration(self) -> #p::Registration<#ctx_type> {
                        #p::Registration::with_context(#compiled)
                    }
                }
            },
            None => quote! {
                #[automatically_derived]
                impl<#(#marker,)* __C: #p::Send + #p::Sync + 'static> #p::IntoTool<__C, #p::Generated> for #tool_type
                where
                    #(#bounds,)*
                {
                    fn into_registration(self) -> #p::Registration<__C> {
                        #p::Registration::free(#compiled)
                    }
                }
            },
        }
    }
}

/// The `static` that describes the parameter at `index`.
fn param_static(index: usize) -> Ident {
    format_ident!("__TOOL_P{}", index, span = Span::mixed_site())
}

/// The local that holds the parameter at `index` while it is read.
fn field_local(index: usize) -> Ident {
    format_ident!("__tool_field{}", index, span = Span::mixed_site())
}
