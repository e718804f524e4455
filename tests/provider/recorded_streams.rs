//! Streams recorded by other projects' test suites
//! (`tests/fixtures/streams/recorded/`, sources in its `SOURCES.md`), each
//! read by the library whole, cut into pieces of 1 to 64 bytes, and
//! truncated: what it reads must be what an independent reading of the
//! same bytes finds (`recorded_streams/`: the calls, their ids, names and
//! arguments, and the text), its events must agree with its `finish()`,
//! and no stream, however cut, makes it panic.

mod anthropic;
mod chat;
mod gemini;
mod independent;
mod responses;

use std::panic::{AssertUnwindSafe, catch_unwind};

use tool_core::provider::Provider;
use tool_core::provider::ProviderCall;
use tool_core::provider::stream::StreamEvent;

use independent::{Call, End, Reading, normal};

/// Where the corpus is.
const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/streams/recorded"
);

/// A provider's directories of the corpus, with the library's reader and
/// the independent one.
struct Family {
    dirs: &'static [&'static str],
    provider: Provider,
    read: fn(&[u8]) -> Reading,
}

/// The streams of `dirs`, by name.
fn streams(dirs: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut streams = Vec::new();
    for dir in dirs {
        let path = format!("{CORPUS}/{dir}");
        let entries = std::fs::read_dir(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
        for entry in entries {
            let entry = entry.unwrap_or_else(|error| panic!("{path}: {error}"));
            let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
            let bytes =
                std::fs::read(entry.path()).unwrap_or_else(|error| panic!("{name}: {error}"));
            streams.push((name, bytes));
        }
    }
    streams.sort();
    streams
}

/// What the library made of a stream fed in pieces.
struct Library {
    /// The calls its `CallComplete` events gave, in order.
    event_calls: Vec<Call>,
    event_text: String,
    dones: usize,
    /// The calls and text of `finish()`'s response, or the error that ended
    /// the reading.
    finished: Result<(Vec<Call>, String), String>,
}

fn call(call: &ProviderCall) -> Call {
    Call {
        id: call.id().map(str::to_owned),
        name: call.name().to_owned(),
        arguments: call.arguments().clone(),
    }
}

/// Keeps what `events` say of the calls, the text and the end.
fn take(read: &mut Library, events: Vec<StreamEvent>) {
    for event in events {
        match event {
            StreamEvent::Text(piece) => read.event_text.push_str(&piece),
            StreamEvent::CallComplete { call: made, .. } => read.event_calls.push(call(&made)),
            StreamEvent::Done => read.dones += 1,
            _ => {}
        }
    }
}

/// Feeds `bytes` to the library's reader, cut at `bounds` (ascending),
/// then ends it.
fn library(provider: Provider, bytes: &[u8], bounds: &[usize]) -> Library {
    let mut reader = provider.stream_reader();
    let mut read = Library {
        event_calls: Vec::new(),
        event_text: String::new(),
        dones: 0,
        finished: Err(String::new()),
    };
    let mut at = 0;
    for bound in bounds.iter().copied().chain([bytes.len()]) {
        match reader.feed(&bytes[at..bound]) {
            Ok(events) => take(&mut read, events),
            Err(error) => {
                read.finished = Err(error.to_string());
                return read;
            }
        }
        at = bound;
    }
    // The body is over: what its last bytes hold.
    match reader.end() {
        Ok(events) => take(&mut read, events),
        Err(error) => {
            read.finished = Err(error.to_string());
            return read;
        }
    }
    read.finished = match reader.finish() {
        Ok(response) => match provider.parse_calls(&response) {
            Ok(calls) => Ok((
                calls.iter().map(call).collect(),
                provider.text(&response).unwrap_or_default(),
            )),
            Err(error) => Err(format!("finish()'s response does not parse: {error}")),
        },
        Err(error) => Err(error.to_string()),
    };
    read
}

/// Where `first` and `second` differ, if they do: ids (where `first`
/// has one), names, and arguments read as JSON.
fn differ(first: &[Call], second: &[Call]) -> Option<String> {
    let same = first.len() == second.len()
        && first.iter().zip(second).all(|(one, other)| {
            (one.id.is_none() || one.id == other.id)
                && one.name == other.name
                && normal(&one.arguments) == normal(&other.arguments)
        });
    let shown = |calls: &[Call]| {
        calls
            .iter()
            .map(|call| {
                let id = call.id.as_deref().unwrap_or("-");
                format!("{id} {} {}", call.name, normal(&call.arguments))
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    (!same).then(|| format!("[{}] against [{}]", shown(first), shown(second)))
}

/// Text compared with its line breaks left out: `finish()`'s text joins
/// the response's parts by newlines, where the stream has none.
fn flat(text: &str) -> String {
    text.replace(['\n', '\r'], "")
}

/// What is wrong with the library's reading, against the independent one.
fn judge(expected: &Reading, got: &Library) -> Option<String> {
    match (&expected.end, &got.finished) {
        (End::Done, Err(error)) => Some(format!("refused: {error}")),
        (End::Done | End::Unreadable(_), Ok((calls, text))) => {
            if let Some(diff) = differ(&expected.calls, calls) {
                return Some(format!("finish()'s calls differ: expected {diff}"));
            }
            if let Some(diff) = differ(calls, &got.event_calls) {
                return Some(format!("the events' calls are not finish()'s: {diff}"));
            }
            if got.event_text != expected.text {
                return Some(format!(
                    "the events' text differs: {:?} against {:?}",
                    shorten(&got.event_text),
                    shorten(&expected.text)
                ));
            }
            let whole = expected.final_text.as_ref().unwrap_or(&expected.text);
            if flat(text) != flat(whole) {
                return Some(format!(
                    "finish()'s text differs: {:?} against {:?}",
                    shorten(text),
                    shorten(whole)
                ));
            }
            // Gemini's Done comes when its body ends, as the others' at
            // their closing event; once, whatever the cuts.
            (got.dones != 1).then(|| format!("{} Done events", got.dones))
        }
        (End::Error(message), Ok(_)) => Some(format!(
            "the stream's error ({}) was read as a whole response",
            shorten(message)
        )),
        (End::Cut, Ok(_)) => {
            Some("a stream that stopped before its end was read as a whole response".into())
        }
        (End::Error(_) | End::Cut | End::Unreadable(_), Err(_)) => None,
    }
}

fn shorten(text: &str) -> String {
    let cut: String = text.chars().take(120).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// A small seeded generator (xorshift64*), so that every run cuts alike.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bound.max(1)
    }

    /// Bounds cutting `len` bytes into pieces of 1 to 64.
    fn pieces(&mut self, len: usize) -> Vec<usize> {
        let mut bounds = Vec::new();
        let mut at = 0;
        while at < len {
            at = (at + 1 + self.below(64)).min(len);
            bounds.push(at);
        }
        bounds
    }
}

/// The library's reading of one stream under every cut, as failures.
fn check_stream(family: &Family, name: &str, bytes: &[u8], seed: u64) -> Vec<String> {
    let provider = family.provider;
    let expected = (family.read)(bytes).checked();
    let mut failures = Vec::new();
    let guarded = |bytes: &[u8], bounds: &[usize]| {
        catch_unwind(AssertUnwindSafe(|| library(provider, bytes, bounds)))
            .map_err(|_| "the reader panicked".to_owned())
    };
    let whole = guarded(bytes, &[]);
    let whole_verdict = match &whole {
        Ok(read) => judge(&expected, read),
        Err(panic) => Some(panic.clone()),
    };
    if let Some(verdict) = &whole_verdict {
        failures.push(format!("{name} (whole): {verdict}"));
    }
    let mut seeded = Seeded(seed | 1);
    for cut in 0..8 {
        // The first cut is byte by byte: every UTF-8 character split.
        let bounds = match cut {
            0 => (1..bytes.len()).collect(),
            _ => seeded.pieces(bytes.len()),
        };
        let verdict = match guarded(bytes, &bounds) {
            Ok(read) => judge(&expected, &read),
            Err(panic) => Some(panic),
        };
        // Cut as whole, wrong as whole: said once.
        if verdict.is_some() && verdict != whole_verdict {
            let verdict = verdict.unwrap_or_default();
            failures.push(format!(
                "{name} (cut {cut}, pieces of 1 to 64 bytes): {verdict}"
            ));
        }
    }
    for _ in 0..16 {
        let at = seeded.below(bytes.len());
        let bounds = seeded.pieces(at);
        let bounds = &bounds[..bounds.len().saturating_sub(1)];
        match guarded(&bytes[..at], bounds) {
            Err(panic) => failures.push(format!("{name} (truncated at {at}): {panic}")),
            Ok(read) => {
                if let Ok((calls, _)) = &read.finished
                    && let Some(diff) = differ(calls, &read.event_calls)
                {
                    failures.push(format!(
                        "{name} (truncated at {at}): the events' calls are not finish()'s: {diff}"
                    ));
                }
            }
        }
    }
    failures
}

/// Every stream of `family`: the failures, listed, fail the test.
fn check_family(family: &Family) {
    let streams = streams(family.dirs);
    assert!(!streams.is_empty(), "no streams in {:?}", family.dirs);
    let mut failures = Vec::new();
    let mut failing = 0;
    for (at, (name, bytes)) in streams.iter().enumerate() {
        let found = check_stream(family, name, bytes, 0x5eed_0000 + at as u64);
        failing += usize::from(!found.is_empty());
        failures.extend(found);
    }
    assert!(
        failures.is_empty(),
        "{failing} of {} recorded streams are misread:\n{}",
        streams.len(),
        failures.join("\n")
    );
}

#[test]
fn openai_chat_and_its_look_alikes_read_as_recorded() {
    check_family(&Family {
        dirs: &["openai-chat", "deepseek", "xai"],
        provider: Provider::OpenAiChat { strict: false },
        read: chat::read,
    });
}

#[test]
fn groq_reads_as_recorded() {
    check_family(&Family {
        dirs: &["groq"],
        provider: Provider::Groq,
        read: chat::read,
    });
}

#[test]
fn openai_responses_reads_as_recorded() {
    check_family(&Family {
        dirs: &["openai-responses"],
        provider: Provider::OpenAiResponses { strict: false },
        read: responses::read,
    });
}

#[test]
fn anthropic_reads_as_recorded() {
    check_family(&Family {
        dirs: &["anthropic"],
        provider: Provider::Anthropic { strict: false },
        read: anthropic::read,
    });
}

#[test]
fn gemini_reads_as_recorded() {
    check_family(&Family {
        dirs: &["gemini"],
        provider: Provider::Gemini { openapi: false },
        read: gemini::read,
    });
}

#[test]
fn every_recorded_stream_has_its_source() {
    let sources = std::fs::read_to_string(format!("{CORPUS}/SOURCES.md"))
        .unwrap_or_else(|error| panic!("SOURCES.md: {error}"));
    let dirs = [
        "openai-chat",
        "deepseek",
        "xai",
        "groq",
        "openai-responses",
        "anthropic",
        "gemini",
    ];
    let streams = streams(&dirs);
    assert!(streams.len() >= 60, "{} streams", streams.len());
    for (name, _) in &streams {
        assert!(
            sources.contains(&format!("`{name}`")),
            "{name} is not in SOURCES.md"
        );
    }
}
