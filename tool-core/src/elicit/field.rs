//! What may be asked of a person: a question ([`Elicit`]), each of its
//! fields ([`ElicitField`]), and the choices among them ([`ElicitChoice`]).
//!
//! The traits are checked where the type is written: `#[derive(Elicit)]`
//! bounds each field's type by [`ElicitField`] at that type, so that a
//! field no form can show fails to compile there, with the note below.
//! What schemars then writes is converted at run time
//! (`schema/elicit.rs`), which for a derived type cannot fail.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::tool::ask::error::ElicitError;

/// A question to a person: a struct with named fields, each an
/// [`ElicitField`], that derives `Elicit` beside `Deserialize` and
/// `JsonSchema`. Implement it only with the derive.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_core::elicit::Elicit;
///
/// #[derive(Deserialize, JsonSchema, Elicit)]
/// struct Confirm {
///     /// Go ahead?
///     go: bool,
/// }
///
/// fn ask<T: Elicit>() -> serde_json::Value {
///     (*T::requested_schema().unwrap()).clone()
/// }
/// assert_eq!(ask::<Confirm>()["properties"]["go"]["type"], "boolean");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be asked of a person",
    label = "not a struct that derives `Elicit`",
    note = "MCP elicitation asks for a flat object: `#[derive(Deserialize, JsonSchema, Elicit)] struct Answer {{ /** What to ask. */ value: String }}`"
)]
pub trait Elicit: DeserializeOwned + schemars::JsonSchema + Send + 'static {
    /// What the derive writes: [`requested_schema`](Elicit::requested_schema).
    #[doc(hidden)]
    fn __requested_schema() -> Result<Arc<Value>, ElicitError>;

    /// The schema the person is shown: MCP elicitation's `requestedSchema`
    /// of this type, made once per process.
    ///
    /// An error only where schemars writes what `#[derive(Elicit)]` could
    /// not foresee (a hand-written `JsonSchema` of a field's type, say);
    /// it names the property.
    fn requested_schema() -> Result<Arc<Value>, ElicitError> {
        Self::__requested_schema()
    }
}

/// A field of a question: a `String`, a number, a `bool`, a choice (an
/// [`ElicitChoice`]), a `Vec` or `BTreeSet` of choices (several of them),
/// a newtype of one of those that derives `Elicit`, or an `Option` of any
/// of those (a field the person may leave empty).
///
/// ```
/// use tool_core::elicit::ElicitField;
///
/// fn field<T: ElicitField>() {}
/// field::<String>();
/// field::<Option<u16>>();
/// field::<f64>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a question to a person",
    label = "MCP elicitation takes strings, numbers, integers, booleans and choices here",
    note = "a field is a `String`, a number, a `bool`, an enum of unit variants deriving `Elicit`, an `Option` of one of those, or a `Vec` of such an enum"
)]
pub trait ElicitField {}

/// A choice: an enum of unit variants that derives `Elicit`, written as
/// its variant's name. A field may be one choice, or several, as a `Vec`
/// or `BTreeSet` of it.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_core::elicit::{Elicit, ElicitChoice};
///
/// #[derive(Deserialize, JsonSchema, Elicit, PartialEq, Eq, PartialOrd, Ord)]
/// enum Topping { Cheese, Olives }
///
/// fn choice<T: ElicitChoice>() {}
/// choice::<Topping>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a choice asked of a person",
    label = "not an enum of unit variants that derives `Elicit`",
    note = "several choices are a `Vec` or `BTreeSet` of an enum of unit variants that derives `Elicit`: `#[derive(Deserialize, JsonSchema, Elicit)] enum Room {{ Single, Double }}`; MCP elicitation takes no list of free text"
)]
pub trait ElicitChoice {}

/// A field that is not an `Option`: what an `Option` field may hold, so
/// that `Option<Option<T>>`, which a form cannot tell from `Option<T>`, is
/// no field. Not public API: the derive implements it.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of a question to a person",
    label = "MCP elicitation takes strings, numbers, integers, booleans and choices here",
    note = "a field is a `String`, a number, a `bool`, an enum of unit variants deriving `Elicit`, an `Option` of one of those, or a `Vec` of such an enum"
)]
pub trait ElicitValue {}

impl<T: ElicitValue> ElicitField for T {}

impl<T: ElicitValue> ElicitField for Option<T> {}

/// Several choices: the person picks any of them.
impl<C: ElicitChoice> ElicitValue for Vec<C> {}

/// Several choices, each at most once.
impl<C: ElicitChoice> ElicitValue for BTreeSet<C> {}

macro_rules! values {
    ($($ty:ty),* $(,)?) => {
        $(impl ElicitValue for $ty {})*
    };
}

values!(
    String, bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64,
);
