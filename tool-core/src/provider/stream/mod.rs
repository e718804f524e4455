//! Streamed responses, read as they arrive: the model's text as it is
//! written, each tool call as it starts, its arguments as they grow, and
//! the call itself the moment its arguments are whole; at the end, the
//! whole response as the provider would have sent it unstreamed, so that
//! [`Provider::respond`] and everything
//! after it are the same either way.
//!
//! ```
//! use serde_json::json;
//! use tool_core::provider::Provider;
//! use tool_core::provider::stream::StreamEvent;
//!
//! let provider = Provider::OpenAiChat { strict: false };
//! let mut reader = provider.stream_reader();
//! let mut started = Vec::new();
//! // Bytes as the network gives them, cut anywhere.
//! for chunk in [
//!     &b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","[..],
//!     b"\"type\":\"function\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":1,\"}}]}}]}\n\n",
//!     b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"b\\\":2}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
//! ] {
//!     for event in reader.feed(chunk).unwrap() {
//!         if let StreamEvent::CallComplete { call, .. } = event {
//!             started.push((call.name().to_owned(), call.arguments().clone()));
//!         }
//!     }
//! }
//! // As OpenAI sends them: the arguments' JSON text, which the registry reads.
//! assert_eq!(started, [("add".to_owned(), json!("{\"a\":1,\"b\":2}"))]);
//! let response = reader.finish().unwrap();
//! assert_eq!(provider.parse_calls(&response).unwrap()[0].id(), Some("call_1"));
//! ```

pub(crate) mod anthropic;
pub(crate) mod chat;
pub(crate) mod early;
pub(crate) mod frame;
pub(crate) mod gemini;
pub(crate) mod ollama;
pub(crate) mod partial;
pub(crate) mod replay;
pub(crate) mod responses;

use std::fmt;

use serde_json::Value;

use crate::dispatch::read::raw::DEFAULT_MAX_ARGUMENT_BYTES;
use crate::provider::Provider;
use crate::provider::call::ProviderCall;
use crate::provider::stream::frame::{Frame, FrameError, Frames, Framing};
pub use early::StreamedTurn;

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
        /// The call, as [`Provider::parse_calls`] gives it.
        call: ProviderCall,
    },
    /// The turn is over: [`StreamReader::finish`] gives the whole response.
    /// Gemini's stream has no last event: its turn is over when the body
    /// ends.
    Done,
}

/// Why a stream could not be read: the provider, where in the stream (a
/// byte offset), and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the {provider} stream could not be read at byte {offset}: {message}")]
pub struct StreamError {
    /// Whose stream.
    pub provider: Provider,
    /// Where: the start of the line at fault.
    pub offset: u64,
    /// What was wrong.
    pub message: String,
}

/// Reads one streamed response of a provider ([`Provider::stream_reader`]).
pub struct StreamReader {
    provider: Provider,
    frames: Frames,
    state: State,
    done: bool,
    /// The most argument text one call may gather.
    max_argument_bytes: usize,
    /// Frames read from the bytes of one `feed`, reused.
    scratch: Vec<Frame>,
    /// Each call's arguments so far, for [`StreamReader::partial_arguments`].
    arguments: Vec<String>,
}

/// Each family's own reading.
enum State {
    Chat(Box<chat::Chat>),
    Anthropic(anthropic::Anthropic),
    Responses(responses::Responses),
    Gemini(Box<gemini::Gemini>),
    /// Ollama's native lines; or, once its first byte says the stream is
    /// server-sent events (its `/v1`), Chat Completions.
    Ollama(Box<ollama::Ollama>, Decided),
    /// A provider that streams nothing (MCP).
    Unread,
}

/// Whether Ollama's framing is known yet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Decided {
    No,
    Yes,
}

impl fmt::Debug for StreamReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamReader")
            .field("provider", &self.provider)
            .field("bytes", &self.frames.seen())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Provider {
    /// A reader of this provider's streamed response (`stream: true`):
    /// feed it the body's bytes as they come. Every provider that streams
    /// is read: OpenAI Chat Completions (Groq, vLLM), Responses, Anthropic,
    /// Gemini (`streamGenerateContent?alt=sse`) and Ollama (its native
    /// `/api/chat` lines, or its `/v1` events, told apart by the first
    /// byte). MCP's `tools/call` does not stream: its reader's first
    /// `feed` is an error that says so.
    pub fn stream_reader(self) -> StreamReader {
        let (framing, state) = match self {
            Provider::OpenAiChat { .. } | Provider::Groq | Provider::Vllm { .. } => {
                (Framing::Events, State::Chat(Box::default()))
            }
            Provider::Anthropic { .. } => (
                Framing::Events,
                State::Anthropic(anthropic::Anthropic::default()),
            ),
            Provider::OpenAiResponses { .. } => (
                Framing::Events,
                State::Responses(responses::Responses::default()),
            ),
            Provider::Gemini { .. } => (Framing::Events, State::Gemini(Box::default())),
            Provider::Ollama => (Framing::Lines, State::Ollama(Box::default(), Decided::No)),
            Provider::Mcp => (Framing::Events, State::Unread),
        };
        StreamReader {
            provider: self,
            frames: Frames::new(
                framing,
                DEFAULT_MAX_ARGUMENT_BYTES.saturating_mul(2).max(1 << 20),
            ),
            state,
            done: false,
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
            scratch: Vec::new(),
            arguments: Vec::new(),
        }
    }
}

impl StreamReader {
    /// The same reader refusing a call whose arguments grow past `bytes`,
    /// as they arrive (the registry's `max_argument_bytes`, 1 MiB unless
    /// set).
    #[must_use]
    pub fn with_max_argument_bytes(mut self, bytes: usize) -> Self {
        self.max_argument_bytes = bytes;
        self.frames.set_limit(line_limit(bytes));
        self
    }

    /// Whose stream it reads.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// Reads `bytes`, the next of the stream: the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<StreamEvent>, StreamError> {
        if let State::Ollama(_, decided @ Decided::No) = &mut self.state
            && let Some(&first) = bytes.iter().find(|byte| !byte.is_ascii_whitespace())
        {
            *decided = Decided::Yes;
            if first != b'{' {
                // Server-sent events: Ollama's OpenAI-compatible `/v1`.
                self.state = State::Chat(Box::default());
                self.frames = Frames::new(Framing::Events, self.frames.limit());
            }
        }
        let mut frames = std::mem::take(&mut self.scratch);
        let framed = self.frames.push(bytes, &mut frames);
        let mut events = Vec::new();
        let read = self.read(&mut frames, &mut events);
        frames.clear();
        self.scratch = frames;
        framed.map_err(|error| self.frame_error(&error))?;
        read?;
        for event in &events {
            match event {
                StreamEvent::CallStarted { index, .. } if *index == self.arguments.len() => {
                    self.arguments.push(String::new());
                }
                StreamEvent::ArgumentsDelta { index, delta } => {
                    if let Some(so_far) = self.arguments.get_mut(*index) {
                        so_far.push_str(delta);
                    }
                }
                _ => {}
            }
        }
        Ok(events)
    }

    /// The `index`-th call's arguments as far as they have come, closed
    /// where they were cut, for an interface that shows them as they
    /// grow: a string cut short ends where it is, and a key whose value
    /// has not come is left out. `None` before the call's first bracket.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let mut reader = Provider::Anthropic { strict: false }.stream_reader();
    /// reader.feed(concat!(
    ///     "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[]}}\n\n",
    ///     "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,",
    ///     "\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write\",\"input\":{}}}\n\n",
    ///     "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,",
    ///     "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"title\\\": \\\"Stre\"}}\n\n",
    /// ).as_bytes()).unwrap();
    /// assert_eq!(reader.partial_arguments(0), Some(json!({"title": "Stre"})));
    /// ```
    pub fn partial_arguments(&self, index: usize) -> Option<Value> {
        partial::partial_arguments(self.arguments.get(index)?)
    }

    /// The whole response, once the stream has ended, as the provider
    /// would have sent it unstreamed: give it to
    /// [`Provider::parse_calls`], [`Provider::respond`]
    /// and the rest as any response. An error if the stream stopped before
    /// the provider said the turn was over.
    pub fn finish(mut self) -> Result<Value, StreamError> {
        let mut frames = Vec::new();
        self.frames
            .finish(&mut frames)
            .map_err(|error| self.frame_error(&error))?;
        let mut events = Vec::new();
        self.read(&mut frames, &mut events)?;
        let offset = self.frames.seen();
        let provider = self.provider;
        let error = |message: String| StreamError {
            provider,
            offset,
            message,
        };
        match self.state {
            State::Chat(chat) => chat.finish(self.done).map_err(error),
            State::Anthropic(anthropic) => anthropic.finish(self.done).map_err(error),
            State::Responses(responses) => responses.finish(self.done).map_err(error),
            State::Gemini(gemini) => gemini.finish().map_err(error),
            State::Ollama(ollama, _) => ollama.finish(self.done).map_err(error),
            State::Unread => Err(error(not_read(provider))),
        }
    }

    fn read(
        &mut self,
        frames: &mut Vec<Frame>,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        for frame in frames.drain(..) {
            let limit = self.max_argument_bytes;
            let read = match &mut self.state {
                State::Chat(chat) => chat.read(&frame, limit, self.provider, events),
                State::Anthropic(anthropic) => anthropic.read(&frame, limit, self.provider, events),
                State::Responses(responses) => responses.read(&frame, limit, self.provider, events),
                State::Gemini(gemini) => gemini.read(&frame, limit, self.provider, events),
                State::Ollama(ollama, _) => ollama.read(&frame, limit, self.provider, events),
                State::Unread => Err(not_read(self.provider)),
            };
            match read {
                Ok(done) => self.done |= done,
                Err(message) => {
                    return Err(StreamError {
                        provider: self.provider,
                        offset: frame.offset,
                        message,
                    });
                }
            }
        }
        Ok(())
    }

    fn frame_error(&self, error: &FrameError) -> StreamError {
        let (offset, message) = match error {
            FrameError::TooLong { limit, offset } => (
                *offset,
                format!("a line grew past {limit} bytes before it ended"),
            ),
            FrameError::NotText { offset } => (*offset, "a line is not UTF-8".to_owned()),
        };
        StreamError {
            provider: self.provider,
            offset,
            message,
        }
    }
}

/// The longest line a stream may send: room for a call's arguments,
/// escaped, in one event (Gemini and Ollama send them whole), and never
/// less than a megabyte.
fn line_limit(max_argument_bytes: usize) -> usize {
    max_argument_bytes.saturating_mul(2).max(1 << 20)
}

fn not_read(provider: Provider) -> String {
    format!("{provider} does not stream its responses")
}

/// A frame's data as JSON.
fn json(frame: &Frame) -> Result<Value, String> {
    serde_json::from_str(&frame.data).map_err(|error| {
        let shown: String = frame.data.chars().take(80).collect();
        format!("an event is not JSON ({error}): {shown}")
    })
}

/// An event's type: its `type` field, else the name the stream gave it.
fn event_type(frame: &Frame, event: &Value) -> String {
    event
        .get("type")
        .and_then(Value::as_str)
        .or(frame.event.as_deref())
        .unwrap_or_default()
        .to_owned()
}

/// Refuses arguments past the limit, as they grow.
fn bounded(index: usize, so_far: usize, limit: usize) -> Result<(), String> {
    if so_far > limit {
        return Err(format!(
            "the arguments of call {index} grew past {limit} bytes (the registry's max_argument_bytes)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod early_tests;
