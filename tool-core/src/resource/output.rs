//! What a `#[resource]` function may return: any value that becomes the
//! contents of the URI read.

use std::any::Any;
use std::borrow::Cow;
use std::fmt::Display;

use bytes::Bytes;
use serde_json::Value;

use crate::output::{Image, Media};
use crate::resource::contents::ResourceContents;
use crate::resource::resources::ResourceError;

/// A value a [`#[resource]`](macro@crate::resource) function may return: what
/// reading its URI gives.
///
/// - text (`&str`, `String`, `Cow<str>`): one text contents;
/// - bytes (`Vec<u8>`, [`Bytes`]): one blob, sent in base64;
/// - JSON ([`serde_json::Value`]): its JSON text;
/// - [`Media`] or an [`Image`]: its bytes, of its own media type;
/// - [`ResourceContents`] or a `Vec` of them, built by hand: as they are;
/// - `Option<T>`: `None` is [`ResourceError::NotFound`] (nothing is
///   there);
/// - `Result<T, E>`: an `Err` that is a [`ResourceError`] as it is, any
///   other `E: Display` [`ResourceError::Failed`] with its text.
///
/// Each contents is of the URI read, and of the media type the attribute
/// names (`mime_type = "..."`) unless the value has its own (`Media`,
/// contents built with [`ResourceContents::with_mime_type`]).
///
/// ```
/// use tool_core::resource::{IntoResourceContents, ResourceError};
///
/// let contents = "Hello".into_contents("note://1", Some("text/plain")).unwrap();
/// assert_eq!(contents[0].as_text(), Some("Hello"));
/// assert_eq!(contents[0].mime_type(), Some("text/plain"));
///
/// let failed: Result<String, std::fmt::Error> = Err(std::fmt::Error);
/// let error = failed.into_contents("note://1", None).unwrap_err();
/// assert_eq!(error.to_string(), "reading `note://1` failed: an error occurred when formatting an argument");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be what a resource reads",
    label = "a `#[resource]` function returns text, bytes, a `serde_json::Value`, `Media`, `ResourceContents`, or an `Option` or a `Result` of one",
    note = "return a `String` (text), a `Vec<u8>` (bytes) or a `serde_json::Value` (its JSON text), or build `ResourceContents` by hand"
)]
pub trait IntoResourceContents {
    /// The contents read at `uri`, of media type `mime_type` unless the
    /// value has its own.
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError>;
}

/// `contents` of the attribute's media type, unless they have their own.
fn typed(contents: ResourceContents, mime_type: Option<&str>) -> ResourceContents {
    match mime_type {
        Some(mime_type) if contents.mime_type().is_none() => contents.with_mime_type(mime_type),
        _ => contents,
    }
}

impl IntoResourceContents for String {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![typed(ResourceContents::text(uri, self), mime_type)])
    }
}

impl IntoResourceContents for &str {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        self.to_owned().into_contents(uri, mime_type)
    }
}

impl IntoResourceContents for Cow<'_, str> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        self.into_owned().into_contents(uri, mime_type)
    }
}

impl IntoResourceContents for Bytes {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![typed(ResourceContents::blob(uri, self), mime_type)])
    }
}

impl IntoResourceContents for Vec<u8> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        Bytes::from(self).into_contents(uri, mime_type)
    }
}

impl IntoResourceContents for Value {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        self.to_string().into_contents(uri, mime_type)
    }
}

impl IntoResourceContents for Media {
    fn into_contents(
        self,
        uri: &str,
        _mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        let contents = ResourceContents::blob(uri, self.data().clone());
        Ok(vec![contents.with_mime_type(self.media_type())])
    }
}

impl IntoResourceContents for Image {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        self.into_media().into_contents(uri, mime_type)
    }
}

impl IntoResourceContents for ResourceContents {
    fn into_contents(
        self,
        _uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![typed(self, mime_type)])
    }
}

impl IntoResourceContents for Vec<ResourceContents> {
    fn into_contents(
        self,
        _uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(self
            .into_iter()
            .map(|contents| typed(contents, mime_type))
            .collect())
    }
}

impl<T: IntoResourceContents> IntoResourceContents for Option<T> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        match self {
            Some(value) => value.into_contents(uri, mime_type),
            None => Err(ResourceError::not_found(uri)),
        }
    }
}

impl<T, E> IntoResourceContents for Result<T, E>
where
    T: IntoResourceContents,
    E: Display + 'static,
{
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ResourceError> {
        match self {
            Ok(value) => value.into_contents(uri, mime_type),
            // A `ResourceError` is the resource's own word; any other
            // error is a failed read, told by its text. The test is a
            // constant for a given `E`.
            Err(error) => {
                let mut slot = Some(error);
                let own = (&mut slot as &mut dyn Any)
                    .downcast_mut::<Option<ResourceError>>()
                    .and_then(Option::take);
                Err(own.unwrap_or_else(|| {
                    let message = slot.map(|error| error.to_string()).unwrap_or_default();
                    ResourceError::failed(uri, message)
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_value_becomes_contents_of_the_uri_read() {
        let uri = "test://x";
        let text = String::from("t")
            .into_contents(uri, Some("text/plain"))
            .unwrap();
        assert_eq!(
            text,
            [ResourceContents::text(uri, "t").with_mime_type("text/plain")]
        );
        let bytes = vec![1_u8, 2].into_contents(uri, None).unwrap();
        assert_eq!(bytes, [ResourceContents::blob(uri, vec![1_u8, 2])]);
        let value = json!({"a": 1}).into_contents(uri, None).unwrap();
        assert_eq!(value[0].as_text(), Some(r#"{"a":1}"#));
        let media = Media::new("image/png", vec![0_u8])
            .into_contents(uri, Some("text/plain"))
            .unwrap();
        assert_eq!(media[0].mime_type(), Some("image/png"));
        let own = ResourceContents::text("test://own", "o")
            .with_mime_type("text/markdown")
            .into_contents(uri, Some("text/plain"))
            .unwrap();
        assert_eq!(own[0].uri(), "test://own");
        assert_eq!(own[0].mime_type(), Some("text/markdown"));
        assert_eq!(
            None::<String>.into_contents(uri, None),
            Err(ResourceError::not_found(uri))
        );
    }

    #[test]
    fn an_error_is_the_resources_own_or_a_failed_read() {
        let own: Result<String, ResourceError> = Err(ResourceError::not_found("test://y"));
        assert_eq!(
            own.into_contents("test://x", None),
            Err(ResourceError::not_found("test://y"))
        );
        let other: Result<String, String> = Err("disk full".to_owned());
        assert_eq!(
            other.into_contents("test://x", None),
            Err(ResourceError::failed("test://x", "disk full"))
        );
    }
}
