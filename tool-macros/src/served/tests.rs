//! Unit tests of the whole expansion of `#[resource]` and `#[prompt]` on
//! `quote!` input: what is emitted, and what is emitted instead when the
//! input has errors.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::File;

use super::{Kind, expand};
use crate::tests::{errors, find_fn, find_struct};

/// The expansion, parsed back into items.
fn expanded(kind: Kind, args: TokenStream, item: TokenStream) -> File {
    let output = expand(kind, args, item);
    match syn::parse2(output.clone()) {
        Ok(file) => file,
        Err(error) => panic!("the expansion does not parse ({error}):\n{output}"),
    }
}

fn assert_contains(file: &File, expected: &[&str]) {
    let generated = file.to_token_stream().to_string();
    for expected in expected {
        assert!(
            generated.contains(expected),
            "missing `{expected}` in:\n{generated}"
        );
    }
}

#[test]
fn a_template_resource_reads_each_value_at_its_type() {
    let file = expanded(
        Kind::Resource,
        quote!(
            uri = "test://template/{id}/{+path}",
            mime_type = "application/json",
            complete = ids
        ),
        quote! {
            /// The data of an id.
            pub async fn template_data(
                path: String,
                ctx: &ToolContext<App>,
                /// Which one.
                #[serde(rename = "id")]
                number: u32,
            ) -> Result<Value, ResourceError> { Ok(Value::Null) }
        },
    );
    assert!(errors(&file).is_empty());
    let function = find_fn(&file, "template_data").expect("the function is re-emitted");
    assert_eq!(
        function.sig.to_token_stream().to_string(),
        quote!(async fn template_data(path: String, ctx: &ToolContext<App>, number: u32,) -> Result<Value, ResourceError>).to_string(),
        "the parameters' doc comments and `#[serde]` move off the function"
    );
    let served = find_struct(&file, "TemplateData").expect("the resource's type");
    assert!(matches!(served.vis, syn::Visibility::Public(_)));
    assert_contains(
        &file,
        &[
            "impl :: tool_core :: __private :: Resource < App > for TemplateData",
            "fn uri (& self) -> & str { \"test://template/{id}/{+path}\" }",
            "fn name (& self) -> & str { \"template_data\" }",
            "fn description (& self) -> & str { \"The data of an id.\" }",
            "Some (\"application/json\")",
            // In the template's order, each at its type.
            "template_value :: < u32 > (__resource_read , \"id\")",
            "template_value :: < String > (__resource_read , \"path\")",
            "template_data (__served_path , __resource_ctx , __served_number) . await",
            "resource_contents (__resource_read , :: tool_core :: __private :: Some (\"application/json\") , __resource_output)",
            "ids (__served_name , __served_prefix)",
        ],
    );
    let generated = file.to_token_stream().to_string();
    let id = generated.find("\"id\")").unwrap_or(usize::MAX);
    let path = generated.find("\"path\")").unwrap_or(0);
    assert!(id < path, "read in the template's order");
}

#[test]
fn a_fixed_resource_without_a_context_fits_any() {
    let file = expanded(
        Kind::Resource,
        quote!(uri = "test://static-text", name = "static-text"),
        quote! {
            /// The text.
            fn static_text() -> &'static str { "t" }
        },
    );
    assert!(errors(&file).is_empty());
    assert_contains(
        &file,
        &[
            "impl < __C > :: tool_core :: __private :: Resource < __C > for StaticText",
            "fn name (& self) -> & str { \"static-text\" }",
            "let __resource_output = static_text () ;",
        ],
    );
    let generated = file.to_token_stream().to_string();
    assert!(
        !generated.contains("fn mime_type"),
        "none said: the default"
    );
    assert!(
        !generated.contains("fn complete"),
        "none known: the default"
    );
}

#[test]
fn a_prompt_lists_its_arguments_and_reads_each() {
    let file = expanded(
        Kind::Prompt,
        quote!(complete = focuses),
        quote! {
            /// Review a change.
            async fn review(
                /// The change,
                /// as a diff.
                diff: String,
                ctx: &ToolContext,
                #[serde(rename = "focusArea")]
                focus: Option<Focus>,
            ) -> String { diff }
        },
    );
    assert!(errors(&file).is_empty());
    assert_contains(
        &file,
        &[
            "impl :: tool_core :: __private :: Prompt < () > for Review",
            "PromptArgument :: required (\"diff\" , \"The change,\\nas a diff.\")",
            "PromptArgument :: optional (\"focusArea\" , \"\")",
            "prompt_argument :: < String > (\"review\" , __prompt_arguments , \"diff\")",
            "optional_prompt_argument :: < Focus > (\"review\" , __prompt_arguments , \"focusArea\")",
            "review (__served_diff , __prompt_ctx , __served_focus) . await",
            "prompt_messages (\"review\" , __prompt_output)",
            "focuses (__served_name , __served_prefix)",
        ],
    );
}

#[test]
fn every_error_of_a_resource_is_reported_at_once() {
    let file = expanded(
        Kind::Resource,
        quote!(
            uri = "logs://{day}/{level}",
            mime = "text/plain",
            uri = "x://y"
        ),
        quote! {
            /// A day's log.
            fn log<T>(date: String, (a, b): (u8, u8), level: String) -> String { date }
        },
    );
    assert_eq!(
        errors(&file),
        [
            "unknown `#[resource]` argument `mime`; expected one of: `uri`, `name`, `description`, `mime_type`, `complete`, `crate`",
            "duplicate `#[resource]` argument `uri`",
            "a `#[resource]` function cannot be generic: each of its values is read from text into one concrete type",
            "a `#[resource]` parameter must be a plain name, not a pattern: the name is the name of the template's value it takes",
            "the URI template names `day`, and `log` has no parameter `day` to take its value: add `day: String` (or any type that implements `FromStr`)",
            "`date` is not a name of the URI template `logs://{day}/{level}`, which names `day`, `level`: each parameter but the context takes the value of the name it is called by",
        ]
    );
    assert!(
        find_fn(&file, "log").is_some(),
        "the function is still there"
    );
    assert!(
        find_struct(&file, "Log").is_some(),
        "so is the type other code names"
    );
    assert_contains(&file, &["Resource < __C > for Log", "served_fallback ()"]);
}

#[test]
fn a_resource_needs_a_uri_that_reads_and_names_what_it_takes() {
    let messages =
        |args: TokenStream, item: TokenStream| errors(&expanded(Kind::Resource, args, item));
    assert_eq!(
        messages(
            quote!(),
            quote!(
                fn f() -> String {
                    String::new()
                }
            )
        ),
        [
            "`#[resource]` needs the URI it is read at: `#[resource(uri = \"file:///notes.md\")]`, or the template of its URIs: `#[resource(uri = \"notes://{day}\")]`"
        ]
    );
    assert_eq!(
        messages(
            quote!(uri = "a://{x}{y}"),
            quote!(
                fn f(x: String, y: String) -> String {
                    x
                }
            )
        ),
        ["URI template `a://{x}{y}`: `{y}` follows another name with nothing between them"]
    );
    assert_eq!(
        messages(
            quote!(uri = "a://fixed", complete = ids),
            quote!(
                fn f(ctx: &ToolContext, id: String) -> String {
                    id
                }
            )
        ),
        [
            "`a://fixed` is a fixed URI, which names nothing, so `f` takes no parameter but the context; to read many URIs, name their parts in a template: `{id}`",
            "`complete` completes the names of a URI template, and `a://fixed` names none",
        ]
    );
}

#[test]
fn every_error_of_a_prompt_is_reported_at_once() {
    let file = expanded(
        Kind::Prompt,
        quote!(uri = "a://b", name = ""),
        quote! {
            /// Review.
            fn review(
                &self,
                #[schemars(length(max = 3))]
                diff: String,
                #[serde(default)]
                focus: String,
                _: String,
            ) -> String { diff }
        },
    );
    assert_eq!(
        errors(&file),
        [
            "unknown `#[prompt]` argument `uri`; expected one of: `name`, `description`, `complete`, `crate`",
            "a `#[prompt]` function cannot take `self`; put `#[prompt]` on a free function",
            "a `#[prompt]` parameter takes no `#[schemars]`: its value is text, read with `FromStr`, and has no schema",
            "a `#[prompt]` parameter takes only `#[serde(rename = \"...\")]`: its value is read from text with `FromStr`, not deserialized",
            "a `#[prompt]` parameter must be a plain name, not a pattern: the name is the name of the argument",
            "a prompt's name cannot be empty",
        ]
    );
    // A method: a type beside it would not be legal where it stands.
    assert!(find_struct(&file, "Review").is_none());
}

#[test]
fn a_prompt_without_arguments_completes_none_and_names_are_unique() {
    let messages = |item: TokenStream| errors(&expanded(Kind::Prompt, quote!(complete = c), item));
    assert_eq!(
        messages(quote!(
            fn hello() -> String {
                String::new()
            }
        )),
        ["`complete` completes the arguments of a prompt, and `hello` takes none"]
    );
    assert_eq!(
        messages(quote!(
            fn hello(a: String, #[serde(rename = "a")] b: String) -> String {
                a
            }
        )),
        ["two parameters are named `a`"]
    );
}

#[test]
fn an_item_that_is_not_a_function_is_refused_at_its_keyword() {
    let file = expanded(
        Kind::Prompt,
        quote!(),
        quote!(
            struct Review;
        ),
    );
    assert_eq!(errors(&file), ["`#[prompt]` goes on a function"]);
}
