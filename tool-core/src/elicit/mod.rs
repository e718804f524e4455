//! Asking the person a question while a tool runs (MCP elicitation): what
//! may be asked, the three ways a person ends a question, and the errors
//! of asking.
//!
//! A question is a struct that derives [`Elicit`](macro@Elicit) beside
//! `Deserialize` and `JsonSchema`: a flat object whose fields are each a
//! string, a number, an integer, a boolean or a choice (an enum of unit
//! variants that derives `Elicit` too), as MCP elicitation asks for. The
//! derive checks each field's type at compile time, at that type:
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use tool_core::elicit::Elicit;
//!
//! /// What the guest chooses.
//! #[derive(Deserialize, JsonSchema, Elicit)]
//! struct Booking {
//!     /// The room.
//!     room: Room,
//!     /// Breakfast included.
//!     #[serde(default)]
//!     breakfast: bool,
//!     /// Anything the hotel should know.
//!     note: Option<String>,
//! }
//!
//! #[derive(Deserialize, JsonSchema, Elicit)]
//! #[serde(rename_all = "snake_case")]
//! enum Room {
//!     /// Single, one bed.
//!     Single,
//!     /// Double, two beds.
//!     Double,
//! }
//!
//! let schema = Booking::requested_schema().unwrap();
//! assert_eq!(schema["properties"]["room"]["oneOf"][1]["title"], "Double, two beds.");
//! assert_eq!(schema["required"], serde_json::json!(["room"]));
//! ```
//!
//! A field that no form can show is a compile error on its type:
//!
//! ```compile_fail
//! # use schemars::JsonSchema;
//! # use serde::Deserialize;
//! # use tool_core::elicit::Elicit;
//! #[derive(Deserialize, JsonSchema, Elicit)]
//! struct Labels {
//!     /// Free text cannot be several choices.
//!     tags: Vec<String>,
//! }
//! ```
//!
//! Only with tool-core's `schemars` feature (on by default): what is asked
//! is the type's derived schema.

pub(crate) mod ask;
#[cfg(feature = "schemars")]
pub(crate) mod field;
#[cfg(feature = "schemars")]
pub(crate) mod form;

#[cfg(feature = "schemars")]
use std::any::{TypeId, type_name};
#[cfg(feature = "schemars")]
use std::collections::BTreeMap;
#[cfg(feature = "schemars")]
use std::sync::{Arc, Mutex, PoisonError};

#[cfg(feature = "schemars")]
use serde_json::Value;

pub use crate::tool::ask::Asker;
pub use crate::tool::ask::error::{AnswerError, ElicitError};
pub use crate::tool::ask::question::{Answer, Question};
#[cfg(feature = "schemars")]
pub use ask::Ask;
pub use ask::{ASKS, DEFAULT_QUESTION_TIMEOUT};
#[cfg(feature = "schemars")]
pub use field::{Elicit, ElicitChoice, ElicitField};
#[cfg(feature = "schemars")]
pub use form::AskForm;
pub use stored_questions::QuestionStream;

/// Derives [`Elicit`](trait@Elicit) for a struct with named fields (a
/// question), or [`ElicitChoice`] and [`ElicitField`] for an enum of unit
/// variants (a choice) or [`ElicitField`] for a struct of one unnamed field
/// (a field of its own type, `struct Email(#[schemars(email)] String)`).
///
/// It reads the `#[serde(...)]` and `#[schemars(...)]` attributes that
/// change what is asked: a field that is `skip` or `skip_deserializing` is
/// not asked; one that is `flatten` must be a question itself, whose fields
/// are asked as this one's; `#[schemars(with = "T")]` asks for a `T`.
/// `#[elicit(crate = path)]` names tool-core where it is renamed.
///
/// These are compile errors, each on the tokens at fault: a field type that
/// is not a field of a question (on the type); a tuple or unit struct other
/// than a newtype; an enum variant that carries data; an enum that serde
/// writes other than by its variant's name (`tag`, `content`, `untagged`);
/// generic parameters.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use tool_core::elicit::Elicit;
///
/// /// An address to write to.
/// #[derive(Deserialize, JsonSchema, Elicit)]
/// struct Email(#[schemars(email)] String);
///
/// #[derive(Deserialize, JsonSchema, Elicit)]
/// struct Contact {
///     /// Where to write.
///     email: Email,
///     /// Where else, if anywhere.
///     backup: Option<Email>,
/// }
///
/// let schema = Contact::requested_schema().unwrap();
/// assert_eq!(schema["properties"]["email"]["format"], "email");
/// ```
#[cfg(feature = "schemars")]
#[doc(inline)]
pub use tool_macros::Elicit;

/// How the person ended a question: they answered it, declined to, or
/// closed it without a word.
///
/// Each is a value the tool reacts to, not an error: a decline says no,
/// a cancel says nothing (ask in the chat instead). Everything else that
/// ends a question is an [`ElicitError`].
///
/// ```
/// use tool_core::elicit::Elicitation;
///
/// let answered = Elicitation::Accept(3);
/// assert!(answered.is_accept());
/// assert_eq!(answered.accepted(), Some(3));
/// assert_eq!(Elicitation::<u8>::Decline.accepted(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The person answered; the answer, read as `T`.
    Accept(T),
    /// The person said no.
    Decline,
    /// The person closed the question without choosing.
    Cancel,
}

impl<T> Elicitation<T> {
    /// The answer, if the person gave one.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accept(answer) => Some(answer),
            Self::Decline | Self::Cancel => None,
        }
    }

    /// Whether the person answered.
    pub fn is_accept(&self) -> bool {
        matches!(self, Self::Accept(_))
    }
}

/// Every question type's requested schema made so far in this process, by
/// type: a type's schema does not change while the program runs.
#[cfg(feature = "schemars")]
static REQUESTED: Mutex<BTreeMap<TypeId, Result<Arc<Value>, ElicitError>>> =
    Mutex::new(BTreeMap::new());

/// What a derived [`Elicit::requested_schema`] returns: `T`'s schema
/// converted once per process (`schema/elicit.rs`).
#[cfg(feature = "schemars")]
pub(crate) fn requested_schema_of<T: schemars::JsonSchema + 'static>()
-> Result<Arc<Value>, ElicitError> {
    let made = REQUESTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&TypeId::of::<T>())
        .cloned();
    if let Some(made) = made {
        return made;
    }
    // Made outside the lock: schemars may take a while, and a type made
    // twice by two threads at once is the same schema.
    let made = crate::schema::elicit::requested_schema(&crate::schema::input_schema_for::<T>())
        .map(Arc::new)
        .map_err(|not_flat| ElicitError::NotFlat {
            type_name: type_name::<T>(),
            reason: not_flat.to_string(),
        });
    REQUESTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(TypeId::of::<T>(), made.clone());
    made
}

pub(crate) mod stored_questions;
#[cfg(all(test, feature = "schemars"))]
pub(crate) mod tests;
