//! Every rule a `#[tool]` can break, applied to the parsed arguments and
//! the IR: the shapes of function and struct `#[tool]` cannot use, a name
//! providers accept, a description, keys that fit the form they are used
//! on. Each error points at the user's tokens that break the rule.
//!
//! The errors come out in the order the rules run: the shape of the item,
//! each parameter in turn, then the name, the description and the keys.
//! `attr` and `docs` have reported what could not be parsed before.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned;
use syn::{GenericArgument, Item, PathArguments, ReturnType, Signature, Type};

use crate::ast::{Arg, Context, Param, Taken, ToolFn, ToolStruct};
use crate::attr::{OutputSchema, ToolArgs, Validate};
use crate::ctxt::Errors;

/// The checked name and description of a tool.
pub(crate) struct Identity {
    pub(crate) name: String,
    pub(crate) description: String,
}

/// Checks a `#[tool]` function and its arguments.
pub(crate) fn function(tool: &ToolFn, args: &ToolArgs, errors: &mut Errors) -> Identity {
    signature(&tool.item.sig, errors);
    parameters(tool, errors);
    if let Some(context) = &args.context {
        errors.spanned(
            context,
            "`context` is for `#[tool]` structs; a function takes a `&ToolContext<C>` parameter instead",
        );
    }
    if let Some(flag) = &args.allow_unknown_arguments {
        errors.push(syn::Error::new(
            flag.span,
            "`allow_unknown_arguments` is for `#[tool]` structs: a function's parameters are all the arguments it reads",
        ));
    }
    if let (Some(OutputSchema::Derived(span)), ReturnType::Default) =
        (&args.output_schema, &tool.item.sig.output)
    {
        errors.push(syn::Error::new(
            *span,
            "a bare `output_schema` derives the schema from the return type, and this function returns nothing; return a type that derives `JsonSchema`, or write `output_schema = ...`",
        ));
    }
    let identity = identity(
        args,
        tool.default_name(),
        tool.docs.as_deref(),
        tool.item.sig.ident.span(),
        errors,
    );
    schemars_with_schema(args, tool, errors);
    if let Some(validate) = &args.validate {
        let params = tool
            .named_params()
            .map(|(ident, _)| ident.unraw().to_string());
        let context = tool.contexts().filter_map(|context| context.name.as_ref());
        let known: Vec<String> = params
            .chain(context.map(|name| name.unraw().to_string()))
            .collect();
        let owner = format!("a parameter of `{}`", tool.item.sig.ident.unraw());
        validate_names(validate, &known, &owner, errors);
    }
    let asks_first = args.asks_first.as_ref().is_some_and(|flag| flag.value);
    if !asks_first && !args.asks.as_ref().is_some_and(|asks| asks.value) {
        let mut calls = Vec::new();
        elicit_calls(tool.item.block.to_token_stream(), &mut calls);
        for call in calls {
            errors.spanned(
                call,
                format!("tool `{}` asks the person (`ctx.elicit`) but does not say so: add `asks` to `#[tool(...)]`, so that its calls can wait for an answer", identity.name),
            );
        }
    }
    identity
}

/// Each method call `.elicit(...)` or `.elicit::<T>(...)` in `tokens`, as
/// its tokens from the dot to the name or the turbofish's end: what a tool
/// that is not `asks` must not do. Read from the tokens, not the syntax
/// tree, so that calls inside macros (`tokio::select!`, `format!`) count
/// too; the method's receiver is not known, so this is a heuristic that
/// only names what is almost surely `ToolContext::elicit`.
fn elicit_calls(tokens: TokenStream, found: &mut Vec<TokenStream>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(group) => {
                elicit_calls(group.stream(), found);
                continue;
            }
            TokenTree::Punct(dot) if dot.as_char() == '.' => {}
            _ => continue,
        }
        // `a..elicit()` is a range up to a function's value.
        let after_dot = i
            .checked_sub(1)
            .and_then(|before| tokens.get(before))
            .is_some_and(|before| matches!(before, TokenTree::Punct(p) if p.as_char() == '.'));
        let named = matches!(tokens.get(i + 1), Some(TokenTree::Ident(name)) if name == "elicit");
        if after_dot || !named {
            continue;
        }
        match tokens.get(i + 2) {
            // .elicit(...)
            Some(TokenTree::Group(args)) if args.delimiter() == Delimiter::Parenthesis => {
                found.push(tokens[i..i + 2].iter().cloned().collect());
            }
            // .elicit::<T>(...)
            Some(TokenTree::Punct(colon)) if colon.as_char() == ':' => {
                let end = turbofish_end(&tokens, i + 2).unwrap_or(i + 1);
                found.push(tokens[i..=end].iter().cloned().collect());
            }
            _ => {}
        }
    }
}

/// The index of the `>` that closes the turbofish `::<...>` starting at
/// `start`, if it closes.
fn turbofish_end(tokens: &[TokenTree], start: usize) -> Option<usize> {
    let mut depth = 0_usize;
    for (i, token) in tokens.iter().enumerate().skip(start) {
        let TokenTree::Punct(punct) = token else {
            continue;
        };
        match punct.as_char() {
            '<' => depth += 1,
            // `->` in `fn() -> T` closes nothing.
            '>' if !matches!(tokens.get(i - 1), Some(TokenTree::Punct(p)) if p.as_char() == '-') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The names a `validate = check(...)` lists: each one of `known`, once.
fn validate_names(validate: &Validate, known: &[String], owner: &str, errors: &mut Errors) {
    let Some(names) = &validate.names else {
        return;
    };
    let mut seen: Vec<String> = Vec::new();
    for name in names {
        let text = name.unraw().to_string();
        if !known.contains(&text) {
            let expected: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            let expected = if expected.is_empty() {
                "there is none".to_owned()
            } else {
                format!("expected one of {}", expected.join(", "))
            };
            errors.spanned(
                name,
                format!("`{text}` is not {owner}: `validate = check(...)` passes the ones it names; {expected}"),
            );
        } else if seen.contains(&text) {
            errors.spanned(name, format!("`{text}` is named twice in `validate`"));
        } else {
            seen.push(text);
        }
    }
}

/// Checks a `#[tool]` struct and its arguments.
pub(crate) fn structure(tool: &ToolStruct, args: &ToolArgs, errors: &mut Errors) -> Identity {
    let item = &tool.item;
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        errors.spanned(
            &item.generics,
            "a `#[tool]` struct cannot be generic: the model's arguments need one concrete type to deserialize into",
        );
    }
    if !matches!(item.fields, syn::Fields::Named(_)) {
        errors.spanned(
            &item.ident,
            "a `#[tool]` struct needs named fields, one per argument (`struct Ping {}` for a tool without arguments)",
        );
    }
    if let Some(validate) = &args.validate {
        let mut known = vec!["self".to_owned()];
        known.extend(
            item.fields
                .iter()
                .filter_map(|field| Some(field.ident.as_ref()?.unraw().to_string())),
        );
        if args.context.is_some() {
            known.push("ctx".to_owned());
        }
        let owner = if args.context.is_some() {
            format!(
                "`self`, a field of `{}`, or `ctx` (the context)",
                item.ident.unraw()
            )
        } else {
            format!("`self` or a field of `{}`", item.ident.unraw())
        };
        validate_names(validate, &known, &owner, errors);
    }
    identity(
        args,
        tool.default_name(),
        tool.docs.as_deref(),
        item.ident.span(),
        errors,
    )
}

/// The error for an item that is neither a function nor a struct, at the
/// keyword that says what it is.
pub(crate) fn unsupported_item(item: &Item) -> syn::Error {
    syn::Error::new_spanned(
        item_keyword(item),
        "`#[tool]` goes on a function or on a struct whose fields are the tool's arguments",
    )
}

/// The keyword that says what an item is, to point at.
pub(crate) fn item_keyword(item: &Item) -> TokenStream {
    match item {
        Item::Enum(item) => item.enum_token.to_token_stream(),
        Item::Const(item) => item.const_token.to_token_stream(),
        Item::Static(item) => item.static_token.to_token_stream(),
        Item::Trait(item) => item.trait_token.to_token_stream(),
        Item::Impl(item) => item.impl_token.to_token_stream(),
        Item::Mod(item) => item.mod_token.to_token_stream(),
        Item::Type(item) => item.type_token.to_token_stream(),
        Item::Union(item) => item.union_token.to_token_stream(),
        Item::Use(item) => item.use_token.to_token_stream(),
        other => other.to_token_stream(),
    }
}

/// The shapes of function a model cannot call.
fn signature(sig: &Signature, errors: &mut Errors) {
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.spanned(
            &sig.generics,
            "a `#[tool]` function cannot be generic: the model's arguments need one concrete type to deserialize into",
        );
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.spanned(
            token,
            "a `#[tool]` function cannot be `unsafe`: nothing could uphold its contract when a model calls it",
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.spanned(variadic, "a `#[tool]` function cannot be variadic");
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(_) = &**ty
    {
        errors.spanned(
            ty,
            "a `#[tool]` function cannot return `impl Trait`; return a concrete type (write `async fn` instead of returning `impl Future`)",
        );
    }
}

/// Every parameter, in order: no `self`, at most one context, taken by
/// shared reference, and parameters the model's arguments can become.
fn parameters(tool: &ToolFn, errors: &mut Errors) {
    let mut first_context: Option<Span> = None;
    for arg in &tool.args {
        match arg {
            Arg::Receiver(receiver) => errors.spanned(
                receiver,
                "a `#[tool]` function cannot take `self`; put `#[tool]` on a free function, or on a struct whose fields are the arguments",
            ),
            Arg::Context(context) => {
                context_type(context, errors);
                if let Some(attr) = context.attrs.first() {
                    errors.spanned(
                        attr,
                        "the context parameter is not part of the input schema, so it takes no doc comment, `#[serde]` or `#[schemars]`",
                    );
                }
                one_context(context, &mut first_context, "#[tool]", errors);
            }
            Arg::Param(param) => {
                param_type(&param.ty, errors);
                param_name(param, errors);
            }
        }
    }
}

/// The context is taken as `&ToolContext<C>`, `C` a type: what any
/// function the crate's attributes go on takes it as.
pub(crate) fn context_type(context: &Context, errors: &mut Errors) {
    match context.taken {
        Taken::Shared => {}
        Taken::Value => {
            errors.spanned(
                &context.ty,
                "take the context by reference: `&ToolContext<...>`",
            );
        }
        Taken::Mutable => errors.spanned(
            &context.ty,
            "take the context by shared reference: `&ToolContext<...>`, not `&mut`",
        ),
    }
    match &context.arguments {
        PathArguments::None => {}
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => {
            if !matches!(args.args.first(), Some(GenericArgument::Type(_))) {
                errors.spanned(
                    &args.args,
                    "expected the application's state type: `ToolContext<App>`",
                );
            }
        }
        other => errors.spanned(other, "expected one type argument: `ToolContext<App>`"),
    }
}

/// A function takes at most one context: `first` is where the first one
/// was, `what` the attribute (`#[tool]`), for the message.
pub(crate) fn one_context(
    context: &Context,
    first: &mut Option<Span>,
    what: &str,
    errors: &mut Errors,
) {
    match first {
        Some(first) => {
            let mut error = syn::Error::new_spanned(
                &context.ty,
                format!("a `{what}` function takes at most one `&ToolContext` parameter"),
            );
            error.combine(syn::Error::new(*first, "the first one is here"));
            errors.push(error);
        }
        None => *first = Some(context.ty.span()),
    }
}

/// Parameter types the model's arguments cannot become.
fn param_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::Reference(reference) => {
            let suggestion = match &*reference.elem {
                Type::Path(path) if path.path.is_ident("str") => "`String`".to_owned(),
                Type::Slice(slice) => format!("`Vec<{}>`", type_text(&slice.elem)),
                _ => "an owned type".to_owned(),
            };
            errors.spanned(
                ty,
                format!("a `#[tool]` parameter must own its value: arguments are deserialized from the model's JSON, which outlives no borrow; take {suggestion}"),
            );
        }
        Type::ImplTrait(_) => errors.spanned(
            ty,
            "a `#[tool]` parameter cannot be `impl Trait`: the arguments need one concrete type to deserialize into",
        ),
        Type::Infer(_) => errors.spanned(ty, "a `#[tool]` parameter needs a concrete type"),
        _ => {}
    }
}

/// A type as a person writes it, for a message: a space only between two
/// words and after a comma (`&'a str`, `(u8, String)`), where a token
/// string spaces every token.
fn type_text(ty: &Type) -> String {
    fn write(tokens: TokenStream, out: &mut String, after_word: &mut bool) {
        for token in tokens {
            match token {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::None => ("", ""),
                    };
                    out.push_str(open);
                    *after_word = false;
                    write(group.stream(), out, after_word);
                    out.push_str(close);
                    *after_word = false;
                }
                TokenTree::Punct(punct) => {
                    out.push(punct.as_char());
                    if punct.as_char() == ',' {
                        out.push(' ');
                    }
                    *after_word = false;
                }
                word @ (TokenTree::Ident(_) | TokenTree::Literal(_)) => {
                    if *after_word {
                        out.push(' ');
                    }
                    out.push_str(&word.to_string());
                    *after_word = true;
                }
            }
        }
    }
    let mut out = String::new();
    write(ty.to_token_stream(), &mut out, &mut false);
    out
}

/// A parameter is a plain name: it becomes the name of the argument.
fn param_name(param: &Param, errors: &mut Errors) {
    if param.ident().is_some() {
        return;
    }
    let message = match &param.pat {
        syn::Pat::Wild(_) => {
            "a `#[tool]` parameter needs a name: it becomes the name of the argument"
        }
        _ => {
            "a `#[tool]` parameter must be a plain name, not a pattern: the name becomes the name of the argument"
        }
    };
    errors.spanned(&param.pat, message);
}

/// Checks the name (`^[a-zA-Z0-9_-]{1,64}$`), that there is a description,
/// and the keys that describe the tool; `item_span` is where to point when
/// the item itself is the problem.
fn identity(
    args: &ToolArgs,
    default_name: String,
    docs: Option<&str>,
    item_span: Span,
    errors: &mut Errors,
) -> Identity {
    let (name, name_span) = match &args.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (default_name, item_span),
    };
    if let Err(why) = check_name(&name) {
        errors.push(syn::Error::new(
            name_span,
            format!("invalid tool name `{name}`: {why}; providers accept 1 to 64 ASCII letters, digits, `_` and `-` (set one with `#[tool(name = \"...\")]`)"),
        ));
    }

    let (description, description_span) = match &args.description {
        Some(lit) => (lit.value(), lit.span()),
        None => (docs.unwrap_or_default().to_owned(), item_span),
    };
    if description.trim().is_empty() {
        errors.push(syn::Error::new(
            description_span,
            format!("tool `{name}` has no description; the model reads it to decide when to call the tool: add a `///` doc comment, or `#[tool(description = \"...\")]`"),
        ));
    }
    if let Some(title) = &args.title
        && title.value().trim().is_empty()
    {
        errors.spanned(title, "a tool's title cannot be empty");
    }
    if let Some(tasks_only) = &args.tasks_only
        && tasks_only.value
        && !args.long_running.as_ref().is_some_and(|flag| flag.value)
    {
        errors.push(syn::Error::new(
            tasks_only.span,
            format!("tool `{name}` is `tasks_only` but not `long_running`: a tool that runs only as a task runs long, add `long_running`"),
        ));
    }
    if let Some(asks_first) = &args.asks_first
        && asks_first.value
        && !args.long_running.as_ref().is_some_and(|flag| flag.value)
    {
        errors.push(syn::Error::new(
            asks_first.span,
            format!("tool `{name}` is `asks_first` but not `long_running`: only a tool that runs as a task asks before it begins, add `long_running`"),
        ));
    }
    if let Some((asks_first, asks)) = args.asks_first.as_ref().zip(args.asks.as_ref())
        && asks_first.value
        && !asks.value
    {
        errors.push(syn::Error::new(
            asks.span,
            format!("tool `{name}` is `asks_first`, which asks: remove `asks = false`"),
        ));
    }
    if let (Some(read_only), Some(destructive)) = (&args.read_only, &args.destructive)
        && read_only.value
        && destructive.value
    {
        errors.push(syn::Error::new(
            destructive.span,
            "a `read_only` tool cannot be `destructive`: it changes nothing",
        ));
    }
    Identity { name, description }
}

/// Why `name` is not a name every provider accepts.
///
/// The same rule, with the same reasons, as tool-core's `check_tool_name`,
/// which refuses such names at registration: a proc-macro crate cannot call
/// into the runtime that depends on it. `ui-tests/tests/fail/bad-name.rs`,
/// `ui-tests/tests/fail/name-too-long.rs` and `tests/dispatch/typed_tools.rs`
/// pin both messages.
pub(crate) fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        Err("it is empty")
    } else if name.len() > 64 {
        Err("it is longer than 64 characters")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        Err("it has a character other than an ASCII letter, digit, `_` or `-`")
    } else {
        Ok(())
    }
}

/// `#[schemars]` on a parameter shapes the derived schema; with a
/// hand-written `schema = ...` it would do nothing, silently.
fn schemars_with_schema(args: &ToolArgs, tool: &ToolFn, errors: &mut Errors) {
    if args.schema.is_none() {
        return;
    }
    let attrs = tool.params().flat_map(|param| &param.attrs);
    for attr in attrs.filter(|attr| attr.path().is_ident("schemars")) {
        errors.spanned(
            attr,
            "`#[schemars]` has no effect on a tool with a hand-written `schema = ...`",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn type_text_spaces_words_and_commas_only() {
        let cases: [(Type, &str); 4] = [
            (parse_quote!(Vec<u8>), "Vec<u8>"),
            (parse_quote!(&'a str), "&'a str"),
            (
                parse_quote!((u8, ::std::string::String)),
                "(u8, ::std::string::String)",
            ),
            (
                parse_quote!(<Metric as Units>::Value),
                "<Metric as Units>::Value",
            ),
        ];
        for (ty, text) in cases {
            assert_eq!(type_text(&ty), text);
        }
    }
}
