//! The schemas a `#[tool]` expansion derives, reached only through
//! `__private`: a user names [`input_schema_for`](super::input_schema_for).

use serde_json::Value;

#[cfg(feature = "schemars")]
use crate::schema::{input_schema_for, root_schema};

/// A type whose JSON Schema `#[tool]` can derive: the bound that explains
/// itself when a `#[tool]` struct forgot `#[derive(JsonSchema)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema to derive the tool's input schema from",
    label = "the tool's input schema is derived from this type",
    note = "derive `schemars::JsonSchema` for `{Self}`, or write the schema with `#[tool(schema = ...)]`"
)]
pub trait DeriveSchema {
    /// The JSON Schema of `Self`.
    fn schema() -> Value;
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> DeriveSchema for T {
    fn schema() -> Value {
        input_schema_for::<T>()
    }
}

/// With schemars off the expansion has already raised a `compile_error!`
/// and this is never reached.
#[cfg(not(feature = "schemars"))]
impl<T> DeriveSchema for T {
    fn schema() -> Value {
        Value::Null
    }
}

/// What the expansion calls for a derived schema.
pub fn derived<T: DeriveSchema>() -> Value {
    T::schema()
}

/// [`input_schema_for`] of the input struct a `#[tool]` function gets,
/// compiled once for all of them: only the two functions that need the type
/// are per tool. The same schema, because nothing can refer back to that
/// struct (it is private to the expansion), so the bookkeeping schemars
/// does for a root that refers to itself has nothing to do.
#[cfg(feature = "schemars")]
pub fn derived_generated<T: schemars::JsonSchema>() -> Value {
    root_schema(T::json_schema, &T::schema_name())
}

/// With schemars off the expansion has already raised a `compile_error!`.
#[cfg(not(feature = "schemars"))]
pub fn derived_generated<T>() -> Value {
    Value::Null
}
