//! Results that are more than text: the parts a result is made of, media
//! as bytes with a media type, and links to resources.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use bytes::Bytes;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// The largest media part a registry passes on by default: 5 MiB of raw
/// bytes, the size of the largest image Anthropic takes in one block.
/// Change it with
/// [`RegistryBuilder::max_media_bytes`](crate::registry::RegistryBuilder::max_media_bytes).
pub const DEFAULT_MAX_MEDIA_BYTES: usize = 5 * 1024 * 1024;

/// One piece of a result made of several: text, JSON, media, a link.
///
/// A tool returns them as a `Vec<Part>` (or a [`ToolResult::parts`]); each
/// provider receives them in its own shape (see
/// [`Provider::format_results`](crate::provider::Provider::format_results)).
///
/// ```
/// use tool_core::output::{Image, Part};
///
/// # let png: Vec<u8> = vec![0x89, b'P', b'N', b'G'];
/// let parts: Vec<Part> = vec![
///     "Sales by month, 2025.".into(),
///     Image::png(png).named("sales.png").into(),
/// ];
/// assert_eq!(parts.len(), 2);
/// ```
///
/// [`ToolResult::parts`]: crate::ToolResult::parts
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Part {
    /// Text, given to the model as is.
    Text(String),
    /// JSON, given to the model as compact JSON text.
    Json(Value),
    /// An image, audio or a document, as bytes.
    Media(Media),
    /// A link to a resource the model (or the client) can fetch.
    Link(Link),
    /// A tool the result points the model to, to call from its next turn:
    /// what a search found. Anthropic takes it as a `tool_reference`
    /// block, which loads the tool's definition for the model; the others
    /// read `` `name`: description ``.
    Tool(ToolRef),
}

/// A tool a result points the model to ([`Part::Tool`]): its name, and
/// what it does, for the providers that read it as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolRef {
    name: String,
    description: String,
    input_schema: Option<Value>,
}

impl ToolRef {
    /// The tool of that name, which does what `description` says.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            input_schema: None,
        }
    }

    /// The same, with the tool's input schema: for a provider that loads
    /// the tool from the result itself (OpenAI Responses' client-executed
    /// search answers with the tools' definitions).
    #[must_use]
    pub fn with_input_schema(mut self, schema: Value) -> Self {
        self.input_schema = Some(schema);
        self
    }

    /// The tool's input schema, when it was given.
    pub fn input_schema(&self) -> Option<&Value> {
        self.input_schema.as_ref()
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the tool does.
    pub fn description(&self) -> &str {
        &self.description
    }
}

impl From<ToolRef> for Part {
    fn from(tool: ToolRef) -> Self {
        Part::Tool(tool)
    }
}

/// What a [`Media`] part is, by its media type: what decides the block a
/// provider receives it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MediaKind {
    /// `image/*`.
    Image,
    /// `audio/*`.
    Audio,
    /// Anything else: a PDF, plain text, a spreadsheet.
    Document,
}

impl MediaKind {
    /// The kind of a media type: `image/png` is an image, `audio/wav`
    /// audio, anything else a document. The top-level type is compared
    /// without regard to case, as RFC 2045 says.
    pub fn of(media_type: &str) -> MediaKind {
        let top = media_type.split('/').next().unwrap_or_default();
        if top.eq_ignore_ascii_case("image") {
            MediaKind::Image
        } else if top.eq_ignore_ascii_case("audio") {
            MediaKind::Audio
        } else {
            MediaKind::Document
        }
    }

    /// `image`, `audio` or `document`.
    pub fn name(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Audio => "audio",
            MediaKind::Document => "document",
        }
    }
}

/// Bytes with a media type: an image, a recording, a document.
///
/// The bytes are shared ([`Bytes`]): cloning a result that holds them, as
/// every waiter on a pending call gets a clone, copies no data.
///
/// ```
/// use tool_core::output::{Media, MediaKind};
///
/// let pdf = Media::new("application/pdf", b"%PDF-1.7".to_vec()).named("report.pdf");
/// assert_eq!(pdf.kind(), MediaKind::Document);
/// assert_eq!(pdf.name(), Some("report.pdf"));
/// assert_eq!(pdf.len(), 8);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Media {
    media_type: String,
    data: Bytes,
    name: Option<String>,
}

impl Media {
    /// `data` of type `media_type` (`image/png`, `audio/wav`,
    /// `application/pdf`, ...), taken as given.
    pub fn new(media_type: impl Into<String>, data: impl Into<Bytes>) -> Self {
        Self {
            media_type: media_type.into(),
            data: data.into(),
            name: None,
        }
    }

    /// The same media with a file name, which providers that take one show
    /// the model (OpenAI's `filename`, Gemini's `displayName`, MCP's
    /// resource URI).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The media type, as given.
    pub fn media_type(&self) -> &str {
        &self.media_type
    }

    /// The bytes.
    pub fn data(&self) -> &Bytes {
        &self.data
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The file name, if one was given.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Image, audio or document, by the media type.
    pub fn kind(&self) -> MediaKind {
        MediaKind::of(&self.media_type)
    }

    /// The bytes in standard base64, as every provider takes them.
    pub fn base64(&self) -> String {
        BASE64.encode(&self.data)
    }

    /// The bytes as a `data:` URL (RFC 2397), as OpenAI takes them.
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.media_type, self.base64())
    }

    /// The URI an embedded document is known by: its name, or
    /// `attachment:<kind>` without one.
    pub(crate) fn uri(&self) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => format!("attachment:{}", self.kind().name()),
        }
    }
}

/// The bytes are left out: a result's `Debug` stays readable.
impl fmt::Debug for Media {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Media")
            .field("media_type", &self.media_type)
            .field("len", &self.data.len())
            .field("name", &self.name)
            .finish()
    }
}

/// An image, as a tool returns it: `#[tool]` functions may return `Image`
/// (or `Result<Image, E>`) and the model receives the picture.
///
/// ```
/// use tool_core::output::Image;
/// use tool_core::tool;
///
/// /// Draw the chart of a series.
/// #[tool]
/// fn chart(
///     /// The values, one bar each.
///     values: Vec<u32>,
/// ) -> Image {
/// #   let render = |_: &[u32]| vec![0x89, b'P', b'N', b'G'];
///     Image::png(render(&values))
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image(Media);

impl Image {
    /// An image of type `media_type` (`image/png`, `image/svg+xml`, ...).
    pub fn new(media_type: impl Into<String>, data: impl Into<Bytes>) -> Self {
        Self(Media::new(media_type, data))
    }

    /// A PNG image.
    pub fn png(data: impl Into<Bytes>) -> Self {
        Self::new("image/png", data)
    }

    /// A JPEG image.
    pub fn jpeg(data: impl Into<Bytes>) -> Self {
        Self::new("image/jpeg", data)
    }

    /// A WebP image.
    pub fn webp(data: impl Into<Bytes>) -> Self {
        Self::new("image/webp", data)
    }

    /// A GIF image.
    pub fn gif(data: impl Into<Bytes>) -> Self {
        Self::new("image/gif", data)
    }

    /// The same image with a file name (see [`Media::named`]).
    #[must_use]
    pub fn named(self, name: impl Into<String>) -> Self {
        Self(self.0.named(name))
    }

    /// The image as media.
    pub fn into_media(self) -> Media {
        self.0
    }
}

/// A link to a resource: a file, a page, a record the client can read. MCP
/// receives it as a `resource_link`; providers that fetch URLs receive
/// images and documents at `http(s)` URLs as such, and the rest as text
/// naming the link.
///
/// ```
/// use tool_core::output::Link;
///
/// let link = Link::new("https://example.com/q3.pdf", "q3.pdf")
///     .with_media_type("application/pdf")
///     .with_description("The third quarter's report.");
/// assert_eq!(link.uri(), "https://example.com/q3.pdf");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    uri: String,
    name: String,
    media_type: Option<String>,
    description: Option<String>,
}

impl Link {
    /// A link to `uri`, called `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            media_type: None,
            description: None,
        }
    }

    /// The same link with the resource's media type.
    #[must_use]
    pub fn with_media_type(mut self, media_type: impl Into<String>) -> Self {
        self.media_type = Some(media_type.into());
        self
    }

    /// The same link with a description of the resource.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The media type, if given.
    pub fn media_type(&self) -> Option<&str> {
        self.media_type.as_deref()
    }

    /// The description, if given.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Whether a provider can fetch it itself: an `http(s)` URL.
    pub(crate) fn is_web(&self) -> bool {
        let scheme = self.uri.split(':').next().unwrap_or_default();
        scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http")
    }
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text(text.into())
    }

    /// A media part: `data` of type `media_type`.
    pub fn media(media_type: impl Into<String>, data: impl Into<Bytes>) -> Self {
        Part::Media(Media::new(media_type, data))
    }

    /// The media, if the part is media.
    pub fn as_media(&self) -> Option<&Media> {
        match self {
            Part::Media(media) => Some(media),
            _ => None,
        }
    }
}

impl From<String> for Part {
    fn from(text: String) -> Self {
        Part::Text(text)
    }
}

impl From<&str> for Part {
    fn from(text: &str) -> Self {
        Part::Text(text.to_owned())
    }
}

impl From<Value> for Part {
    fn from(value: Value) -> Self {
        Part::Json(value)
    }
}

impl From<Media> for Part {
    fn from(media: Media) -> Self {
        Part::Media(media)
    }
}

impl From<Image> for Part {
    fn from(image: Image) -> Self {
        Part::Media(image.0)
    }
}

impl From<Link> for Part {
    fn from(link: Link) -> Self {
        Part::Link(link)
    }
}

/// How a part reads as text, where a provider takes only text (OpenAI Chat
/// Completions' `tool` message) or as a stand-in for a part a provider
/// cannot carry: `[image sales.png (image/png, 2048 bytes)]`,
/// `[link q3.pdf: https://example.com/q3.pdf]`.
pub(crate) struct AsText<'a>(pub(crate) &'a Part);

impl fmt::Display for AsText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Part::Text(text) => f.write_str(text),
            Part::Json(value) => write!(f, "{value}"),
            Part::Media(media) => {
                write!(f, "[{}", media.kind().name())?;
                if let Some(name) = media.name() {
                    write!(f, " {name}")?;
                }
                write!(f, " ({}, {} bytes)]", media.media_type(), media.len())
            }
            Part::Link(link) => write!(f, "[link {}: {}]", link.name(), link.uri()),
            Part::Tool(tool) => write!(f, "`{}`: {}", tool.name, tool.description),
        }
    }
}

/// A part serializes as the MCP content block it becomes (`text`, `image`,
/// `audio`, an embedded `resource` for a document, `resource_link`): the
/// shape a JSON field of one takes.
impl Serialize for Part {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            Part::Text(text) => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
            }
            Part::Json(value) => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", &value.to_string())?;
            }
            Part::Media(media) => match media.kind() {
                kind @ (MediaKind::Image | MediaKind::Audio) => {
                    map.serialize_entry("type", kind.name())?;
                    map.serialize_entry("data", &media.base64())?;
                    map.serialize_entry("mimeType", media.media_type())?;
                }
                MediaKind::Document => {
                    map.serialize_entry("type", "resource")?;
                    map.serialize_entry("resource", &Embedded(media))?;
                }
            },
            Part::Tool(_) => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", &AsText(self).to_string())?;
            }
            Part::Link(link) => {
                map.serialize_entry("type", "resource_link")?;
                map.serialize_entry("uri", link.uri())?;
                map.serialize_entry("name", link.name())?;
                if let Some(description) = link.description() {
                    map.serialize_entry("description", description)?;
                }
                if let Some(media_type) = link.media_type() {
                    map.serialize_entry("mimeType", media_type)?;
                }
            }
        }
        map.end()
    }
}

/// A document as MCP's embedded resource: text for `text/*`, base64 bytes
/// (`blob`) otherwise.
struct Embedded<'a>(&'a Media);

impl Serialize for Embedded<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let media = self.0;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("uri", &media.uri())?;
        map.serialize_entry("mimeType", media.media_type())?;
        match text_of(media) {
            Some(text) => map.serialize_entry("text", text)?,
            None => map.serialize_entry("blob", &media.base64())?,
        }
        map.end()
    }
}

/// The text of a `text/*` document that is UTF-8.
pub(crate) fn text_of(media: &Media) -> Option<&str> {
    let top = media.media_type().split('/').next().unwrap_or_default();
    if !top.eq_ignore_ascii_case("text") {
        return None;
    }
    std::str::from_utf8(media.data()).ok()
}

/// Serializes as its part does.
macro_rules! serialize_as_part {
    ($($type:ty),*) => {$(
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                Part::from(self.clone()).serialize(serializer)
            }
        }
    )*};
}

serialize_as_part!(Media, Image, Link);
