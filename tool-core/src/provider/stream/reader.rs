//! The reader of one streamed response: the bytes framed and bounded, the
//! family's reader fed each frame, the arguments gathered as they grow.

use std::fmt;

use serde_json::Value;

use crate::dispatch::read::raw::DEFAULT_MAX_ARGUMENT_BYTES;
use crate::provider::selector::Provider;
use crate::provider::stream::event::{ReadStream, StreamEvent};
use crate::provider::stream::frame::{Frame, FrameError, Frames, Framing};
use crate::provider::stream::partial;

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
    /// The family's reading; `None` for a family that does not stream.
    state: Option<Box<dyn ReadStream>>,
    /// Whether the stream's first byte that is not blank has come.
    begun: bool,
    /// Whether the bytes are over ([`end`](Self::end)).
    ended: bool,
    done: bool,
    /// The most argument text one call may gather.
    max_argument_bytes: usize,
    /// Frames read from the bytes of one `feed`, reused.
    scratch: Vec<Frame>,
    /// Each call's arguments so far, for [`StreamReader::partial_arguments`].
    arguments: Vec<String>,
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
        let state = self.family().stream_reader();
        let framing = state
            .as_ref()
            .map_or(Framing::Events, |state| state.framing());
        StreamReader {
            provider: self,
            frames: Frames::new(
                framing,
                DEFAULT_MAX_ARGUMENT_BYTES.saturating_mul(2).max(1 << 20),
            ),
            state,
            begun: false,
            ended: false,
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
        if !self.begun
            && let Some(&first) = bytes.iter().find(|byte| !byte.is_ascii_whitespace())
        {
            self.begun = true;
            // A family that tells its framing by the first byte (Ollama's
            // lines, or its `/v1`'s events) is told it.
            if let Some(framing) = self
                .state
                .as_mut()
                .and_then(|state| state.first_byte(first))
            {
                self.frames = Frames::new(framing, self.frames.limit());
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
        self.follow(&events);
        Ok(events)
    }

    /// The bytes are over: the events of what the last of them hold. A
    /// stream may end its last event without the blank line that ends the
    /// others, and [`feed`](Self::feed) keeps such an event until it knows
    /// it is whole. Call it once the body has ended, before
    /// [`finish`](Self::finish), to see every event the stream had.
    ///
    /// ```
    /// use tool_core::provider::Provider;
    /// use tool_core::provider::stream::StreamEvent;
    ///
    /// let mut reader = Provider::Anthropic { strict: false }.stream_reader();
    /// reader.feed(concat!(
    ///     "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[]}}\n\n",
    ///     "event: message_stop\ndata: {\"type\":\"message_stop\"}",
    /// ).as_bytes()).unwrap();
    /// assert_eq!(reader.end().unwrap(), [StreamEvent::Done]);
    /// assert!(reader.finish().is_ok());
    /// ```
    pub fn end(&mut self) -> Result<Vec<StreamEvent>, StreamError> {
        let mut frames = Vec::new();
        self.frames
            .finish(&mut frames)
            .map_err(|error| self.frame_error(&error))?;
        let mut events = Vec::new();
        self.read(&mut frames, &mut events)?;
        if !self.ended
            && self.begun
            && self
                .state
                .as_ref()
                .is_some_and(|state| state.ends_with_body())
        {
            events.push(StreamEvent::Done);
        }
        self.ended = true;
        self.follow(&events);
        Ok(events)
    }

    /// How many events, or parts of one, of types the reader does not know
    /// it has passed over: kinds the provider added since, which carry
    /// nothing the calls need (Anthropic's `compaction_delta`, say). The
    /// reader fails only on what leaves the calls unreadable.
    pub fn passed_over(&self) -> usize {
        self.state.as_ref().map_or(0, |state| state.passed_over())
    }

    /// Keeps each call's arguments as they grow, for
    /// [`partial_arguments`](Self::partial_arguments).
    fn follow(&mut self, events: &[StreamEvent]) {
        for event in events {
            match event {
                // A call started again in its place (a message begun again)
                // starts its arguments anew.
                StreamEvent::CallStarted { index, .. } if *index <= self.arguments.len() => {
                    self.arguments.truncate(*index);
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
        // What the last bytes hold, if `end` was not called: the message
        // is whole either way.
        self.end()?;
        let offset = self.frames.seen();
        let provider = self.provider;
        let error = |message: String| StreamError {
            provider,
            offset,
            message,
        };
        match self.state {
            Some(state) => state.finish(self.done).map_err(error),
            None => Err(error(not_read(provider))),
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
                Some(state) => state.read(&frame, limit, events),
                None => Err(not_read(self.provider)),
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
