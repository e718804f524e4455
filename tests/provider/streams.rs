//! Streams cut and corrupted at random (proptest): every provider's reader
//! ends each in events and a whole response, or in a `StreamError` that
//! names the provider and a byte within the stream; it never panics, and
//! what it holds stays bounded however long a line grows.

use proptest::prelude::*;
use tool_core::provider::Provider;
use tool_core::provider::stream::StreamEvent;

/// Every streamed fixture, with the provider that reads it.
fn streams() -> Vec<(Provider, Vec<u8>)> {
    let read = |name: &str| {
        std::fs::read(format!(
            "{}/tests/fixtures/streams/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap_or_else(|error| panic!("{name}: {error}"))
    };
    vec![
        (
            Provider::OpenAiChat { strict: false },
            read("openai-chat-tool-calls.sse"),
        ),
        (
            Provider::OpenAiChat { strict: false },
            read("openai-chat-tool-calls-recorded.sse"),
        ),
        (Provider::Groq, read("groq-tool-calls-recorded.sse")),
        (
            Provider::Anthropic { strict: false },
            read("anthropic-tool-use.sse"),
        ),
        (
            Provider::OpenAiResponses { strict: true },
            read("openai-responses-tool-calls.sse"),
        ),
        (
            Provider::Gemini { openapi: false },
            read("gemini-function-call.sse"),
        ),
        (Provider::Ollama, read("ollama-tool-calls.ndjson")),
    ]
}

/// Reads `stream` in the pieces `cuts` makes: the error, if any, checked
/// to name the provider and a byte of the stream.
fn read_all(
    provider: Provider,
    stream: &[u8],
    cuts: &[usize],
    limit: usize,
) -> Result<usize, String> {
    let mut reader = provider.stream_reader().with_max_argument_bytes(limit);
    let mut at = 0;
    let mut calls = 0;
    let mut bounds: Vec<usize> = cuts.iter().map(|cut| cut % (stream.len() + 1)).collect();
    bounds.sort_unstable();
    bounds.push(stream.len());
    let check = |error: tool_core::provider::stream::StreamError| {
        assert_eq!(error.provider, provider);
        assert!(error.offset <= stream.len() as u64, "{error}");
        assert!(
            error
                .to_string()
                .starts_with(&format!("the {provider} stream could not be read at byte "))
        );
        error.to_string()
    };
    for bound in bounds {
        let events = reader.feed(&stream[at..bound]).map_err(check)?;
        calls += events
            .iter()
            .filter(|event| matches!(event, StreamEvent::CallComplete { .. }))
            .count();
        at = bound;
    }
    reader.finish().map_err(check)?;
    Ok(calls)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_stream_cut_anywhere_reads_the_same(which in 0usize..7, cuts in prop::collection::vec(any::<usize>(), 0..12)) {
        let (provider, stream) = &streams()[which];
        let whole = read_all(*provider, stream, &[], 1 << 20);
        prop_assert!(whole.is_ok(), "{whole:?}");
        prop_assert_eq!(read_all(*provider, stream, &cuts, 1 << 20), whole);
    }

    #[test]
    fn a_corrupted_or_truncated_stream_ends_in_an_error_or_a_whole_response(
        which in 0usize..7,
        at in any::<usize>(),
        byte in any::<u8>(),
        truncate in any::<bool>(),
        cuts in prop::collection::vec(any::<usize>(), 0..6),
        limit in 1usize..64,
    ) {
        let (provider, stream) = &streams()[which];
        let mut stream = stream.clone();
        let at = at % stream.len();
        if truncate {
            stream.truncate(at);
        } else {
            stream[at] = byte;
        }
        // Either way: no panic, and an error that says where.
        let _ = read_all(*provider, &stream, &cuts, 1 << 20);
        // Arguments past a small limit are refused as they come.
        let _ = read_all(*provider, &stream, &cuts, limit);
    }
}

#[test]
fn a_line_that_never_ends_is_refused_before_it_is_all_buffered() {
    let mut reader = Provider::OpenAiChat { strict: false }.stream_reader();
    let endless = vec![b'x'; 64 * 1024];
    let mut refused = None;
    for _ in 0..1024 {
        if let Err(error) = reader.feed(&endless) {
            refused = Some(error.to_string());
            break;
        }
    }
    assert_eq!(
        refused.as_deref(),
        Some(
            "the openai stream could not be read at byte 0: a line grew past 2097152 bytes before it ended"
        )
    );
}
