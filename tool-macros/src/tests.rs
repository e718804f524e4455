//! Unit tests of the whole expansion on `parse_quote!` input: what is
//! emitted, and what is emitted instead when the input has errors.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{File, Item, ItemFn, ItemStruct};

use crate::entry::tool;

/// The expansion, parsed back into items.
fn expand(args: TokenStream, item: TokenStream) -> File {
    let output = tool(args, item);
    match syn::parse2(output.clone()) {
        Ok(file) => file,
        Err(error) => panic!("the expansion does not parse ({error}):\n{output}"),
    }
}

/// The messages of the `compile_error!`s in an expansion, in order.
pub(crate) fn errors(file: &File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Macro(mac)
                if mac
                    .mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                let lit: syn::LitStr = mac.mac.parse_body().expect("a string");
                Some(lit.value())
            }
            _ => None,
        })
        .collect()
}

pub(crate) fn find_fn<'a>(file: &'a File, name: &str) -> Option<&'a ItemFn> {
    file.items.iter().find_map(|item| match item {
        Item::Fn(f) if f.sig.ident == name => Some(f),
        _ => None,
    })
}

pub(crate) fn find_struct<'a>(file: &'a File, name: &str) -> Option<&'a ItemStruct> {
    file.items.iter().find_map(|item| match item {
        Item::Struct(s) if s.ident == name => Some(s),
        _ => None,
    })
}

#[test]
fn a_function_is_kept_and_gets_a_tool_type() {
    let file = expand(
        quote!(read_only),
        quote! {
            /// Get the weather.
            pub async fn get_weather(
                ctx: &ToolContext<App>,
                /// City name.
                #[serde(rename = "town")]
                city: String,
            ) -> String { city }
        },
    );
    assert!(errors(&file).is_empty());
    let function = find_fn(&file, "get_weather").expect("the function is re-emitted");
    let expected: ItemFn = syn::parse_quote! {
        /// Get the weather.
        pub async fn get_weather(ctx: &ToolContext<App>, city: String,) -> String { city }
    };
    assert_eq!(
        function.to_token_stream().to_string(),
        expected.to_token_stream().to_string(),
        "parameter doc comments and #[serde] move off the function, the rest stays"
    );
    let tool_type = find_struct(&file, "GetWeather").expect("the tool type");
    assert!(
        matches!(tool_type.vis, syn::Visibility::Public(_)),
        "same visibility as the function"
    );
    let generated = file.to_token_stream().to_string();
    for expected in [
        "# [doc = r\" City name.\"] # [serde (rename = \"town\")] city : String",
        "IntoTool < App , :: tool_core :: __private :: Generated > for GetWeather",
        "Registration :: with_context",
        "read_only : true",
        "name : \"get_weather\"",
        "description : \"Get the weather.\"",
    ] {
        assert!(
            generated.contains(expected),
            "missing `{expected}` in:\n{generated}"
        );
    }
}

#[test]
fn parameters_with_only_doc_comments_are_read_one_by_one() {
    let file = expand(
        quote!(),
        quote! {
            /// Get the weather.
            fn get_weather(
                /// ## City
                ///
                /// e.g. Paris
                r#type: String,
                days: Option<u8>,
            ) -> String { r#type }
        },
    );
    assert!(errors(&file).is_empty());
    let generated = file.to_token_stream().to_string();
    for expected in [
        "static __TOOL_P0 : :: tool_core :: __private :: Param = :: tool_core :: __private :: Param { name : \"type\" , title : \"City\" , description : \"e.g. Paris\" , }",
        "static __TOOL_P1 : :: tool_core :: __private :: Param = :: tool_core :: __private :: Param { name : \"days\" , title : \"\" , description : \"\" , }",
        "let mut __tool_field1 = :: tool_core :: __private :: Field :: < Option < u8 > , :: tool_core :: __private :: Derived > :: new (& __TOOL_P1) ;",
        "\"type\" => __tool_object . read (0u32 , :: tool_core :: __private :: slot :: < String > (& mut __tool_field0)) ,",
        "_ => return :: tool_core :: __private :: Result :: Err (__tool_object . unknown (__tool_key , & [\"type\" , \"days\"]))",
        "__tool_object . finish (& mut [:: tool_core :: __private :: slot :: < String > (& mut __tool_field0) ,",
        "params_schema (& mut [:: tool_core :: __private :: slot :: < String > (& mut __tool_field0) ,",
    ] {
        assert!(
            generated.contains(expected),
            "missing `{expected}` in:\n{generated}"
        );
    }
    for absent in [
        "__ToolInput",
        "derive_json_schema",
        "check_parameter",
        "'__tool_m",
    ] {
        assert!(
            !generated.contains(absent),
            "no input struct and no bounds, but `{absent}` in:\n{generated}"
        );
    }
}

#[test]
fn a_struct_is_kept_and_gets_a_tool_type() {
    let item = quote! {
        /// Search the web.
        #[derive(Deserialize, Serialize, JsonSchema)]
        pub struct WebSearch { query: String }
    };
    let file = expand(quote!(crate = ::renamed, timeout = "2m"), item.clone());
    assert!(errors(&file).is_empty());
    let kept = find_struct(&file, "WebSearch").expect("the struct is re-emitted");
    assert_eq!(
        kept.to_token_stream().to_string(),
        item.to_string(),
        "unchanged"
    );
    let generated = file.to_token_stream().to_string();
    for expected in [
        "pub struct WebSearchTool ;",
        ":: renamed :: __private :: IntoTool < __C , :: renamed :: __private :: Generated > for WebSearchTool",
        "name : \"web_search\"",
        "Duration :: from_millis (120000u64)",
        "__tool_input . run ()",
    ] {
        assert!(
            generated.contains(expected),
            "missing `{expected}` in:\n{generated}"
        );
    }
}

#[test]
fn every_error_is_reported_and_the_item_still_emitted() {
    let file = expand(
        quote!(nmae = "x", tier = Sometimes),
        quote! {
            fn lookup<T>(_: T, name: &str) {}
        },
    );
    assert_eq!(
        errors(&file),
        [
            "unknown `#[tool]` argument `nmae`; expected one of: `name`, `description`, `title`, `schema`, `output_schema`, `validate`, `allow_unknown_arguments`, `context`, `crate`, `tier`, `timeout`, `read_only`, `destructive`, `idempotent`, `open_world`, `concurrency_safe`, `long_running`, `tasks_only`, `asks_first`, `asks`, `samples`, `defer`, `example`, `eager_input_streaming`, `callers`, `scopes`, `tags`",
            "unknown tier; expected `Observe` or `Confirm`",
            "a `#[tool]` function cannot be generic: the model's arguments need one concrete type to deserialize into",
            "a `#[tool]` parameter needs a name: it becomes the name of the argument",
            "a `#[tool]` parameter must own its value: arguments are deserialized from the model's JSON, which outlives no borrow; take `String`",
            "tool `lookup` has no description; the model reads it to decide when to call the tool: add a `///` doc comment, or `#[tool(description = \"...\")]`",
        ]
    );
    assert!(
        find_fn(&file, "lookup").is_some(),
        "the function is still there"
    );
    assert!(
        find_struct(&file, "Lookup").is_some(),
        "so is the type other code names"
    );
}

#[test]
fn a_method_with_errors_emits_nothing_beside_it() {
    let file = expand(
        quote!(),
        quote!(
            fn add(&self, a: i64) -> i64 {
                a
            }
        ),
    );
    assert_eq!(
        errors(&file).len(),
        2,
        "the receiver, the missing description"
    );
    assert_eq!(
        file.items.len(),
        3,
        "the method and two errors, no type beside it"
    );
}

#[test]
fn other_items_are_refused_and_kept() {
    for item in [
        quote!(
            enum Units {
                C,
                F,
            }
        ),
        quote!(
            const X: u8 = 1;
        ),
        quote!(
            trait T {}
        ),
        quote!(impl X {}),
    ] {
        let file = expand(quote!(), item);
        assert_eq!(
            errors(&file),
            ["`#[tool]` goes on a function or on a struct whose fields are the tool's arguments"]
        );
        assert_eq!(file.items.len(), 2);
    }
}

#[test]
fn odd_input_never_panics() {
    let inputs = [
        (quote!(), quote!()),
        (
            quote!(name =),
            quote!(
                fn f() {}
            ),
        ),
        (
            quote!(timeout = 5),
            quote!(
                fn f() {}
            ),
        ),
        (
            quote!(crate = "not a path!"),
            quote!(
                fn f() {}
            ),
        ),
        (
            quote!(),
            quote!(
                fn __() {}
            ),
        ),
        (
            quote!(),
            quote!(
                fn _1() {}
            ),
        ),
        (quote!(), quote!(struct;)),
        (
            quote!(scopes = []),
            quote!(
                fn f(#[doc = include_str!("x")] a: u8) {}
            ),
        ),
    ];
    for (args, item) in inputs {
        let output = tool(args, item);
        assert!(output.to_string().contains("compile_error"), "{output}");
    }
}

#[test]
fn a_pascal_case_that_is_no_identifier_gets_a_prefix() {
    let file = expand(
        quote!(),
        quote!(
            /// Doc.
            fn _1() {}
        ),
    );
    assert!(find_struct(&file, "Tool1").is_some());
}

#[test]
fn validate_names_what_it_takes_each_error_at_its_name() {
    let file = expand(
        quote!(
            validate = check(start, finish, start, ctx),
            allow_unknown_arguments
        ),
        quote! {
            /// Count the days.
            fn days(ctx: &ToolContext<App>, start: u32, end: u32) -> u32 { end - start }
        },
    );
    assert_eq!(
        errors(&file),
        [
            "`allow_unknown_arguments` is for `#[tool]` structs: a function's parameters are all the arguments it reads",
            "`finish` is not a parameter of `days`: `validate = check(...)` passes the ones it names; expected one of `start`, `end`, `ctx`",
            "`start` is named twice in `validate`",
        ]
    );
    let file = expand(
        quote!(context = App, validate = check(self, end, ctx)),
        quote! {
            /// Count the days.
            struct Days { start: u32 }
        },
    );
    assert_eq!(
        errors(&file),
        [
            "`end` is not `self`, a field of `Days`, or `ctx` (the context): `validate = check(...)` passes the ones it names; expected one of `self`, `start`, `ctx`"
        ]
    );
    let file = expand(
        quote!(validate = check(start + 1), validate = || true),
        quote! {
            /// Count the days.
            struct Days { start: u32 }
        },
    );
    assert_eq!(
        errors(&file),
        [
            "expected the name of a parameter: `validate = check(start, end)` passes each one named, by reference",
            "expected the function that checks the input: `validate = check`, or with the names of what it takes, `validate = check(start, end)`",
        ]
    );
}

#[test]
fn a_bare_output_schema_needs_a_return_type() {
    let file = expand(
        quote!(output_schema),
        quote! {
            /// Do it.
            fn act(x: u32) {}
        },
    );
    assert_eq!(
        errors(&file),
        [
            "a bare `output_schema` derives the schema from the return type, and this function returns nothing; return a type that derives `JsonSchema`, or write `output_schema = ...`"
        ]
    );
}

#[test]
fn a_struct_is_closed_unless_it_allows_unknown_arguments() {
    let expansion = |args: TokenStream| {
        tool(
            args,
            quote! {
                /// Record it.
                struct Record { event: String }
            },
        )
        .to_string()
    };
    let closed = expansion(quote!());
    assert!(closed.contains("closed_schema"), "{closed}");
    assert!(
        closed.contains("read_struct :: < Record > (__tool_args , true)"),
        "{closed}"
    );
    let open = expansion(quote!(allow_unknown_arguments));
    assert!(!open.contains("closed_schema"), "{open}");
    assert!(
        open.contains("read_struct :: < Record > (__tool_args , false)"),
        "{open}"
    );
}

/// The attributes of every `impl` in `items`, at any depth of
/// `const _: () = { ... }`, and of each `const _` on the way, outermost
/// first.
fn impl_and_const_attrs(items: &[Item], impls: &mut Vec<String>, consts: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Impl(item) => impls.push(attrs_text(&item.attrs)),
            Item::Const(item) => {
                consts.push(attrs_text(&item.attrs));
                if let syn::Expr::Block(block) = &*item.expr {
                    let nested: Vec<Item> = block
                        .block
                        .stmts
                        .iter()
                        .filter_map(|stmt| match stmt {
                            syn::Stmt::Item(item) => Some(item.clone()),
                            _ => None,
                        })
                        .collect();
                    impl_and_const_attrs(&nested, impls, consts);
                }
            }
            _ => {}
        }
    }
}

fn attrs_text(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .map(|attr| attr.to_token_stream().to_string())
        .collect()
}

#[test]
fn generated_impls_carry_serde_derives_attributes() {
    let cases = [
        (
            quote!(),
            quote!(
                fn add(a: i64, b: i64) -> i64 {
                    a + b
                }
            ),
        ),
        (
            quote!(output_schema),
            quote!(
                async fn add(ctx: &ToolContext<App>, #[serde(default)] a: i64) -> i64 {
                    a
                }
            ),
        ),
        (
            quote!(context = App),
            quote!(
                struct Add {
                    a: i64,
                }
            ),
        ),
        (
            quote!(),
            quote!(
                struct Add {
                    a: i64,
                }
            ),
        ),
        // The fallback: its stub impl carries the lints itself.
        (
            quote!(unknown),
            quote!(
                fn add(a: i64) -> i64 {
                    a
                }
            ),
        ),
    ];
    for (args, item) in cases {
        let file = expand(args, quote!(#[doc = "Add."] #item));
        let (mut impls, mut consts) = (Vec::new(), Vec::new());
        impl_and_const_attrs(&file.items, &mut impls, &mut consts);
        assert!(!impls.is_empty(), "{item}");
        for attrs in &impls {
            assert!(attrs.contains("automatically_derived"), "{item}: {attrs}");
        }
        let outer = consts.first().unwrap_or(&impls[0]);
        for lint in [
            "non_upper_case_globals",
            "unused_attributes",
            "unused_qualifications",
            "clippy :: absolute_paths",
        ] {
            assert!(outer.contains(lint), "{item}: {outer}");
        }
        assert!(!outer.contains("deprecated"), "{item}: {outer}");
    }
}

#[test]
fn a_deprecated_item_allows_its_generated_uses() {
    for item in [
        quote!(
            #[deprecated = "use `sum`"]
            fn add(a: i64) -> i64 {
                a
            }
        ),
        quote!(
            #[deprecated]
            struct Add {
                a: i64,
            }
        ),
        quote!(
            #[allow(unused, deprecated, reason = "old")]
            fn add(a: i64) -> i64 {
                a
            }
        ),
    ] {
        let file = expand(quote!(), quote!(#[doc = "Add."] #item));
        let (mut impls, mut consts) = (Vec::new(), Vec::new());
        impl_and_const_attrs(&file.items, &mut impls, &mut consts);
        assert!(
            consts[0].contains("allow (deprecated)"),
            "{item}: {consts:?}"
        );
        let kept = file.items[0].to_token_stream().to_string();
        assert!(
            kept.contains("deprecated"),
            "the item keeps its own: {kept}"
        );
    }
}

#[test]
fn a_tool_that_elicits_says_so_with_asks() {
    let body = quote! {
        /// Book a room.
        async fn book_room(ctx: &ToolContext<Hotel>, night: String) -> String {
            let first = ctx.elicit::<Booking>(format!("Which room on {night}?")).await;
            let nights = 0..elicit();
            tokio::select! {
                again = ctx.elicit("Sure?") => again,
                _ = ctx.elicit::<Vec<fn() -> u8>>("odd") => (),
            }
            ctx.elicit_later(); // another method
            elicit(&ctx); // a function, not the method
            String::new()
        }
    };
    let message = "tool `book_room` asks the person (`ctx.elicit`) but does not say so: add `asks` to `#[tool(...)]`, so that its calls can wait for an answer";
    for args in [quote!(), quote!(asks = false, read_only)] {
        assert_eq!(
            errors(&expand(args, body.clone())),
            [message, message, message],
            "each call is an error where it is"
        );
    }
    let file = expand(quote!(asks), body);
    assert!(errors(&file).is_empty());
    assert!(
        file.to_token_stream()
            .to_string()
            .contains("asks : true , .. :: tool_core :: __private :: ToolMetadata :: DEFAULT"),
        "the flag reaches the metadata"
    );
}

#[test]
fn a_tool_that_asks_first_runs_long_and_asks() {
    let body = quote!(
        /// Book.
        async fn book(ctx: &ToolContext) -> String {
            let _ = ctx.elicit::<Party>("For how many?").await;
            String::new()
        }
    );
    let late = "tool `book` is `asks_first` but not `long_running`: only a tool that runs as a task asks before it begins, add `long_running`";
    assert_eq!(errors(&expand(quote!(asks_first), body.clone())), [late]);
    let never = "tool `book` is `asks_first`, which asks: remove `asks = false`";
    assert_eq!(
        errors(&expand(
            quote!(long_running, asks_first, asks = false),
            body.clone()
        )),
        [never]
    );
    let file = expand(quote!(long_running, asks_first), body);
    assert!(errors(&file).is_empty(), "asks_first is leave to ask");
    let expanded = file.to_token_stream().to_string();
    assert!(expanded.contains("asks_first : true"));
    assert!(expanded.contains("asks : true"), "asks_first asks");
}

#[test]
fn a_tool_that_does_not_ask_says_nothing_of_it() {
    let file = expand(
        quote!(),
        quote! {
            /// Echo.
            fn echo(text: String) -> String { text }
        },
    );
    assert!(!file.to_token_stream().to_string().contains("asks"));
}

#[test]
fn a_tool_that_runs_only_as_a_task_runs_long() {
    let body = quote!(
        /// Render.
        async fn render() -> String {
            String::new()
        }
    );
    let message = "tool `render` is `tasks_only` but not `long_running`: a tool that runs only as a task runs long, add `long_running`";
    assert_eq!(errors(&expand(quote!(tasks_only), body.clone())), [message]);
    let file = expand(quote!(tasks_only, long_running), body);
    assert!(errors(&file).is_empty());
    assert!(
        file.to_token_stream()
            .to_string()
            .contains("tasks_only : true"),
        "the flag reaches the metadata"
    );
}
