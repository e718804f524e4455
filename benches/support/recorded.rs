//! The streams other projects recorded (`tests/fixtures/streams/recorded/`),
//! by family, for the benchmarks that read them.

use tool_core::provider::Provider;

/// Each family of the corpus: its label, its directories, and the provider
/// that reads them.
pub(crate) const FAMILIES: [(&str, &[&str], Provider); 4] = [
    (
        "OpenAI Chat and look-alikes",
        &["openai-chat", "groq", "deepseek", "xai"],
        Provider::OpenAiChat { strict: false },
    ),
    (
        "OpenAI Responses",
        &["openai-responses"],
        Provider::OpenAiResponses { strict: true },
    ),
    (
        "Anthropic",
        &["anthropic"],
        Provider::Anthropic { strict: false },
    ),
    ("Gemini", &["gemini"], Provider::Gemini { openapi: false }),
];

/// Every stream in `dirs` of the corpus at `root`, in the order of their
/// paths.
pub(crate) fn recorded(root: &str, dirs: &[&str]) -> Vec<Vec<u8>> {
    let mut streams = Vec::new();
    for dir in dirs {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .expect("the recorded corpus")
            .map(|entry| entry.expect("a stream").path())
            .collect();
        paths.sort();
        streams.extend(
            paths
                .iter()
                .map(|path| std::fs::read(path).expect("a stream")),
        );
    }
    streams
}
