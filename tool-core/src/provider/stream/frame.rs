//! The framing of a stream, before any provider reads it: server-sent
//! events (`event:` and `data:` lines, a blank line ending each event) or
//! one JSON object a line (Ollama's `/api/chat`). Bytes come as they
//! arrive, cut anywhere; a frame is given once it is whole, and what waits
//! for the rest is bounded.

/// One frame of a stream, as a [`ReadStream`](super::ReadStream) reads it:
/// a server-sent event (its name, if it has one, and its data lines joined)
/// or one line.
///
/// ```
/// use tool_core::provider::stream::Framing;
///
/// // Frames are made by the stream reader; a family's reader is told how
/// // its stream is framed.
/// assert_ne!(Framing::Events, Framing::Lines);
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Frame {
    pub(crate) event: Option<String>,
    pub(crate) data: String,
    /// Where in the stream it began, for errors.
    pub(crate) offset: u64,
}

/// How a stream is framed: see [`Frame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Framing {
    /// Server-sent events.
    Events,
    /// A JSON object a line.
    Lines,
}

impl Frame {
    /// The event's name (`event:`), for server-sent events that name it.
    pub fn event(&self) -> Option<&str> {
        self.event.as_deref()
    }

    /// The event's data (its `data:` lines joined by newlines), or the
    /// line.
    pub fn data(&self) -> &str {
        &self.data
    }

    /// Where in the stream the frame began, in bytes.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

/// Why framing failed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FrameError {
    /// A line longer than the limit, before its end came.
    TooLong { limit: usize, offset: u64 },
    /// A line that is not UTF-8.
    NotText { offset: u64 },
}

/// Frames bytes as they come.
#[derive(Debug)]
pub(crate) struct Frames {
    framing: Framing,
    /// The part of a line not ended yet.
    line: Vec<u8>,
    /// Where `line` began in the stream.
    line_at: u64,
    /// Bytes seen so far.
    seen: u64,
    /// The event being read: its name and data lines, and where its
    /// first line began.
    event: Option<String>,
    data: Option<String>,
    event_at: Option<u64>,
    /// The longest line, and the most data an event gathers.
    limit: usize,
    /// A `\r` ended the last chunk: a `\n` first in the next belongs to it.
    after_cr: bool,
}

impl Frames {
    pub(crate) fn new(framing: Framing, limit: usize) -> Self {
        Self {
            framing,
            line: Vec::new(),
            line_at: 0,
            seen: 0,
            event: None,
            data: None,
            event_at: None,
            limit,
            after_cr: false,
        }
    }

    /// The longest line it takes.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Takes lines up to `limit` bytes from now on.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// Bytes seen so far.
    pub(crate) fn seen(&self) -> u64 {
        self.seen
    }

    /// The frames `bytes` completes.
    pub(crate) fn push(&mut self, bytes: &[u8], frames: &mut Vec<Frame>) -> Result<(), FrameError> {
        let mut rest = bytes;
        if self.after_cr {
            self.after_cr = false;
            if let [b'\n', tail @ ..] = rest {
                self.seen += 1;
                self.line_at = self.seen;
                rest = tail;
            }
        }
        while !rest.is_empty() {
            let end = rest.iter().position(|&byte| byte == b'\n' || byte == b'\r');
            let Some(end) = end else {
                self.take_part(rest)?;
                self.seen += rest.len() as u64;
                return Ok(());
            };
            self.take_part(&rest[..end])?;
            let mut ended = end + 1;
            if rest[end] == b'\r' {
                match rest.get(end + 1) {
                    Some(b'\n') => ended += 1,
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
            self.seen += ended as u64;
            let line = std::mem::take(&mut self.line);
            let at = self.line_at;
            self.line_at = self.seen;
            self.line_ended(line, at, frames)?;
            rest = &rest[ended..];
        }
        Ok(())
    }

    /// What is left at the end of the stream: an event whose blank line
    /// never came (some providers' last), or a last line with no newline.
    pub(crate) fn finish(&mut self, frames: &mut Vec<Frame>) -> Result<(), FrameError> {
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.line_ended(line, self.line_at, frames)?;
        }
        if self.framing == Framing::Events {
            self.dispatch(self.seen, frames);
        }
        Ok(())
    }

    fn take_part(&mut self, part: &[u8]) -> Result<(), FrameError> {
        if self.line.len() + part.len() > self.limit {
            return Err(FrameError::TooLong {
                limit: self.limit,
                offset: self.line_at,
            });
        }
        self.line.extend_from_slice(part);
        Ok(())
    }

    fn line_ended(
        &mut self,
        line: Vec<u8>,
        at: u64,
        frames: &mut Vec<Frame>,
    ) -> Result<(), FrameError> {
        let line = String::from_utf8(line).map_err(|_| FrameError::NotText { offset: at })?;
        match self.framing {
            Framing::Lines => {
                if !line.trim().is_empty() {
                    frames.push(Frame {
                        event: None,
                        data: line,
                        offset: at,
                    });
                }
            }
            Framing::Events => {
                if line.is_empty() {
                    self.dispatch(at, frames);
                    return Ok(());
                }
                // A comment (`: keep-alive`).
                if line.starts_with(':') {
                    return Ok(());
                }
                self.event_at.get_or_insert(at);
                let (field, value) = match line.split_once(':') {
                    Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
                    None => (line.as_str(), ""),
                };
                match field {
                    "event" => self.event = Some(value.to_owned()),
                    "data" => {
                        let data = self.data.get_or_insert_with(String::new);
                        if data.len() + value.len() + 1 > self.limit {
                            return Err(FrameError::TooLong {
                                limit: self.limit,
                                offset: at,
                            });
                        }
                        if !data.is_empty() {
                            data.push('\n');
                        }
                        data.push_str(value);
                    }
                    // `id`, `retry` and anything unknown: nothing a reader needs.
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn dispatch(&mut self, at: u64, frames: &mut Vec<Frame>) {
        let event = self.event.take();
        let offset = self.event_at.take().unwrap_or(at);
        if let Some(data) = self.data.take() {
            frames.push(Frame {
                event,
                data,
                offset,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(framing: Framing, chunks: &[&[u8]]) -> Vec<(Option<String>, String)> {
        let mut frames = Frames::new(framing, 1 << 20);
        let mut out = Vec::new();
        for chunk in chunks {
            frames.push(chunk, &mut out).expect("framed");
        }
        frames.finish(&mut out).expect("finished");
        out.into_iter()
            .map(|frame| (frame.event, frame.data))
            .collect()
    }

    #[test]
    fn events_are_whole_however_the_bytes_are_cut() {
        let stream = b"event: a\ndata: {\"x\":1}\n\n: ping\r\nevent: b\r\ndata: one\r\ndata:two\r\n\r\ndata: [DONE]\n\n";
        let whole = framed(Framing::Events, &[stream]);
        assert_eq!(
            whole,
            [
                (Some("a".to_owned()), "{\"x\":1}".to_owned()),
                (Some("b".to_owned()), "one\ntwo".to_owned()),
                (None, "[DONE]".to_owned()),
            ]
        );
        for cut in 0..stream.len() {
            assert_eq!(
                framed(Framing::Events, &[&stream[..cut], &stream[cut..]]),
                whole,
                "cut at {cut}"
            );
        }
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(framed(Framing::Events, &bytes), whole);
    }

    #[test]
    fn a_last_event_without_its_blank_line_is_kept() {
        assert_eq!(
            framed(Framing::Events, &[b"event: message_stop\ndata: {}"]),
            [(Some("message_stop".to_owned()), "{}".to_owned())]
        );
    }

    #[test]
    fn lines_are_one_object_each() {
        assert_eq!(
            framed(Framing::Lines, &[b"{\"a\":1}\n\n{\"b\"", b":2}\n{\"c\":3}"]),
            [
                (None, "{\"a\":1}".to_owned()),
                (None, "{\"b\":2}".to_owned()),
                (None, "{\"c\":3}".to_owned()),
            ]
        );
    }

    #[test]
    fn a_line_past_the_limit_is_refused_before_it_ends() {
        let mut frames = Frames::new(Framing::Events, 16);
        let mut out = Vec::new();
        frames.push(b"data: short\n\n", &mut out).expect("fits");
        let error = frames
            .push(b"data: 0123456789abcdef", &mut out)
            .expect_err("too long");
        assert_eq!(
            error,
            FrameError::TooLong {
                limit: 16,
                offset: 13
            }
        );
        let mut frames = Frames::new(Framing::Lines, 64);
        assert_eq!(
            frames.push(b"{\"a\":1}\n\xff\xfe\n", &mut out),
            Err(FrameError::NotText { offset: 8 })
        );
    }
}
