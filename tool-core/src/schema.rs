//! Input schemas derived from Rust types.

use serde_json::Value;

/// The input schema of `T`, as `#[tool]` derives it: JSON Schema 2020-12
/// from schemars, properties in field order, without the root `title` and
/// `description` (the tool's own name and description say that).
///
/// For a hand-written [`TypedTool`](crate::TypedTool) that wants the same
/// schema as the macro would give.
///
/// ```
/// use schemars::JsonSchema;
/// use serde_json::json;
///
/// /// Arguments.
/// #[derive(JsonSchema)]
/// struct Args {
///     /// Where.
///     city: String,
///     days: Option<u8>,
/// }
///
/// let schema = tool_core::input_schema_for::<Args>();
/// assert_eq!(schema["properties"]["city"], json!({"description": "Where.", "type": "string"}));
/// assert_eq!(schema["required"], json!(["city"]));
/// assert!(schema.get("title").is_none());
/// ```
#[cfg(feature = "schemars")]
pub fn input_schema_for<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    if let Some(object) = schema.as_object_mut() {
        object.remove("title");
        object.remove("description");
    }
    schema
}

/// A type whose JSON Schema `#[tool]` can derive: the bound that explains
/// itself when a `#[tool]` struct forgot `#[derive(JsonSchema)]`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema to derive the tool's input schema from",
    label = "the tool's input schema is derived from this type",
    note = "derive `schemars::JsonSchema` for `{Self}`, or write the schema with `#[tool(schema = ...)]`"
)]
pub trait DeriveSchema {
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
#[doc(hidden)]
pub fn derived<T: DeriveSchema>() -> Value {
    T::schema()
}

/// Adds `#[derive(JsonSchema)]` to the input struct `#[tool]` generates, or,
/// with schemars off, says what to do instead.
#[doc(hidden)]
#[cfg(feature = "schemars")]
#[macro_export]
macro_rules! __tool_derive_json_schema {
    ($schemars_crate:tt, $bound:tt, $($item:tt)*) => {
        #[derive($crate::__private::JsonSchema)]
        #[schemars(crate = $schemars_crate, bound = $bound, rename = "ToolInput")]
        $($item)*
    };
}

#[doc(hidden)]
#[cfg(not(feature = "schemars"))]
#[macro_export]
macro_rules! __tool_derive_json_schema {
    ($schemars_crate:tt, $bound:tt, $($item:tt)*) => {
        ::core::compile_error!(
            "this tool needs a schema: tool-core's `schemars` feature is off, so write one with `#[tool(schema = ...)]` or turn the feature on"
        );
        // Keeps `#[schemars]` attributes legal, so the error above is the only one.
        #[derive($crate::__private::SchemarsInert)]
        $($item)*
    };
}

/// Says, with schemars off, that a `#[tool]` struct needs `schema = ...`.
#[doc(hidden)]
#[cfg(feature = "schemars")]
#[macro_export]
macro_rules! __tool_require_schemars {
    () => {};
}

#[doc(hidden)]
#[cfg(not(feature = "schemars"))]
#[macro_export]
macro_rules! __tool_require_schemars {
    () => {
        ::core::compile_error!(
            "this tool needs a schema: tool-core's `schemars` feature is off, so write one with `#[tool(schema = ...)]` or turn the feature on"
        );
    };
}
