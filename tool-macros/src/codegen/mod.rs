//! Code generation for a `#[tool]` that passed `check`: `function` and
//! `structure` generate each form; this module holds what both generate
//! alike (the facts, the metadata, the schema functions, the conversion of
//! the return value) and the path to tool-core that all generated code goes
//! through.
//!
//! Generated code names tool-core, std included, only through
//! `#krate::__private`, so that a user's own `Result`, `Option` or `core`
//! cannot change what it means; its items live in a `const _: () = { ... }`
//! and its locals are hidden with `Span::mixed_site()`. It carries the
//! attributes serde_derive puts on its own (`generated_attrs`,
//! `automatically_derived`), so that lints a user turns on for their code
//! do not fire on code they did not write.

pub(crate) mod function;
pub(crate) mod structure;
pub(crate) mod validate;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{Attribute, Ident, Path, Visibility};

use crate::attr::{Callers, OutputSchema, Tier, ToolArgs, WithSpan};
use crate::check::Identity;

/// The path generated code reaches tool-core by.
pub(crate) fn krate(args: &ToolArgs) -> Path {
    crate_or_default(args.krate.as_ref())
}

/// The path given with `crate = ...`, else `::tool_core`.
pub(crate) fn crate_or_default(krate: Option<&Path>) -> Path {
    krate
        .cloned()
        .unwrap_or_else(|| syn::parse_quote!(::tool_core))
}

/// The tool's unit struct, what a registry is given: `doc` its doc
/// comment (the fallback's has none).
pub(crate) fn tool_struct(vis: &Visibility, tool_type: &Ident, doc: Option<&str>) -> TokenStream {
    let doc = doc.map(|doc| quote!(#[doc = #doc]));
    quote! {
        #doc
        // Built by its name in other crates: it cannot be `non_exhaustive`.
        #[allow(clippy::exhaustive_structs)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #tool_type;
    }
}

/// The lints serde_derive allows on the `const _` around its impls
/// (`dummy.rs`): generated code names everything by its full path, and a
/// user who denies these for their own code has no say over it.
pub(crate) fn lint_allowances() -> TokenStream {
    quote! {
        #[allow(
            non_upper_case_globals,
            unused_attributes,
            unused_qualifications,
            clippy::absolute_paths,
        )]
    }
}

/// The attributes of the `const _: () = { ... }` that holds a tool's
/// generated items: serde_derive's, and, as serde_derive does for a
/// deprecated type (`deprecated.rs`), `allow(deprecated)` when the item is
/// `#[deprecated]` or allows it: the expansion's own uses of a deprecated
/// function or struct are not the user's, while the user's calls still warn.
pub(crate) fn generated_attrs(item_attrs: &[Attribute]) -> TokenStream {
    let lints = lint_allowances();
    let deprecated = allows_deprecated(item_attrs).then(|| quote!(#[allow(deprecated)]));
    quote! {
        #[doc(hidden)]
        #lints
        #deprecated
    }
}

/// Whether the item is `#[deprecated]` or `#[allow(deprecated)]`.
fn allows_deprecated(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        if attr.path().is_ident("deprecated") {
            return true;
        }
        let mut allowed = false;
        if attr.path().is_ident("allow") {
            // An `allow` rustc refuses is rustc's to report.
            let _ = attr.parse_nested_meta(|meta| {
                allowed |= meta.path.is_ident("deprecated");
                if meta.input.peek(syn::Token![=]) {
                    // `reason = "..."`
                    meta.value()?.parse::<syn::Expr>()?;
                }
                Ok(())
            });
        }
        allowed
    })
}

/// A path inside tool-core's private module as the string serde's and
/// schemars' `crate = "..."` attributes take: `"::tool_core::__private::serde"`.
///
/// Written from the path's segments (a crate path has no generic arguments:
/// `attr` reads it in mod style), not from a token string, whose spacing is
/// the printer's to choose.
pub(crate) fn private_path_string(krate: &Path, item: &str) -> String {
    let mut text = String::new();
    if krate.leading_colon.is_some() {
        text.push_str("::");
    }
    for segment in &krate.segments {
        text.push_str(&segment.ident.to_string());
        text.push_str("::");
    }
    text.push_str("__private::");
    text.push_str(item);
    text
}

/// The tool's `input_schema` body.
pub(crate) fn input_schema(
    args: &ToolArgs,
    krate: &Path,
    input: &TokenStream,
    span: Span,
) -> TokenStream {
    match &args.schema {
        Some(schema) => quote_spanned! {schema_span(schema)=>
            {
                let schema: #krate::__private::Value = #schema;
                schema
            }
        },
        None => quote_spanned! {span=> #krate::__private::derived_schema::<#input>() },
    }
}

fn schema_span(expr: &syn::Expr) -> Span {
    syn::spanned::Spanned::span(expr)
}

/// `fn __tool_output_schema()`, for a tool that declares an output schema:
/// the user's expression, or, for a bare `output_schema`, the schema of
/// what the tool returns, `T` of a `Result<T, E>`. `returned` is an
/// expression of type `PhantomData<R>` for the tool's return type `R`, and
/// `span` where an `R` that has no schema is reported.
pub(crate) fn output_schema_fn(
    args: &ToolArgs,
    krate: &Path,
    returned: impl FnOnce() -> (TokenStream, Span),
) -> TokenStream {
    let p = quote!(#krate::__private);
    let body = match &args.output_schema {
        Some(OutputSchema::Expr(schema)) => quote_spanned! {schema_span(schema)=>
            {
                let schema: #p::Value = #schema;
                #p::Some(schema)
            }
        },
        Some(OutputSchema::Derived(_)) => {
            let (returned, span) = returned();
            let marker = syn::Ident::new("__tool_returned", Span::mixed_site());
            // Picked by the return type, as the conversion of the value is
            // (`convert_output`): `T` of a `Result<T, E>`, else the type.
            let schema = quote_spanned! {span=>
                (&#marker).__tool_output_kind().schema()
            };
            quote! {
                {
                    #[allow(unused_imports)]
                    use #p::{PlainSchemaProbe as _, ResultSchemaProbe as _};
                    #p::require_schemars! {}
                    let #marker = #returned;
                    #p::Some(#schema)
                }
            }
        }
        None => return quote!(),
    };
    quote! {
        fn __tool_output_schema() -> #p::Option<#p::Value> {
            #body
        }
    }
}

/// `static __TOOL_FACTS`: what the tool says of itself, made at compile
/// time.
pub(crate) fn facts(args: &ToolArgs, krate: &Path, identity: &Identity) -> TokenStream {
    let p = quote!(#krate::__private);
    let Identity { name, description } = identity;
    let metadata = metadata(args, krate);
    quote! {
        static __TOOL_FACTS: #p::Facts = #p::Facts {
            name: #name,
            description: #description,
            metadata: #metadata,
        };
    }
}

/// The `Compiled` a tool registers with: its facts and the functions the
/// expansion generated. `derived` unless the user wrote the input schema:
/// then the schema is what the start function's types read.
pub(crate) fn compiled(args: &ToolArgs, krate: &Path) -> TokenStream {
    let derived = args.schema.is_none();
    let p = quote!(#krate::__private);
    let output_schema = match &args.output_schema {
        Some(_) => quote!(__tool_output_schema),
        None => quote!(#p::no_output_schema),
    };
    quote! {
        #p::Compiled {
            facts: &__TOOL_FACTS,
            input_schema: __tool_input_schema,
            output_schema: #output_schema,
            start: __tool_start,
            derived: #derived,
        }
    }
}

/// The tool's `metadata` body: the keys the user gave, the documented
/// defaults for the rest.
pub(crate) fn metadata(args: &ToolArgs, krate: &Path) -> TokenStream {
    let p = quote!(#krate::__private);
    let mut fields = Vec::new();
    if let Some(title) = &args.title {
        fields.push(quote!(title: #p::Some(#p::Cow::Borrowed(#title))));
    }
    if let Some(WithSpan { value, .. }) = &args.tier {
        let tier = match value {
            Tier::Observe => quote!(Observe),
            Tier::Confirm => quote!(Confirm),
        };
        fields.push(quote!(tier: #p::ToolTier::#tier));
    }
    if let Some(WithSpan { value: ms, .. }) = &args.timeout_ms {
        fields.push(quote!(timeout: #p::Some(#p::Duration::from_millis(#ms))));
    }
    let flags = [
        ("read_only", &args.read_only),
        ("destructive", &args.destructive),
        ("idempotent", &args.idempotent),
        ("open_world", &args.open_world),
        ("concurrency_safe", &args.concurrency_safe),
        ("long_running", &args.long_running),
        ("tasks_only", &args.tasks_only),
        ("asks_first", &args.asks_first),
        ("asks", &args.asks),
        ("samples", &args.samples),
        ("defer", &args.defer),
        ("eager_input_streaming", &args.eager_input_streaming),
    ];
    for (key, flag) in flags {
        if let Some(WithSpan { value, .. }) = flag {
            let key = syn::Ident::new(key, Span::call_site());
            fields.push(quote!(#key: #value));
        }
    }
    // A tool that asks first asks.
    if args.asks.is_none() && args.asks_first.as_ref().is_some_and(|flag| flag.value) {
        fields.push(quote!(asks: true));
    }
    if !args.examples.is_empty() {
        let examples = &args.examples;
        fields
            .push(quote!(input_examples: #p::Cow::Borrowed(&[#(#p::Cow::Borrowed(#examples)),*])));
    }
    if let Some(WithSpan { value, .. }) = &args.callers {
        let callers = match value {
            Callers::Model => quote!(Model),
            Callers::Code => quote!(Code),
            Callers::ModelAndCode => quote!(ModelAndCode),
        };
        fields.push(quote!(callers: #p::Callers::#callers));
    }
    if let Some(scopes) = &args.scopes {
        fields.push(quote!(scopes: #p::Cow::Borrowed(&[#(#p::Cow::Borrowed(#scopes)),*])));
    }
    if let Some(tags) = &args.tags {
        fields.push(quote!(tags: #p::Cow::Borrowed(&[#(#p::Cow::Borrowed(#tags)),*])));
    }
    quote! {
        #p::ToolMetadata {
            #(#fields,)*
            ..#p::ToolMetadata::DEFAULT
        }
    }
}

/// Converts the user's return value into a `ToolResult`, picking `Result` or
/// plain by its type; errors about the type point at `span`.
pub(crate) fn convert_output(
    krate: &Path,
    name: &str,
    output: &syn::Ident,
    span: Span,
) -> TokenStream {
    // Generated hygiene, located at the return type: rustc then underlines
    // the return type when the value's type does not fit.
    let span = Span::mixed_site().located_at(span);
    let output = syn::Ident::new(&output.to_string(), span);
    quote_spanned! {span=>
        {
            #[allow(unused_imports)]
            use #krate::__private::{PlainProbe as _, ResultProbe as _, SourceKind as _};
            (&#output).__tool_return_kind().into_tool_result(#name, #output)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn private_path_strings_have_no_spaces() {
        let cases: [(Path, &str); 3] = [
            (parse_quote!(::tool_core), "::tool_core::__private::serde"),
            (parse_quote!(my_core), "my_core::__private::serde"),
            (
                parse_quote!(crate::reexports::core),
                "crate::reexports::core::__private::serde",
            ),
        ];
        for (krate, expected) in cases {
            assert_eq!(private_path_string(&krate, "serde"), expected);
        }
    }
}
