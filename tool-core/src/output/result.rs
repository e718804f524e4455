//! What a call gives back to the model.

use std::any::{Any, TypeId};
use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::error::message::ErrorMessage;
use crate::error::tool_error::ToolError;
use crate::output::media::{AsText, Image, Link, Media, Part};

/// The content of a [`ToolResult`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ToolOutput {
    /// Plain text, given to the model as is.
    Text(String),
    /// A JSON value, given to the model as compact JSON text.
    Json(Value),
    /// Several parts: text, JSON, images, audio, documents, links, each
    /// given to a provider in the block it has for it.
    Parts(Vec<Part>),
}

/// The outcome of one call, in the form the model reads: content plus an
/// error flag.
///
/// Every failure the model can cause or react to (an unknown tool, arguments
/// that do not fit, the tool's own error) is a `ToolResult` with
/// [`is_error`](ToolResult::is_error) set, never a Rust `Err` that would end
/// an agent loop. Such results also keep the typed [`ToolError`] for the
/// application.
///
/// ```
/// use serde_json::json;
/// use tool_core::ToolResult;
///
/// assert_eq!(ToolResult::text("sunny").model_text(), "sunny");
/// assert_eq!(ToolResult::json(json!({"temp": 21})).model_text(), r#"{"temp":21}"#);
///
/// let failed = ToolResult::error("city not found");
/// assert!(failed.is_error());
/// assert_eq!(failed.model_text(), "city not found");
/// ```
///
/// A result can be kept in a store and read back by another process: it is
/// `Serialize` and `Deserialize`, in a versioned form of its own (`{"v":1,
/// "output":{"text":"sunny"}}`; media bytes in base64). What is read back
/// equals what was written, except that the source error of a tool's own
/// failure ([`ErrorMessage`](crate::error::ErrorMessage)) is kept as its
/// text alone.
///
/// ```
/// use serde_json::json;
/// use tool_core::ToolResult;
///
/// let result = ToolResult::json(json!({"temp": 21})).with_structured_content(json!({"temp": 21}));
/// let stored = serde_json::to_string(&result)?;
/// let read: ToolResult = serde_json::from_str(&stored)?;
/// assert_eq!(read, result);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    output: ToolOutput,
    is_error: bool,
    // Boxed: rare, and a result is moved through every step of a call.
    error: Option<Box<ToolError>>,
    structured: Option<Box<Value>>,
    state: ResultState,
}

/// Where a call stands.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum ResultState {
    Done,
    /// Running in the background; the result comes later under this id.
    Pending(Box<str>),
    /// The tool hands the result to someone else (the client) to deliver.
    Deferred,
    /// Waiting for a person's decision on whether it runs; the result
    /// comes later under this id.
    Parked(Box<str>),
}

impl ToolResult {
    /// A successful text result.
    pub fn text(text: impl Into<String>) -> Self {
        Self::success(ToolOutput::Text(text.into()))
    }

    /// A successful JSON result.
    pub fn json(value: Value) -> Self {
        Self::success(ToolOutput::Json(value))
    }

    /// A successful result made of parts: text beside an image, several
    /// documents, a link.
    ///
    /// ```
    /// use tool_core::output::{Image, Part};
    /// use tool_core::ToolResult;
    ///
    /// # let png = vec![0x89, b'P', b'N', b'G'];
    /// let result = ToolResult::parts(vec![Part::text("The chart:"), Image::png(png).into()]);
    /// assert_eq!(result.model_text(), "The chart:\n[image (image/png, 4 bytes)]");
    /// ```
    pub fn parts(parts: impl IntoIterator<Item = Part>) -> Self {
        Self::success(ToolOutput::Parts(parts.into_iter().collect()))
    }

    /// A successful result with the given content.
    pub fn success(output: ToolOutput) -> Self {
        Self {
            output,
            is_error: false,
            error: None,
            structured: None,
            state: ResultState::Done,
        }
    }

    /// An error result with a message for the model, for a tool that failed
    /// in a way the model should hear about.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            is_error: true,
            ..Self::text(message)
        }
    }

    /// What a `long_running` tool returns when the result will be delivered
    /// by someone else (the client that runs the tool, a job queue) through
    /// [`Pending::deliver`](crate::registry::Pending::deliver), under the
    /// call's id ([`ToolContext::call_id`](crate::ToolContext::call_id)).
    pub fn deferred() -> Self {
        Self {
            state: ResultState::Deferred,
            ..Self::text("")
        }
    }

    /// The result a call of a `long_running` tool returns at once: the tool
    /// runs on, and [`Pending::wait`](crate::registry::Pending::wait) gives
    /// its result.
    pub(crate) fn pending(tool: &str, call_id: &str) -> Self {
        Self {
            state: ResultState::Pending(call_id.into()),
            ..Self::text(format!(
                "tool `{tool}` is running in the background (call `{call_id}`); its result will follow. Do not call it again while this call is pending."
            ))
        }
    }

    /// The result a call parked for approval returns at once
    /// ([`Approval::Park`](crate::policy::Approval::Park)): the decision,
    /// given with [`Approvals::decide`](crate::registry::Approvals::decide),
    /// makes its result, which [`Pending::wait`](crate::registry::Pending::wait)
    /// gives.
    pub(crate) fn parked(tool: &str, call_id: &str) -> Self {
        Self {
            state: ResultState::Parked(call_id.into()),
            ..Self::text(format!(
                "the call to tool `{tool}` (call `{call_id}`) waits for a person's approval; its result will follow. Do not call it again while this call is pending."
            ))
        }
    }

    /// The same result with structured content: the JSON an MCP client reads
    /// beside the text, for a tool that declares an output schema.
    #[must_use]
    pub fn with_structured_content(mut self, value: Value) -> Self {
        self.set_structured_content(value);
        self
    }

    pub(crate) fn set_structured_content(&mut self, value: Value) {
        self.structured = Some(Box::new(value));
    }

    /// The structured content, if the tool declared an output schema and
    /// returned JSON that matches it.
    pub fn structured_content(&self) -> Option<&Value> {
        self.structured.as_deref()
    }

    /// The id of the background call this result stands for, when the tool
    /// is `long_running` and its result is still to come.
    pub fn pending_call_id(&self) -> Option<&str> {
        match &self.state {
            ResultState::Pending(call_id) | ResultState::Parked(call_id) => Some(call_id),
            _ => None,
        }
    }

    /// Whether the result is still to come.
    pub fn is_pending(&self) -> bool {
        matches!(self.state, ResultState::Pending(_) | ResultState::Parked(_))
    }

    /// Whether the result waits for a person's decision on the call
    /// ([`Approval::Park`](crate::policy::Approval::Park)), to be given
    /// with [`Approvals::decide`](crate::registry::Approvals::decide), rather
    /// than for the tool or a delivery.
    pub fn awaits_decision(&self) -> bool {
        matches!(self.state, ResultState::Parked(_))
    }

    /// Whether the tool left the result to be delivered.
    pub(crate) fn is_deferred(&self) -> bool {
        matches!(self.state, ResultState::Deferred)
    }

    /// Where the call stands, for the stored form.
    pub(super) fn state(&self) -> &ResultState {
        &self.state
    }

    /// A result from the fields of its stored form, taken as they were
    /// written: the output is not made again from the error.
    pub(super) fn from_stored(
        output: ToolOutput,
        is_error: bool,
        error: Option<ToolError>,
        structured: Option<Value>,
        state: ResultState,
    ) -> Self {
        Self {
            output,
            is_error,
            error: error.map(Box::new),
            structured: structured.map(Box::new),
            state,
        }
    }

    /// The content.
    pub fn output(&self) -> &ToolOutput {
        &self.output
    }

    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The [`ToolError`] of a failure raised by the framework or converted
    /// from a tool's `Err`; `None` on success and for results made with
    /// [`ToolResult::error`].
    pub fn tool_error(&self) -> Option<&ToolError> {
        self.error.as_deref()
    }

    /// The text a model receives where only text is taken: text as is,
    /// JSON compact; parts one a line, each medium and link named in
    /// brackets (`[image chart.png (image/png, 2048 bytes)]`).
    pub fn model_text(&self) -> Cow<'_, str> {
        match &self.output {
            ToolOutput::Text(text) => Cow::Borrowed(text),
            ToolOutput::Json(value) => Cow::Owned(value.to_string()),
            ToolOutput::Parts(parts) => Cow::Owned(
                parts
                    .iter()
                    .map(|part| AsText(part).to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        }
    }

    /// The tokens of [`model_text`](Self::model_text) in OpenAI's
    /// `o200k_base` encoding (feature `tokens`): what the result costs the
    /// model's context where it is given as text. A provider counts a few
    /// more, for the block around it (as for
    /// [`Definitions::token_counts`](crate::provider::Definitions::token_counts)).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::ToolResult;
    ///
    /// let text = ToolResult::text("line one\nline two\n");
    /// let escaped = ToolResult::json(json!({"content": "line one\nline two\n"}));
    /// assert!(text.model_tokens() < escaped.model_tokens());
    /// ```
    #[cfg(feature = "tokens")]
    pub fn model_tokens(&self) -> usize {
        tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(&self.model_text())
            .len()
    }

    /// The text content, if the content is text.
    pub fn as_text(&self) -> Option<&str> {
        match &self.output {
            ToolOutput::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The JSON content, if the content is JSON.
    pub fn as_json(&self) -> Option<&Value> {
        match &self.output {
            ToolOutput::Json(value) => Some(value),
            _ => None,
        }
    }

    /// The parts, if the content is made of parts.
    pub fn as_parts(&self) -> Option<&[Part]> {
        match &self.output {
            ToolOutput::Parts(parts) => Some(parts),
            _ => None,
        }
    }
}

impl From<ToolError> for ToolResult {
    fn from(error: ToolError) -> Self {
        Self {
            is_error: true,
            output: ToolOutput::Text(error.to_string()),
            error: Some(Box::new(error)),
            structured: None,
            state: ResultState::Done,
        }
    }
}

/// A value a tool can return: anything `Serialize` (a `String` becomes text,
/// anything else JSON), media ([`Image`], [`Media`]), a [`Link`], parts
/// (`Vec<Part>`, a [`Part`]) or a [`ToolResult`] built by hand.
///
/// A `#[tool]` function may return `T` or `Result<T, E>` for any `T` with
/// this trait and any `E: Display`; an `Err` becomes an error result whose
/// text is the error's `Display`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "a tool returns a `Serialize` value, media, parts, a `ToolResult`, or a `Result` of one",
    note = "derive `serde::Serialize` for `{Self}`, or convert it to a `String` or a `ToolResult`"
)]
pub trait IntoToolOutput {
    /// Turns the value into the result the model reads; `tool` names the tool
    /// for error messages.
    fn into_tool_result(self, tool: &str) -> ToolResult;
}

impl<T: Serialize + 'static> IntoToolOutput for T {
    fn into_tool_result(self, tool: &str) -> ToolResult {
        // A `String` is the text as it is: no copy through a JSON value.
        let mut slot = Some(self);
        if let Some(text) = (&mut slot as &mut dyn Any).downcast_mut::<Option<String>>() {
            return ToolResult::text(text.take().unwrap_or_default());
        }
        // A `ToolResult` is `Serialize` too (its stored form), so it comes
        // here rather than through an impl of its own, which would overlap
        // this one: it is the result as it is, not its JSON.
        if let Some(result) = (&mut slot as &mut dyn Any).downcast_mut::<Option<ToolResult>>() {
            return result.take().unwrap_or_else(|| ToolResult::text(""));
        }
        // Media and parts are the parts they are, not their JSON. The test is
        // a constant for a given `T`, and the conversion is compiled once,
        // in this crate, not once per return type in the tools' crate.
        if is_part_type(TypeId::of::<T>()) {
            return part_result(&mut slot);
        }
        let Some(value) = slot else {
            return ToolResult::text("");
        };
        match serde_json::to_value(&value) {
            Ok(Value::String(text)) => ToolResult::text(text),
            Ok(value) => ToolResult::json(value),
            Err(error) => ToolError::Execution {
                tool: tool.to_owned(),
                message: format!("tool `{tool}` produced output that is not JSON: {error}").into(),
            }
            .into(),
        }
    }
}

/// What [`TypedTool::execute`](crate::TypedTool::execute) may return: a
/// [`ToolResult`], or a `Result<T, E>` of a value a tool may return and an
/// error whose `Display` the model reads. An `E` of
/// [`ErrorMessage`](crate::error::ErrorMessage) keeps the error it was made
/// from as the source of the result's [`ToolError`].
///
/// Where [`IntoToolOutput`] is what a tool's *value* may be, this is what a
/// hand-written `execute` returns: a plain value is not one, since a
/// `Result` is also a value that serializes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be what `TypedTool::execute` returns",
    label = "`execute` returns a `ToolResult` or a `Result<T, E>` with `T: IntoToolOutput` and `E: Display`",
    note = "for a plain value, return `Result<T, std::convert::Infallible>` or convert it with `IntoToolOutput::into_tool_result`"
)]
pub trait ExecuteOutput: Send + 'static {
    /// Turns the value into the result the model reads; `tool` names the
    /// tool for error messages.
    fn into_tool_result(self, tool: &str) -> ToolResult;
}

impl ExecuteOutput for ToolResult {
    fn into_tool_result(self, _tool: &str) -> ToolResult {
        self
    }
}

impl<T, E> ExecuteOutput for Result<T, E>
where
    T: IntoToolOutput + Send + 'static,
    E: std::fmt::Display + Send + 'static,
{
    fn into_tool_result(self, tool: &str) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(tool),
            // An `ErrorMessage` keeps its source; any other `E` gives its
            // text. The test is a constant for a given `E`, and the clone
            // is on the error path only.
            Err(error) => match (&error as &dyn Any).downcast_ref::<ErrorMessage>() {
                Some(message) => from_message(tool, message.clone()),
                None => from_error(tool, error),
            },
        }
    }
}

/// Whether a value of type `id` is parts: `Vec<Part>`, `Part`, `Image`,
/// `Media` or `Link`.
#[inline]
fn is_part_type(id: TypeId) -> bool {
    [
        TypeId::of::<Vec<Part>>(),
        TypeId::of::<Part>(),
        TypeId::of::<Image>(),
        TypeId::of::<Media>(),
        TypeId::of::<Link>(),
    ]
    .contains(&id)
}

/// The result of a value of one of the part types, in an `Option` (taken).
fn part_result(slot: &mut dyn Any) -> ToolResult {
    fn take<P: Into<Part> + 'static>(slot: &mut dyn Any) -> Option<Part> {
        slot.downcast_mut::<Option<P>>()?.take().map(Into::into)
    }
    if let Some(parts) = slot.downcast_mut::<Option<Vec<Part>>>() {
        return ToolResult::parts(parts.take().unwrap_or_default());
    }
    let part = take::<Part>(slot)
        .or_else(|| take::<Image>(slot))
        .or_else(|| take::<Media>(slot))
        .or_else(|| take::<Link>(slot));
    ToolResult::parts(part)
}

/// The result of a tool's `Err`: its text.
pub(crate) fn from_error(tool: &str, error: impl std::fmt::Display) -> ToolResult {
    from_message(tool, ErrorMessage::new(error.to_string()))
}

/// The result of a tool's `Err`, as text and source.
pub(crate) fn from_message(tool: &str, message: ErrorMessage) -> ToolResult {
    ToolError::Execution {
        tool: tool.to_owned(),
        message,
    }
    .into()
}
