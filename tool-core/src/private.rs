//! What `#[tool]` expansions name. Not public API: everything generated code
//! needs, std items included, is reached through here so that a user's own
//! `Result`, `Option` or `core` cannot change what the expansion means.

pub use ::core::future::Future;
pub use ::core::marker::{Send, Sync};
pub use ::core::option::Option::{self, None, Some};
pub use ::core::result::Result;
pub use ::std::borrow::Cow;
pub use ::std::sync::Arc;
pub use ::std::time::Duration;

pub use ::serde;
pub use ::serde::de::DeserializeOwned;
pub use ::serde::{Deserialize, Serialize};
pub use ::serde_json;
pub use ::serde_json::Value;

#[cfg(feature = "schemars")]
pub use ::schemars;
#[cfg(feature = "schemars")]
pub use ::schemars::JsonSchema;

/// What a derived input schema needs of the input struct: `JsonSchema`, or
/// nothing with schemars off (the expansion has already said what to do).
#[cfg(feature = "schemars")]
pub use ::schemars::JsonSchema as InputSchema;

#[cfg(not(feature = "schemars"))]
pub trait InputSchema {}

#[cfg(not(feature = "schemars"))]
impl<T: ?Sized> InputSchema for T {}

pub use crate::dispatch::read::params::{
    ByHand, Derived, Field, Param, Parameter, SerdeParameter, Slot, input_schema as params_schema,
    slot, slot_by_hand,
};
pub use crate::dispatch::read::{Arguments, Checks, RunAtOnce, Verdict, unread};
pub use crate::dispatch::runner::{Compiled, Facts, Registration, Start, StartWith, Started};
pub use crate::error::tool_error::ToolError;
pub use crate::output::result::ToolResult;
pub use crate::registry::into_tool::{Generated, IntoTool};
pub use crate::schema::derive::{
    DeriveSchema, derived as derived_schema, derived_generated as derived_generated_schema,
};
pub use crate::tool::context::ToolContext;
pub use crate::tool::metadata::ToolMetadata;
pub use crate::tool::metadata::{Callers, ToolTier};
pub use crate::{
    __tool_derive_json_schema as derive_json_schema, __tool_require_schemars as require_schemars,
};

pub use ::std::boxed::Box;
pub use ::std::string::String;
pub use ::std::vec::Vec;

pub use crate::BoxFuture;
pub use crate::prompt::expansion::{
    ArgumentValue, optional_prompt_argument, prompt_argument, prompt_messages,
};
pub use crate::prompt::{Prompt, PromptArgument, PromptArguments, PromptError, PromptMessage};
pub use crate::resource::expansion::{TemplateValue, resource_contents, template_value};
pub use crate::resource::{Resource, ResourceContents, ResourceError, ResourceRead};

/// What a `#[resource]` or `#[prompt]` with errors answers with, so that
/// its uses raise no second error; never run, since the crate does not
/// compile.
pub fn served_fallback<T>() -> T {
    unreachable!("a `#[resource]` or `#[prompt]` with errors does not compile")
}

use crate::error::message::ErrorMessage;
use crate::output::result::IntoToolOutput;
use crate::output::result::{from_error, from_message};

pub const fn check_parameter<T: Parameter>() {}

#[cfg(feature = "schemars")]
pub use crate::elicit::Elicit;
#[cfg(feature = "schemars")]
pub use crate::elicit::field::ElicitValue;
#[cfg(feature = "schemars")]
pub use crate::elicit::field::{ElicitChoice, ElicitField};
#[cfg(feature = "schemars")]
pub use crate::tool::ask::error::ElicitError;

/// `#[derive(Elicit)]`'s bound on a field's type, written at that type.
#[cfg(feature = "schemars")]
pub const fn elicit_field<T: ?Sized + ElicitField>() {}

/// The bound on a `#[serde(flatten)]` field's type: a question, whose
/// fields are asked as the enclosing one's.
#[cfg(feature = "schemars")]
pub const fn elicit_flattened<T: Elicit>() {}

/// What a derived `Elicit::requested_schema` returns.
#[cfg(feature = "schemars")]
pub fn elicit_requested_schema<T: Elicit>() -> Result<Arc<Value>, ElicitError> {
    crate::elicit::requested_schema_of::<T>()
}

/// What a `#[derive(Elicit)]` with errors returns; never run, since the
/// crate does not compile.
pub fn elicit_fallback<T>() -> T {
    unreachable!("a `#[derive(Elicit)]` with errors does not compile")
}

/// What a `#[tool]` struct must be to take the model's arguments.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's input",
    label = "the model's arguments are deserialized into this struct",
    note = "derive `serde::Deserialize` for `{Self}`"
)]
pub trait StructInput: DeserializeOwned {}

impl<T: DeserializeOwned> StructInput for T {}

/// Reads a `#[tool]` struct and runs its own checks on it; `closed`
/// unless the struct allows unknown arguments.
pub fn read_struct_checked<T: StructInput, V: Verdict>(
    args: Arguments<'_>,
    closed: bool,
    check: impl FnOnce(&T) -> V,
) -> Result<T, ToolError> {
    args.read_checked(closed, |input| check(input).into_violations())
}

/// Reads a `#[tool]` struct from the model's arguments: `closed`, a key
/// that is none of its fields is refused, as a function's parameters
/// refuse one.
pub fn read_struct<T: StructInput>(args: Arguments<'_>, closed: bool) -> Result<T, ToolError> {
    args.read_checked(closed, |_: &T| Ok(()))
}

/// A `#[tool]` struct's derived input schema, closed to arguments that are
/// none of its properties (`additionalProperties: false`, last, where
/// strict dialects put it: their definitions stay as they were), as a
/// function's derived schema is: validation then refuses an unknown
/// argument in the same words for both forms. A schema that already says
/// what other keys may be, or whose properties are not all at its root
/// (`#[serde(flatten)]` of an enum, say), is left as it is: closing it
/// would refuse what the struct reads.
pub fn closed_schema(schema: Value) -> Value {
    const OPEN_OR_COMPOSED: &[&str] = &[
        "additionalProperties",
        "unevaluatedProperties",
        "patternProperties",
        "propertyNames",
        "allOf",
        "anyOf",
        "oneOf",
        "$ref",
        "if",
        "not",
        "dependentSchemas",
    ];
    let Value::Object(object) = schema else {
        return schema;
    };
    if object.get("type").and_then(Value::as_str) != Some("object")
        || OPEN_OR_COMPOSED.iter().any(|key| object.contains_key(*key))
    {
        return Value::Object(object);
    }
    let mut object = object;
    object.insert("additionalProperties".to_owned(), Value::Bool(false));
    Value::Object(object)
}

pub const fn check_serde_parameter<T: SerdeParameter>() {}

/// `T`, spelled so that it depends on `M`. The schema impl of a `#[tool]`
/// function's input struct `__ToolInput<'m>` bounds each parameter type as
/// `<&'m () as Select<T>>::Type: JsonSchema`: a bound rustc checks where the
/// impl is used, not where it is written, so a parameter type that does not
/// fit is reported once, by the check above. serde's impl bounds them on its
/// own `'de`; the generated functions assume only what they need of the
/// struct. A lifetime, not a type: each is still compiled once.
pub trait Select<T> {
    type Type;
}

impl<M: ?Sized, T> Select<T> for M {
    type Type = T;
}

pub use ::core::marker::PhantomData;
pub use ::tool_macros::SchemarsInert;

/// Picks the conversion of a tool's return value by its type, without
/// specialization: method lookup tries `Result<T, E>` (by reference) before
/// any `&T` (by double reference), so `(&value).__tool_return_kind()` finds
/// the first that fits. Works because a tool's return type is concrete.
/// For a `Result`, `into_tool_result` is picked the same way on its
/// `ResultKind<E>`: by value ([`SourceKind`]) when `E` is an error whose
/// source the result can keep, by reference (inherent) for any other `E`.
pub struct ResultKind<E>(PhantomData<fn() -> E>);

impl<E> ResultKind<E> {
    pub fn into_tool_result<T>(&self, tool: &str, value: Result<T, E>) -> ToolResult
    where
        T: IntoToolOutput,
        E: ToolErrorType,
    {
        match value {
            Ok(output) => output.into_tool_result(tool),
            Err(error) => from_error(tool, error),
        }
    }
}

/// The conversion of a `Result` whose `E` is a `std::error::Error`: the
/// error is kept as the source of the `ToolError` the result holds.
pub trait SourceKind<E> {
    fn into_tool_result<T: IntoToolOutput>(self, tool: &str, value: Result<T, E>) -> ToolResult;
}

impl<E> SourceKind<E> for ResultKind<E>
where
    E: ::std::error::Error + Send + Sync + 'static,
{
    fn into_tool_result<T: IntoToolOutput>(self, tool: &str, value: Result<T, E>) -> ToolResult {
        match value {
            Ok(output) => output.into_tool_result(tool),
            Err(error) => from_message(tool, ErrorMessage::from_error(error)),
        }
    }
}

/// The `E` of a tool's `Result<T, E>`: its `Display` is what the model reads.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's error type",
    label = "the error's `Display` text is what the model reads when the tool fails",
    note = "implement `std::fmt::Display` for `{Self}` (thiserror's `#[derive(Error)]` does), or return `Result<T, String>`"
)]
pub trait ToolErrorType: ::core::fmt::Display {}

impl<E: ::core::fmt::Display> ToolErrorType for E {}

pub trait ResultProbe<E> {
    fn __tool_return_kind(&self) -> ResultKind<E> {
        ResultKind(PhantomData)
    }
}

impl<T, E> ResultProbe<E> for Result<T, E> {}

pub struct PlainKind;

impl PlainKind {
    pub fn into_tool_result<T: IntoToolOutput>(self, tool: &str, value: T) -> ToolResult {
        value.into_tool_result(tool)
    }
}

pub trait PlainProbe {
    fn __tool_return_kind(&self) -> PlainKind {
        PlainKind
    }
}

impl<T: ?Sized> PlainProbe for &T {}

/// The same trick for a struct's `run` method, which may be `async` or not:
/// a future is awaited, anything else is ready at once.
pub struct FutureKind;

impl FutureKind {
    pub fn into_future<F: Future>(self, future: F) -> F {
        future
    }
}

pub trait FutureProbe {
    fn __tool_await_kind(&self) -> FutureKind {
        FutureKind
    }
}

impl<F: Future> FutureProbe for F {}

pub struct ReadyKind;

impl ReadyKind {
    pub fn into_future<T>(self, value: T) -> ::core::future::Ready<T> {
        ::core::future::ready(value)
    }
}

pub trait ReadyProbe {
    fn __tool_await_kind(&self) -> ReadyKind {
        ReadyKind
    }
}

impl<T: ?Sized> ReadyProbe for &T {}

/// What a `#[tool]` with errors registers as, so that its uses raise no
/// second error; never run, since the crate does not compile.
pub fn fallback<C>() -> Registration<C> {
    unreachable!("a `#[tool]` with errors does not compile")
}

/// The output schema of a tool that declares none.
pub fn no_output_schema() -> Option<Value> {
    None
}

/// Forgets every `#[tool]`'s schemas, made once per process, so that the
/// next registration of each makes them again as in a new process: what
/// the registry benchmark's cold builds measure.
pub fn forget_schemas() {
    crate::dispatch::schemas::forget_all();
}

/// What a bare `#[tool(output_schema)]` needs of the type a tool returns
/// (`T` of a `Result<T, E>`): a JSON Schema to derive.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema to derive the tool's output schema from",
    label = "`output_schema` derives the schema of what the tool returns from this type",
    note = "derive `schemars::JsonSchema` for `{Self}`, or write the schema with `#[tool(output_schema = ...)]`"
)]
pub trait OutputSchema {
    fn output_schema() -> Value;
}

#[cfg(feature = "schemars")]
impl<T: ::schemars::JsonSchema> OutputSchema for T {
    fn output_schema() -> Value {
        crate::schema::input_schema_for::<T>()
    }
}

/// With schemars off the expansion has already raised a `compile_error!`.
#[cfg(not(feature = "schemars"))]
impl<T> OutputSchema for T {
    fn output_schema() -> Value {
        Value::Null
    }
}

/// The output schema of `T`, the `T` of a returned `Result<T, E>`, picked
/// by the return type with the method lookup `ResultProbe` uses, on a
/// `PhantomData` of it: no value is needed.
pub struct SchemaOf<T>(PhantomData<T>);

impl<T> SchemaOf<T> {
    pub fn schema(self) -> Value
    where
        T: OutputSchema,
    {
        T::output_schema()
    }
}

pub trait ResultSchemaProbe<T> {
    fn __tool_output_kind(&self) -> SchemaOf<T> {
        SchemaOf(PhantomData)
    }
}

impl<T, E> ResultSchemaProbe<T> for PhantomData<Result<T, E>> {}

pub trait PlainSchemaProbe<T> {
    fn __tool_output_kind(&self) -> SchemaOf<T> {
        SchemaOf(PhantomData)
    }
}

impl<T> PlainSchemaProbe<T> for &PhantomData<T> {}

/// The output type of a future, as a `PhantomData`: for a struct's `run`,
/// whose return type the macro cannot see. The future is never polled.
pub fn output_of<F: Future>(_: F) -> PhantomData<F::Output> {
    PhantomData
}

/// A value of any type, for a future that is never polled to be written
/// with: what it would run with.
pub fn never<T>() -> T {
    unreachable!("only in a future that is never polled")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::closed_schema;

    #[test]
    fn a_plain_object_is_closed_and_any_other_left_as_it_is() {
        let plain = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let closed = closed_schema(plain);
        assert_eq!(
            closed.to_string(),
            r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#
        );
        for kept in [
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "additionalProperties": true}),
            json!({"type": "object", "properties": {}, "oneOf": [{"properties": {"b": {}}}]}),
            json!({"type": "object", "allOf": [{"$ref": "#/$defs/A"}]}),
            json!({"type": "object", "unevaluatedProperties": false}),
            json!({"type": "string"}),
            json!(true),
        ] {
            assert_eq!(closed_schema(kept.clone()), kept);
        }
    }
}
