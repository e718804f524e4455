//! What a `#[resource]` expansion calls, through `__private`: each of the
//! template's values read for the function's parameter of that name, and
//! the function's value made contents.

use std::str::FromStr;

use crate::resource::contents::ResourceContents;
use crate::resource::output::IntoResourceContents;
use crate::resource::resources::{ResourceError, ResourceRead};

/// What a `#[resource]` function's parameter may be: the value of the
/// template's name, read from the URI's text.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the value of a URI template's name",
    label = "the value is read from the text of the URI asked for",
    note = "take a `String`, or a type that implements `FromStr`"
)]
pub trait TemplateValue: Sized {
    /// The value `text` stands for; `None` when it does not read as one.
    fn from_uri_text(text: &str) -> Option<Self>;
}

impl<T: FromStr> TemplateValue for T {
    fn from_uri_text(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

/// The value of the template's `name` in the URI read, as a `T`: a value
/// that does not read as one names nothing there, so the URI is not
/// found.
pub fn template_value<T: TemplateValue>(
    read: &ResourceRead,
    name: &str,
) -> Result<T, ResourceError> {
    read.param(name)
        .and_then(T::from_uri_text)
        .ok_or_else(|| ResourceError::not_found(read.uri()))
}

/// The function's value as the contents read, of the attribute's
/// `mime_type` unless the value has its own.
pub fn resource_contents<T: IntoResourceContents>(
    read: &ResourceRead,
    mime_type: Option<&str>,
    value: T,
) -> Result<Vec<ResourceContents>, ResourceError> {
    value.into_contents(read.uri(), mime_type)
}
