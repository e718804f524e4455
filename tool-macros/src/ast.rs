//! The IR: what the user wrote, checked for shape, with the tokens kept so
//! every later error can point at them.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ItemFn, ItemStruct, Pat, PathArguments, ReturnType,
    Type, TypePath,
};

use crate::ctxt::Errors;
use crate::docs::{doc_text, is_doc};

/// A `#[tool]` function.
pub(crate) struct ToolFn {
    /// The function as it is re-emitted: parameter doc comments and
    /// `#[serde]`/`#[schemars]` attributes moved off (they are not legal
    /// there and belong to the input struct).
    pub(crate) item: ItemFn,
    /// The doc comments on the function.
    pub(crate) docs: Option<String>,
    /// The parameters, in the order the function takes them.
    pub(crate) args: Vec<Arg>,
    /// `C` of the `&ToolContext<C>` parameter, if there is one.
    pub(crate) context: Option<Type>,
}

/// One parameter of a `#[tool]` function.
pub(crate) enum Arg {
    /// The `&ToolContext<C>` parameter.
    Context,
    /// A parameter the model fills in.
    Param(Box<Param>),
}

/// A parameter the model fills in: a property of the input schema.
pub(crate) struct Param {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    /// Doc comments, `#[serde]` and `#[schemars]`: the field's attributes.
    pub(crate) attrs: Vec<Attribute>,
}

/// A `#[tool]` struct: the struct is the input.
pub(crate) struct ToolStruct {
    pub(crate) item: ItemStruct,
    pub(crate) docs: Option<String>,
}

impl ToolFn {
    /// Reads the function, reporting every shape `#[tool]` cannot use.
    pub(crate) fn from_syn(mut item: ItemFn, errors: &mut Errors) -> Self {
        let sig = &item.sig;
        if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
            errors.spanned(
                &sig.generics,
                "a `#[tool]` function cannot be generic: the model's arguments need one concrete type to deserialize into",
            );
        }
        if let syn::Safety::Unsafe(token) = &sig.safety {
            errors.spanned(token, "a `#[tool]` function cannot be `unsafe`: nothing could uphold its contract when a model calls it");
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

        let docs = doc_text(&item.attrs, errors);
        let mut args = Vec::new();
        let mut context: Option<(Type, Span)> = None;
        for input in item.sig.inputs.iter_mut() {
            let typed = match input {
                FnArg::Receiver(receiver) => {
                    errors.spanned(
                        &*receiver,
                        "a `#[tool]` function cannot take `self`; put `#[tool]` on a free function, or on a struct whose fields are the arguments",
                    );
                    continue;
                }
                FnArg::Typed(typed) => typed,
            };
            let field_attrs = take_field_attrs(&mut typed.attrs);
            match context_type(&typed.ty, errors) {
                Some(ctx) => {
                    if let Some(attr) = field_attrs.first() {
                        errors.spanned(attr, "the context parameter is not part of the input schema, so it takes no doc comment, `#[serde]` or `#[schemars]`");
                    }
                    if let Some((_, first)) = &context {
                        let mut error = syn::Error::new_spanned(
                            &typed.ty,
                            "a `#[tool]` function takes at most one `&ToolContext` parameter",
                        );
                        error.combine(syn::Error::new(*first, "the first one is here"));
                        errors.push(error);
                    } else {
                        context = Some((ctx, typed.ty.span()));
                    }
                    args.push(Arg::Context);
                }
                None => {
                    check_param_type(&typed.ty, errors);
                    let Some(ident) = param_ident(&typed.pat, errors) else {
                        continue;
                    };
                    args.push(Arg::Param(Box::new(Param {
                        ident,
                        ty: (*typed.ty).clone(),
                        attrs: field_attrs,
                    })));
                }
            }
        }
        Self {
            item,
            docs,
            args,
            context: context.map(|(ty, _)| ty),
        }
    }

    /// The tool's default name: the function's name.
    pub(crate) fn default_name(&self) -> String {
        self.item.sig.ident.unraw().to_string()
    }

    /// The parameters the model fills in.
    pub(crate) fn params(&self) -> impl Iterator<Item = &Param> {
        self.args.iter().filter_map(|arg| match arg {
            Arg::Param(param) => Some(&**param),
            Arg::Context => None,
        })
    }
}

impl ToolStruct {
    /// Reads the struct, reporting every shape `#[tool]` cannot use.
    pub(crate) fn from_syn(item: ItemStruct, errors: &mut Errors) -> Self {
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
        let docs = doc_text(&item.attrs, errors);
        Self { item, docs }
    }

    /// The tool's default name: the struct's name in snake case.
    pub(crate) fn default_name(&self) -> String {
        crate::case::snake_case(&self.item.ident.unraw().to_string())
    }
}

/// Moves the attributes that belong to the input struct's field off a
/// parameter.
fn take_field_attrs(attrs: &mut Vec<Attribute>) -> Vec<Attribute> {
    let (field, keep): (Vec<_>, Vec<_>) = attrs.drain(..).partition(|attr| {
        is_doc(attr) || attr.path().is_ident("serde") || attr.path().is_ident("schemars")
    });
    *attrs = keep;
    field
}

/// `C` when `ty` is `&ToolContext<C>` (`()` for a bare `&ToolContext`);
/// `None` when it is not the context. A context taken another way is an
/// error.
fn context_type(ty: &Type, errors: &mut Errors) -> Option<Type> {
    let (path, by_ref, mutable) = match ty {
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(path) => (path, true, reference.mutability.is_some()),
            _ => return None,
        },
        Type::Path(path) => (path, false, false),
        _ => return None,
    };
    let segment = last_segment_named(path, "ToolContext")?;
    if !by_ref {
        errors.spanned(ty, "take the context by reference: `&ToolContext<...>`");
    } else if mutable {
        errors.spanned(
            ty,
            "take the context by shared reference: `&ToolContext<...>`, not `&mut`",
        );
    }
    match &segment.arguments {
        PathArguments::None => Some(syn::parse_quote!(())),
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first() {
            Some(GenericArgument::Type(ctx)) => Some(ctx.clone()),
            _ => {
                errors.spanned(
                    &args.args,
                    "expected the application's state type: `ToolContext<App>`",
                );
                Some(syn::parse_quote!(()))
            }
        },
        other => {
            errors.spanned(other, "expected one type argument: `ToolContext<App>`");
            Some(syn::parse_quote!(()))
        }
    }
}

fn last_segment_named<'a>(path: &'a TypePath, name: &str) -> Option<&'a syn::PathSegment> {
    if path.qself.is_some() {
        return None;
    }
    path.path
        .segments
        .last()
        .filter(|segment| segment.ident == name)
}

/// Reports parameter types the model's arguments cannot become.
fn check_param_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::Reference(reference) => {
            let owned = match &*reference.elem {
                Type::Path(path) if path.path.is_ident("str") => "String".to_owned(),
                Type::Slice(slice) => {
                    let elem = &slice.elem;
                    format!("Vec<{}>", quote::quote!(#elem)).replace(' ', "")
                }
                _ => "an owned type".to_owned(),
            };
            let suggestion = if owned == "an owned type" { owned } else { format!("`{owned}`") };
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

/// The parameter's name, which becomes the property's name.
fn param_ident(pat: &Pat, errors: &mut Errors) -> Option<Ident> {
    match pat {
        Pat::Ident(pat_ident) if pat_ident.by_ref.is_none() && pat_ident.subpat.is_none() => {
            Some(pat_ident.ident.clone())
        }
        Pat::Wild(_) => {
            errors.spanned(
                pat,
                "a `#[tool]` parameter needs a name: it becomes the name of the argument",
            );
            None
        }
        _ => {
            errors.spanned(
                pat,
                "a `#[tool]` parameter must be a plain name, not a pattern: the name becomes the name of the argument",
            );
            None
        }
    }
}
