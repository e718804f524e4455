//! What a stream says ([`StreamEvent`]), and what a family's reader of its
//! stream is ([`ReadStream`]), with the helpers the readers share.

use serde_json::{Map, Value};

use crate::provider::call::ProviderCall;
use crate::provider::stream::frame::{Frame, Framing};

/// What a stream says, in the order it says it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent {
    /// More of the model's text.
    Text(String),
    /// A tool call began: the `index`-th of the turn, with its id (where
    /// the provider gives one) and the tool's name.
    CallStarted {
        /// The call's place in the turn, from 0.
        index: usize,
        /// The provider's id of the call.
        id: Option<String>,
        /// The tool called.
        name: String,
    },
    /// More of a call's arguments, as JSON text.
    ArgumentsDelta {
        /// The call's place in the turn.
        index: usize,
        /// The text added.
        delta: String,
    },
    /// A call whose arguments are whole, ready for the registry.
    CallComplete {
        /// The call's place in the turn.
        index: usize,
        /// The call, as [`Provider::parse_calls`](crate::provider::Provider::parse_calls) gives it.
        call: ProviderCall,
    },
    /// The turn is over: [`StreamReader::finish`](super::StreamReader::finish) gives the whole response.
    /// Gemini's stream has no last event: its turn is over when the body
    /// ends.
    Done,
}

/// A family's reader of its streamed response, fed one frame at a time by
/// [`StreamReader`](super::StreamReader), which frames the bytes, bounds
/// them and turns a message into a
/// [`StreamError`](super::StreamError) that says where.
///
/// ```
/// use serde_json::{Value, json};
/// use tool_core::provider::stream::{Frame, Framing, ReadStream, StreamEvent};
///
/// /// One JSON object a line, each a piece of the text; `{"end": true}` ends it.
/// #[derive(Default)]
/// struct Lines {
///     text: String,
/// }
///
/// impl ReadStream for Lines {
///     fn framing(&self) -> Framing {
///         Framing::Lines
///     }
///
///     fn read(
///         &mut self,
///         frame: &Frame,
///         _limit: usize,
///         events: &mut Vec<StreamEvent>,
///     ) -> Result<bool, String> {
///         let line: Value = serde_json::from_str(frame.data()).map_err(|e| e.to_string())?;
///         if let Some(piece) = line["text"].as_str() {
///             self.text.push_str(piece);
///             events.push(StreamEvent::Text(piece.to_owned()));
///         }
///         Ok(line["end"] == true)
///     }
///
///     fn finish(self: Box<Self>, done: bool) -> Result<Value, String> {
///         if !done {
///             return Err("the stream ended early".into());
///         }
///         Ok(json!({"text": self.text}))
///     }
/// }
///
/// let mut reader = Lines::default();
/// assert_eq!(reader.framing(), Framing::Lines);
/// ```
pub trait ReadStream: Send + Sync {
    /// How the stream is framed.
    fn framing(&self) -> Framing;

    /// The stream's first byte that is not blank came: a reader that tells
    /// its framing by it changes its reading, and says the new framing.
    fn first_byte(&mut self, byte: u8) -> Option<Framing> {
        let _ = byte;
        None
    }

    /// Reads one frame, adding the events it completes; `true` once the
    /// stream says the turn is over. `limit` is the most argument text one
    /// call may gather: refuse a call whose arguments grow past it.
    fn read(
        &mut self,
        frame: &Frame,
        limit: usize,
        events: &mut Vec<StreamEvent>,
    ) -> Result<bool, String>;

    /// The whole response, once the stream has ended, as the provider would
    /// have sent it unstreamed; `done` says whether the stream said the
    /// turn was over.
    fn finish(self: Box<Self>, done: bool) -> Result<Value, String>;

    /// How many events (or parts of one) of types this reader does not
    /// know it has passed over: new kinds the provider added, which carry
    /// nothing the calls need. None by default.
    fn passed_over(&self) -> usize {
        0
    }

    /// Whether the turn ends with the body, the stream having no closing
    /// event of its own (Gemini's): the reader then says
    /// [`StreamEvent::Done`] when the bytes are over. No by default.
    fn ends_with_body(&self) -> bool {
        false
    }
}

/// A frame's data as JSON.
pub(crate) fn json(frame: &Frame) -> Result<Value, String> {
    serde_json::from_str(&frame.data).map_err(|error| {
        let shown: String = frame.data.chars().take(80).collect();
        format!("an event is not JSON ({error}): {shown}")
    })
}

/// A frame's data as a JSON object, for the streams whose every frame is
/// one (a Chat chunk, a Gemini event, an Ollama line; `what` names it):
/// an `error` in it ends the stream with the provider's words.
pub(crate) fn json_object(frame: &Frame, what: &str) -> Result<Map<String, Value>, String> {
    match json(frame)? {
        Value::Object(object) => match object.get("error") {
            Some(error) => Err(format!("the provider sent an error: {error}")),
            None => Ok(object),
        },
        _ => Err(format!("{what} is not an object")),
    }
}

/// An event's type: its `type` field, else the name the stream gave it.
pub(crate) fn event_type(frame: &Frame, event: &Value) -> String {
    event
        .get("type")
        .and_then(Value::as_str)
        .or(frame.event.as_deref())
        .unwrap_or_default()
        .to_owned()
}

/// Refuses arguments past the limit, as they grow.
pub(crate) fn bounded(index: usize, so_far: usize, limit: usize) -> Result<(), String> {
    if so_far > limit {
        return Err(format!(
            "the arguments of call {index} grew past {limit} bytes (the registry's max_argument_bytes)"
        ));
    }
    Ok(())
}
