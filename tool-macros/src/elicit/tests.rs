//! Unit tests of `#[derive(Elicit)]` on `parse_quote!` input: the impls
//! and the checks each shape gets, and every error of its own, at once.

use proc_macro2::TokenStream;
use quote::quote;

use super::derive;

/// The expansion as text, the way `quote` prints tokens.
fn expanded(input: TokenStream) -> String {
    derive(input).to_string()
}

/// The `compile_error!` messages of an expansion, in order.
fn errors(input: TokenStream) -> Vec<String> {
    let file: syn::File = match syn::parse2(derive(input)) {
        Ok(file) => file,
        Err(error) => panic!("the expansion does not parse: {error}"),
    };
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(mac)
                if mac
                    .mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                mac.mac
                    .parse_body::<syn::LitStr>()
                    .ok()
                    .map(|lit| lit.value())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_question_bounds_each_asked_field_at_its_type() {
    let output = expanded(quote! {
        struct Booking {
            room: Room,
            note: Option<String>,
            #[serde(flatten)]
            stay: Stay,
            #[serde(skip)]
            seen: Vec<Seen>,
            #[serde(skip_deserializing)]
            later: Later,
            #[schemars(with = "String")]
            arrival: Arrival,
            #[schemars(schema_with = "any")]
            free: Free,
        }
    });
    let p = ":: tool_core :: __private";
    assert!(output.contains(&format!("impl {p} :: Elicit for Booking")));
    assert!(output.contains(&format!(
        "fn __requested_schema () -> {p} :: Result < {p} :: Arc < {p} :: Value > , {p} :: ElicitError > {{ {p} :: elicit_requested_schema :: < Self > () }}"
    )));
    assert!(output.contains(&format!(
        "fn __elicit_fields () {{ {p} :: elicit_field :: < Room > () ; {p} :: elicit_field :: < Option < String > > () ; {p} :: elicit_flattened :: < Stay > () ; {p} :: elicit_field :: < String > () ; }}"
    )));
    assert!(output.starts_with("# [doc (hidden)] # [allow ("));
    assert!(!output.contains("ElicitChoice"));
}

#[test]
fn a_choice_and_a_newtype_are_values_and_a_choice_a_choice() {
    let choice = expanded(quote! {
        #[serde(rename_all = "snake_case")]
        enum Room { Single, #[serde(skip)] Other(String), Double }
    });
    assert!(choice.contains("impl :: tool_core :: __private :: ElicitChoice for Room { }"));
    assert!(choice.contains("impl :: tool_core :: __private :: ElicitValue for Room { }"));
    let newtype = expanded(quote! {
        #[elicit(crate = my_core)]
        struct Email(#[schemars(email)] String);
    });
    assert!(newtype.contains("impl my_core :: __private :: ElicitValue for Email { }"));
    assert!(newtype.contains(
        "fn __elicit_fields () { my_core :: __private :: elicit_field :: < String > () ; }"
    ));
}

#[test]
fn what_cannot_be_asked_is_refused_each_at_once() {
    assert_eq!(
        errors(quote!(
            struct Pair(String, u8);
        )),
        [
            "`#[derive(Elicit)]` needs a struct with named fields: the person is asked for an object whose properties are the fields"
        ]
    );
    assert_eq!(
        errors(quote!(
            struct Nothing;
        )),
        [
            "`#[derive(Elicit)]` needs a struct with named fields: the person is asked for an object whose properties are the fields"
        ]
    );
    assert_eq!(
        errors(quote!(
            union Bits { a: u8 }
        )),
        [
            "`#[derive(Elicit)]` needs a struct with named fields, or an enum of unit variants; not a union"
        ]
    );
    assert_eq!(
        errors(quote!(
            struct Answer<T> {
                value: T,
            }
        )),
        ["`#[derive(Elicit)]` takes no generic parameters"]
    );
    assert_eq!(
        errors(quote! {
            #[serde(untagged)]
            #[serde(tag = "kind", content = "value")]
            #[elicit(crate = a, krate = b)]
            enum Room { Single, Other(String), Named { beds: u8 }, #[serde(untagged)] Any }
        }),
        [
            "unknown `#[elicit]` argument `krate`; expected one of: `crate`",
            "`#[serde(untagged)]` changes how `Room` is written: a choice is written as its variant's name",
            "`#[serde(tag = ...)]` changes how `Room` is written: a choice is written as its variant's name",
            "`#[serde(content = ...)]` changes how `Room` is written: a choice is written as its variant's name",
            "variant `Other` carries data: a choice asked of a person is an enum of unit variants",
            "variant `Named` carries data: a choice asked of a person is an enum of unit variants",
            "`#[serde(untagged)]` changes how `Any` is written: a choice is written as its variant's name",
        ]
    );
    assert_eq!(
        errors(quote!(
            enum Never {}
        )),
        ["`Never` has no variants: a choice asked of a person offers at least one"]
    );
}

#[test]
fn with_errors_the_impls_other_code_uses_are_still_emitted() {
    let question = expanded(quote! {
        #[elicit(krate = x)]
        struct Booking { room: Room }
    });
    assert!(question.contains("impl :: tool_core :: __private :: Elicit for Booking"));
    assert!(question.contains(":: tool_core :: __private :: elicit_fallback ()"));
    assert!(!question.contains("elicit_field"));
    let choice = expanded(quote!(
        enum Room {
            Single,
            Other(String),
        }
    ));
    assert!(choice.contains("impl :: tool_core :: __private :: ElicitChoice for Room { }"));
    let generic = expanded(quote!(
        struct Answer<T> {
            value: T,
        }
    ));
    assert!(!generic.contains("impl"), "{generic}");
}
