//! A child server's output, scanned one line (one message) at a time on
//! its way to rmcp: each line is read for [`Heard::note`]; a line over
//! [`MAX_MESSAGE_BYTES`] is cut short where it crosses the limit (rmcp
//! drops what it had of it, unparsable), the rest of it passes unkept,
//! and, when it answers a request, an error answer stands in for it
//! ([`Scan`]), so that the call ends at once, saying why; a `tools/list`
//! answer nested too deep for rmcp is given again without its tools
//! nested too deep ([`TooDeep`](super::deep::TooDeep)).

use super::heard::{Heard, MAX_MESSAGE_BYTES};
use super::oversized::Scan;

/// The line being read, across reads.
#[derive(Default)]
pub(crate) struct Lines {
    line: Vec<u8>,
    /// The current line is over [`MAX_MESSAGE_BYTES`]: not kept, only
    /// scanned.
    over: Option<Box<Scan>>,
}

impl Lines {
    /// Takes in what was read, and notes each line it ends; `read` is left
    /// holding, at its start, the bytes rmcp is to read first (the count
    /// returned), and `after` what follows them.
    pub(crate) fn scan(&mut self, read: &mut [u8], heard: &Heard, after: &mut Vec<u8>) -> usize {
        let mut kept = 0;
        // Bytes go to `after` from the first one put in, so that they stay
        // in order.
        let mut pass = |read: &mut [u8], from: usize, to: usize, after: &mut Vec<u8>| {
            if after.is_empty() {
                read.copy_within(from..to, kept);
                kept += to - from;
            } else {
                after.extend_from_slice(&read[from..to]);
            }
        };
        let mut at = 0;
        while at < read.len() {
            let (end, ends) = match memchr::memchr(b'\n', &read[at..]) {
                Some(found) => (at + found, true),
                None => (read.len(), false),
            };
            if let Some(over) = &mut self.over {
                over.feed(&read[at..end]);
                after.extend(over.stand_in().into_iter().flatten());
            } else if self.line.len() + (end - at) > MAX_MESSAGE_BYTES {
                let mut over = Box::<Scan>::default();
                over.feed(&self.line);
                over.feed(&read[at..end]);
                self.line = Vec::new();
                // The end of what rmcp has of the line, which it drops.
                after.push(b'\n');
                after.extend(over.stand_in().into_iter().flatten());
                self.over = Some(over);
            } else {
                pass(read, at, end + usize::from(ends), after);
                self.line.extend_from_slice(&read[at..end]);
                if ends {
                    // A listing too deep for rmcp, which drops it unread,
                    // is given again without its tools nested too deep.
                    match heard.too_deep.rewrite(&self.line) {
                        Some(again) => {
                            heard.note(&again);
                            after.extend_from_slice(&again);
                        }
                        None => heard.note(&self.line),
                    }
                }
            }
            if ends {
                self.line.clear();
                self.over = None;
            }
            at = end + usize::from(ends);
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn heard() -> Heard {
        Heard {
            tasks: Arc::default(),
            reports: Arc::default(),
            too_deep: Arc::default(),
            desk: Arc::default(),
        }
    }

    #[test]
    fn lines_are_read_whole_across_reads() {
        let heard = heard();
        let mut lines = Lines::default();
        let page = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"research","inputSchema":{},"execution":{"taskSupport":"required"}}]}}"#;
        let mut stream = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n".to_vec();
        stream.extend_from_slice(page);
        stream.push(b'\n');
        let mut passed = Vec::new();
        for chunk in stream.chunks(7) {
            let mut chunk = chunk.to_vec();
            let mut after = Vec::new();
            let kept = lines.scan(&mut chunk, &heard, &mut after);
            passed.extend_from_slice(&chunk[..kept]);
            passed.extend_from_slice(&after);
        }
        assert!(heard.tasks.contains("research"));
        assert!(lines.line.is_empty(), "nothing left over at a line's end");
        assert_eq!(passed, stream, "passed as it was");
    }

    #[test]
    fn a_line_over_the_limit_is_cut_and_an_error_answers_for_it() {
        let heard = heard();
        let mut lines = Lines::default();
        let mut stream =
            br#"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":""#.to_vec();
        stream.resize(stream.len() + MAX_MESSAGE_BYTES + 10, b'z');
        stream.extend_from_slice(b"\"}]}}\n{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n");
        let mut passed = Vec::new();
        for chunk in stream.chunks(64 * 1024) {
            let mut chunk = chunk.to_vec();
            let mut after = Vec::new();
            let kept = lines.scan(&mut chunk, &heard, &mut after);
            passed.extend_from_slice(&chunk[..kept]);
            passed.extend_from_slice(&after);
            assert!(lines.line.len() <= MAX_MESSAGE_BYTES);
        }
        let passed: Vec<&[u8]> = passed.split(|byte| *byte == b'\n').collect();
        assert_eq!(
            passed.len(),
            4,
            "the cut line, its stand-in, the next, and the end"
        );
        assert!(passed[0].len() <= MAX_MESSAGE_BYTES);
        let stand_in: serde_json::Value = serde_json::from_slice(passed[1]).expect("JSON");
        assert_eq!(stand_in["id"], 4);
        assert_eq!(passed[2], br#"{"jsonrpc":"2.0","id":5,"result":{}}"#);
        assert!(passed[3].is_empty());
    }
}
