//! A child server's stderr, read to its end and logged line by line: in
//! chunks, so that a line without an end is never held whole; lossily, so
//! that bytes that are not UTF-8 are shown replaced rather than ending the
//! reading (an ended reading would close the pipe, and the server would
//! die at its next write).

use tokio::io::{AsyncRead, AsyncReadExt};

/// The characters of one line the log shows at most.
const SHOWN_CHARS: usize = 500;

/// The bytes of one line kept: enough for [`SHOWN_CHARS`] characters of
/// four bytes each (a byte that is not UTF-8 shows as one character).
const KEPT_BYTES: usize = SHOWN_CHARS * 4;

/// The bytes read at a time.
const CHUNK_BYTES: usize = 8 * 1024;

/// Reads `stderr` to its end, so that the child never blocks on a full
/// pipe, each line logged at debug level, cut to [`SHOWN_CHARS`].
pub(crate) async fn drain(server: String, mut stderr: impl AsyncRead + Unpin) {
    let mut chunk = vec![0; CHUNK_BYTES];
    let mut line = Line::default();
    let log = |shown: String| tracing::debug!(server = %server, "stderr: {shown}");
    loop {
        match stderr.read(&mut chunk).await {
            Ok(0) => break,
            Ok(read) => line.take(&chunk[..read], log),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    line.end(log);
}

/// The start of the line being read, across reads.
#[derive(Default)]
struct Line {
    kept: Vec<u8>,
}

impl Line {
    /// Takes in what was read; each line it ends goes to `log`, shown.
    fn take(&mut self, mut read: &[u8], log: impl Fn(String)) {
        while !read.is_empty() {
            let (part, rest) = match memchr::memchr(b'\n', read) {
                Some(at) => (&read[..at], Some(&read[at + 1..])),
                None => (read, None),
            };
            let room = KEPT_BYTES.saturating_sub(self.kept.len());
            self.kept.extend_from_slice(&part[..part.len().min(room)]);
            let Some(rest) = rest else { return };
            log(self.shown());
            self.kept.clear();
            read = rest;
        }
    }

    /// The last line, which has no end.
    fn end(&mut self, log: impl Fn(String)) {
        if !self.kept.is_empty() {
            log(self.shown());
        }
    }

    /// The line as the log shows it: its `\r` left out, its first
    /// [`SHOWN_CHARS`] characters.
    fn shown(&self) -> String {
        let line = self.kept.strip_suffix(b"\r").unwrap_or(&self.kept);
        String::from_utf8_lossy(line)
            .chars()
            .take(SHOWN_CHARS)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn lines_are_cut_and_read_lossily_across_reads() {
        let logged = Mutex::new(Vec::new());
        let log = |shown: String| logged.lock().expect("not poisoned").push(shown);
        let mut line = Line::default();
        let mut stream = vec![b'x'; 3 * CHUNK_BYTES];
        stream.extend_from_slice(b"\n\xff\xfe bytes\r\nlast");
        for chunk in stream.chunks(1000) {
            line.take(chunk, log);
            assert!(line.kept.len() <= KEPT_BYTES);
        }
        line.end(log);
        let logged = logged.into_inner().expect("not poisoned");
        assert_eq!(
            logged,
            [
                "x".repeat(SHOWN_CHARS),
                "\u{fffd}\u{fffd} bytes".to_owned(),
                "last".to_owned()
            ]
        );
    }
}
