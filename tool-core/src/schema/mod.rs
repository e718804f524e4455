//! Input schemas derived from Rust types: [`input_schema_for`] gives a
//! hand-written tool the schema `#[tool]` would derive for its input type.

// The crate's own schema work lives here too (arguments checked against a
// schema, each provider's dialect): pure functions on JSON that know
// nothing of dispatch, so that the pipeline and the providers share them.

pub(crate) mod derive;
pub(crate) mod dialect;
// Used by `tool_core::elicit`, which asks with schemars' schemas only.
#[cfg(feature = "schemars")]
pub(crate) mod elicit;
pub(crate) mod implied;
pub(crate) mod nulls;
pub(crate) mod validation;

#[cfg(feature = "schemars")]
use serde_json::Value;

/// The input schema of `T`, as `#[tool]` derives it: JSON Schema 2020-12
/// from schemars, properties in field order, without the root `title` and
/// `description` (the tool's own name and description say that), and
/// without `$schema`: 2020-12 is the dialect MCP and every provider
/// assume when a schema names none, and a definition sent on every
/// request need not say it. (A schema written by hand keeps the `$schema`
/// it names in MCP's definitions.)
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
/// let schema = tool_core::schema::input_schema_for::<Args>();
/// assert_eq!(schema["properties"]["city"], json!({"description": "Where.", "type": "string"}));
/// assert_eq!(schema["required"], json!(["city"]));
/// assert!(schema.get("title").is_none());
/// assert!(schema.get("$schema").is_none());
/// ```
#[cfg(feature = "schemars")]
pub fn input_schema_for<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    without_title(generator.into_root_schema_for::<T>())
}

#[cfg(feature = "schemars")]
fn without_title(schema: schemars::Schema) -> Value {
    let mut schema = schema.to_value();
    if let Some(object) = schema.as_object_mut() {
        object.remove("title");
        object.remove("description");
        object.remove("$schema");
    }
    schema
}

/// The root schema of what `json_schema` makes, named `name` (a name the
/// root's `title` then loses).
#[cfg(feature = "schemars")]
pub(crate) fn root_schema(
    json_schema: impl FnOnce(&mut schemars::SchemaGenerator) -> schemars::Schema,
    name: &str,
) -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12();
    let definitions_path = settings.definitions_path.clone();
    let mut generator = settings.into_generator();
    // What `SchemaGenerator::into_root_schema_for` does, in its order, so
    // that the keys come out in the same order.
    let mut schema = json_schema(&mut generator);
    let object = schema.ensure_object();
    object.entry("title").or_insert_with(|| name.into());
    let mut definitions = generator.take_definitions(false);
    if !definitions.is_empty() {
        let mut target = &mut *object;
        for key in definitions_path.split('/').filter(|key| !key.is_empty()) {
            let next = target
                .entry(key)
                .or_insert_with(|| Value::Object(Default::default()));
            match next {
                Value::Object(map) => target = map,
                _ => return without_title(schema),
            }
        }
        target.append(&mut definitions);
    }
    without_title(schema)
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

#[cfg(all(test, feature = "schemars"))]
mod tests {
    use schemars::JsonSchema;

    use super::*;

    /// A nested, documented type that becomes a definition.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        /// The street.
        street: String,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    enum Units {
        Celsius,
        Fahrenheit,
    }

    /// The tool's arguments.
    #[derive(JsonSchema)]
    #[schemars(rename = "ToolInput")]
    #[allow(dead_code)]
    struct Input {
        /// Where.
        address: Address,
        units: Option<Units>,
        tags: Vec<String>,
    }

    /// Arguments without definitions.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Flat {
        city: String,
    }

    #[test]
    fn a_generated_input_has_the_schema_schemars_gives_it_key_for_key() {
        for (generated, expected) in [
            (
                derive::derived_generated::<Input>(),
                input_schema_for::<Input>(),
            ),
            (
                derive::derived_generated::<Flat>(),
                input_schema_for::<Flat>(),
            ),
        ] {
            assert_eq!(generated.to_string(), expected.to_string());
        }
        assert!(derive::derived_generated::<Input>()["$defs"]["Address"].is_object());
    }
}
