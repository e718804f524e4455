//! What reading a resource gives: its contents, as text or as bytes.

use bytes::Bytes;

/// The contents of a resource, as a read gives them: the URI read, its
/// media type when known, and the body, text or bytes (MCP's
/// `TextResourceContents` and `BlobResourceContents`, the bytes sent in
/// base64).
///
/// ```
/// use tool_core::resource::ResourceContents;
///
/// let text = ResourceContents::text("file:///notes.md", "# Notes").with_mime_type("text/markdown");
/// assert_eq!(text.as_text(), Some("# Notes"));
/// assert_eq!(text.mime_type(), Some("text/markdown"));
/// let png = ResourceContents::blob("file:///logo.png", vec![0x89, b'P', b'N', b'G']);
/// assert_eq!(png.as_bytes().map(|bytes| bytes.len()), Some(4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceContents {
    uri: String,
    mime_type: Option<String>,
    body: Body,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Body {
    Text(String),
    Bytes(Bytes),
}

impl ResourceContents {
    /// Text read at `uri`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            mime_type: None,
            body: Body::Text(text.into()),
        }
    }

    /// Bytes read at `uri`.
    pub fn blob(uri: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        Self {
            uri: uri.into(),
            mime_type: None,
            body: Body::Bytes(bytes.into()),
        }
    }

    /// The same contents, of media type `mime_type` (`text/plain`,
    /// `image/png`).
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The URI they were read at.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Their media type, when known.
    pub fn mime_type(&self) -> Option<&str> {
        self.mime_type.as_deref()
    }

    /// The text, when they are text.
    pub fn as_text(&self) -> Option<&str> {
        match &self.body {
            Body::Text(text) => Some(text),
            Body::Bytes(_) => None,
        }
    }

    /// The bytes, when they are bytes.
    pub fn as_bytes(&self) -> Option<&Bytes> {
        match &self.body {
            Body::Bytes(bytes) => Some(bytes),
            Body::Text(_) => None,
        }
    }
}
