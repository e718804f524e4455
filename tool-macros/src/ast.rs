//! The IR: the item as the user wrote it, sorted into what `#[tool]` reads,
//! with the tokens kept so that every later error can point at them.
//!
//! Reading refuses nothing it can represent: a generic function, a pattern
//! parameter or a context taken by value are all read as written, and
//! `check` says what is wrong with them. The one error reported here is a
//! doc comment whose text cannot be read.

use syn::ext::IdentExt;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ItemFn, ItemStruct, Pat, PathArguments, Receiver,
    Type, TypePath,
};

use crate::case::{pascal_case, snake_case};
use crate::ctxt::Errors;
use crate::docs::{doc_text, doc_text_of, is_doc};

/// A `#[tool]` function, or one `#[resource]` or `#[prompt]` is on: they
/// take their parameters, the context among them, alike.
pub(crate) struct ToolFn {
    /// The function as it is re-emitted: parameter doc comments and
    /// `#[serde]`/`#[schemars]` attributes moved off (they are not legal
    /// there and belong to the input struct).
    pub(crate) item: ItemFn,
    /// The doc comments on the function.
    pub(crate) docs: Option<String>,
    /// The parameters, in the order the function takes them.
    pub(crate) args: Vec<Arg>,
}

/// One parameter of a `#[tool]` function.
pub(crate) enum Arg {
    /// `self`, in any form.
    Receiver(Box<Receiver>),
    /// A parameter whose type is `ToolContext`, however it is taken.
    Context(Box<Context>),
    /// A parameter the model fills in.
    Param(Box<Param>),
}

/// The parameter the application's state comes in by.
pub(crate) struct Context {
    /// The type as written: `&ToolContext<App>`, or another way of taking
    /// it.
    pub(crate) ty: Type,
    /// How the context is taken.
    pub(crate) taken: Taken,
    /// What follows `ToolContext`: `<App>`, or nothing.
    pub(crate) arguments: PathArguments,
    /// Doc comments, `#[serde]` and `#[schemars]` moved off the parameter.
    pub(crate) attrs: Vec<Attribute>,
    /// The parameter's name, which `validate = check(ctx, ...)` names it
    /// by; `None` for a pattern.
    pub(crate) name: Option<Ident>,
}

/// How a parameter takes its type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Taken {
    /// `&T`
    Shared,
    /// `&mut T`
    Mutable,
    /// `T`
    Value,
}

/// A parameter the model fills in: a property of the input schema.
pub(crate) struct Param {
    /// The pattern as written; a plain name, for every parameter that
    /// passes `check`.
    pub(crate) pat: Pat,
    pub(crate) ty: Type,
    /// Doc comments, `#[serde]` and `#[schemars]`: the field's attributes.
    pub(crate) attrs: Vec<Attribute>,
}

/// A `#[tool]` struct: the struct is the input.
pub(crate) struct ToolStruct {
    /// The struct, re-emitted unchanged.
    pub(crate) item: ItemStruct,
    /// The doc comments on the struct.
    pub(crate) docs: Option<String>,
}

impl ToolFn {
    /// Reads the function, moving the parameters' field attributes off it.
    pub(crate) fn from_syn(item: ItemFn, errors: &mut Errors) -> Self {
        Self::read(item, "#[tool]", errors)
    }

    /// Reads a function `attribute` (`#[tool]`, `#[resource]`,
    /// `#[prompt]`) is on, moving the parameters' doc comments, `#[serde]`
    /// and `#[schemars]` off it.
    pub(crate) fn read(mut item: ItemFn, attribute: &str, errors: &mut Errors) -> Self {
        let docs = doc_text_of(&item.attrs, attribute, errors);
        let args = item.sig.inputs.iter_mut().map(Arg::from_syn).collect();
        Self { item, docs, args }
    }

    /// The tool's default name: the function's name.
    pub(crate) fn default_name(&self) -> String {
        self.item.sig.ident.unraw().to_string()
    }

    /// The unit struct that stands for the tool: `get_weather` ->
    /// `GetWeather`, at the function name's span; `Tool1` for a name like
    /// `_1` whose PascalCase is no identifier.
    pub(crate) fn tool_type(&self) -> Ident {
        let ident = &self.item.sig.ident;
        let name = pascal_case(&ident.unraw().to_string());
        let name = if name.starts_with(char::is_alphabetic) {
            name
        } else {
            format!("Tool{name}")
        };
        Ident::new(&name, ident.span())
    }

    /// The parameters the model fills in.
    pub(crate) fn params(&self) -> impl Iterator<Item = &Param> {
        self.args.iter().filter_map(|arg| match arg {
            Arg::Param(param) => Some(&**param),
            Arg::Receiver(_) | Arg::Context(_) => None,
        })
    }

    /// The parameters the model fills in, with their names: every one of
    /// them once `check` has passed, since it refuses the others.
    pub(crate) fn named_params(&self) -> impl Iterator<Item = (&Ident, &Param)> {
        self.params()
            .filter_map(|param| Some((param.ident()?, param)))
    }

    /// The context parameters; `check` allows at most one.
    pub(crate) fn contexts(&self) -> impl Iterator<Item = &Context> {
        self.args.iter().filter_map(|arg| match arg {
            Arg::Context(context) => Some(&**context),
            Arg::Receiver(_) | Arg::Param(_) => None,
        })
    }

    /// `C` of the `&ToolContext<C>` parameter, if there is one.
    pub(crate) fn context(&self) -> Option<Type> {
        self.contexts().next().map(Context::state)
    }
}

impl Arg {
    /// Sorts a parameter by its type, moving its field attributes off it.
    fn from_syn(input: &mut FnArg) -> Self {
        let typed = match input {
            FnArg::Receiver(receiver) => return Arg::Receiver(Box::new(receiver.clone())),
            FnArg::Typed(typed) => typed,
        };
        let attrs = take_field_attrs(&mut typed.attrs);
        match context_path(&typed.ty) {
            Some((taken, arguments)) => Arg::Context(Box::new(Context {
                ty: (*typed.ty).clone(),
                taken,
                arguments,
                attrs,
                name: match &*typed.pat {
                    Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                        Some(pat.ident.clone())
                    }
                    _ => None,
                },
            })),
            None => Arg::Param(Box::new(Param {
                pat: (*typed.pat).clone(),
                ty: (*typed.ty).clone(),
                attrs,
            })),
        }
    }
}

impl Context {
    /// `C` of `ToolContext<C>`: `()` for a bare `ToolContext`, and for
    /// arguments `check` refuses.
    pub(crate) fn state(&self) -> Type {
        match &self.arguments {
            PathArguments::AngleBracketed(args) if args.args.len() == 1 => {
                match args.args.first() {
                    Some(GenericArgument::Type(state)) => state.clone(),
                    _ => syn::parse_quote!(()),
                }
            }
            _ => syn::parse_quote!(()),
        }
    }
}

impl Param {
    /// The parameter's name, which becomes the property's name; `None` for
    /// a pattern, which `check` refuses.
    pub(crate) fn ident(&self) -> Option<&Ident> {
        match &self.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => Some(&pat.ident),
            _ => None,
        }
    }
}

impl ToolStruct {
    /// Reads the struct.
    pub(crate) fn from_syn(item: ItemStruct, errors: &mut Errors) -> Self {
        let docs = doc_text(&item.attrs, errors);
        Self { item, docs }
    }

    /// The tool's default name: the struct's name in snake case.
    pub(crate) fn default_name(&self) -> String {
        snake_case(&self.item.ident.unraw().to_string())
    }

    /// The unit struct that stands for the tool: `WebSearch` ->
    /// `WebSearchTool`, at the struct name's span.
    pub(crate) fn tool_type(&self) -> Ident {
        let ident = &self.item.ident;
        quote::format_ident!("{}Tool", ident.unraw(), span = ident.span())
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

/// How `ty` takes a `ToolContext`, and the arguments after its name; `None`
/// when `ty` is no `ToolContext`.
fn context_path(ty: &Type) -> Option<(Taken, PathArguments)> {
    let (path, taken) = match ty {
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(path) if reference.mutability.is_some() => (path, Taken::Mutable),
            Type::Path(path) => (path, Taken::Shared),
            _ => return None,
        },
        Type::Path(path) => (path, Taken::Value),
        _ => return None,
    };
    let segment = last_segment_named(path, "ToolContext")?;
    Some((taken, segment.arguments.clone()))
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
