//! The quickstart's tools as one provider takes them, as JSON on stdout:
//! feed the output to the provider's own SDK or validator.
//!
//! ```text
//! cargo run --example definitions -- <provider>
//! ```
//!
//! where `<provider>` is one of `openai`, `openai-strict`,
//! `openai-responses`, `openai-responses-loose`, `anthropic`,
//! `anthropic-strict`, `gemini`, `gemini-openapi`, `mcp`, `groq`, `ollama`,
//! `vllm` or `vllm-strict`. A tool that strict mode cannot hold is said on
//! stderr.

use std::process::ExitCode;

use tool_core::provider::Provider;

#[path = "quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

/// The definitions for the provider named `name`, pretty-printed, and the
/// notes about tools that go without strict mode.
pub(crate) fn definitions_json(name: &str) -> Result<(String, Vec<String>), String> {
    let provider: Provider = name.parse().map_err(|error| format!("{error}"))?;
    let definitions = provider
        .definitions(&quickstart::registry())
        .map_err(|error| error.to_string())?;
    let notes = definitions
        .not_strict()
        .iter()
        .map(ToString::to_string)
        .collect();
    let json = serde_json::to_string_pretty(definitions.as_json()).map_err(|e| e.to_string())?;
    Ok((json, notes))
}

fn main() -> ExitCode {
    let Some(name) = std::env::args().nth(1) else {
        eprintln!(
            "usage: cargo run --example definitions -- <provider>\nproviders: {}",
            Provider::ALL.map(|p| p.name()).join(", ")
        );
        return ExitCode::from(2);
    };
    match definitions_json(&name) {
        Ok((json, notes)) => {
            for note in notes {
                eprintln!("note: {note}");
            }
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
