//! `#[derive(Elicit)]`: what may be asked of a person, checked where it is
//! written. The same stages as `#[tool]`, in one folder:
//!
//! - `attr` reads `#[elicit(...)]` and the serde and schemars keys that
//!   change what is asked;
//! - the IR below sorts the item into the three shapes that can be asked
//!   (a question, a choice, a newtype field) and what cannot, keeping the
//!   user's tokens;
//! - `check` holds every rule that can fail;
//! - `expand` generates the impls, or, when there are errors, the impls
//!   that keep other code from failing too, and the errors.

mod attr;
mod check;
mod expand;

use proc_macro2::TokenStream;
use syn::{Data, DeriveInput, Fields, Type, Variant};

use crate::ctxt::Errors;

/// `#[derive(Elicit)]` on `input` -> the impls, and every error found.
///
/// With `TOOL_MACROS_DEBUG` set, prints each expansion to stderr, as
/// `#[tool]` does.
pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let output = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => {
            let mut errors = Errors::default();
            let item = Item::from_syn(&input, &mut errors);
            check::item(&item, &mut errors);
            match errors.finish() {
                Ok(()) => expand::impls(&item),
                Err(error) => expand::fallback(&item, error),
            }
        }
        // rustc has refused the item already.
        Err(error) => error.to_compile_error(),
    };
    if std::env::var_os("TOOL_MACROS_DEBUG").is_some() {
        eprintln!("{output}");
    }
    output
}

/// The item the derive is on.
pub(crate) struct Item<'a> {
    pub(crate) input: &'a DeriveInput,
    pub(crate) attrs: attr::Container,
    pub(crate) shape: Shape<'a>,
}

/// What the item is, as far as asking a person goes.
pub(crate) enum Shape<'a> {
    /// A struct with named fields: a question, each field a property.
    Question(Vec<Field<'a>>),
    /// A struct of one unnamed field: a field of its own type
    /// (`struct Email(#[schemars(email)] String)`).
    Newtype(Box<Field<'a>>),
    /// An enum: a choice among its variants.
    Choice(Vec<Choice<'a>>),
    /// A struct of no fields, or of several unnamed ones; `check` refuses
    /// it.
    Unnamed(&'a Fields),
    /// A union; `check` refuses it.
    Union,
}

/// One field of a question or a newtype.
pub(crate) struct Field<'a> {
    /// The field as written, for its type and its name.
    pub(crate) original: &'a syn::Field,
    pub(crate) attrs: attr::Member,
}

/// One variant of a choice.
pub(crate) struct Choice<'a> {
    pub(crate) original: &'a Variant,
    pub(crate) attrs: attr::Member,
}

impl<'a> Item<'a> {
    /// Reads the item; what cannot be read is recorded in `errors`, what
    /// cannot be asked is `check`'s to say.
    fn from_syn(input: &'a DeriveInput, errors: &mut Errors) -> Self {
        let attrs = attr::container(&input.attrs, errors);
        let mut field = |original: &'a syn::Field| Field {
            original,
            attrs: attr::member(&original.attrs, errors),
        };
        let shape = match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => Shape::Question(named.named.iter().map(field).collect()),
                Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                    match unnamed.unnamed.first() {
                        Some(only) => Shape::Newtype(Box::new(field(only))),
                        None => Shape::Unnamed(&data.fields),
                    }
                }
                other => Shape::Unnamed(other),
            },
            Data::Enum(data) => Shape::Choice(
                data.variants
                    .iter()
                    .map(|original| Choice {
                        original,
                        attrs: attr::member(&original.attrs, errors),
                    })
                    .collect(),
            ),
            Data::Union(_) => Shape::Union,
        };
        Self {
            input,
            attrs,
            shape,
        }
    }
}

impl Field<'_> {
    /// The type the person is asked for: the field's, or its
    /// `#[schemars(with = "T")]`.
    pub(crate) fn asked_type(&self) -> &Type {
        self.attrs.with.as_ref().unwrap_or(&self.original.ty)
    }
}

#[cfg(test)]
mod tests;
