// The resources and prompts tool-mcp-server serves beside its tools
// (`McpServer::with_resources`, `McpServer::with_prompts`), so that the
// calls are measured with them there: a notebook's index and its
// template of notes, and two prompts, written as a user writes them
// (`#[resource]`, `#[prompt]`). The load calls only tools; before each
// run it checks that these are listed and read (`Session::check_served`).
// Included in tool-mcp-server.

use tool_core::prompt::{PromptMessage, Prompts};
use tool_core::resource::Resources;
use tool_core::{prompt, resource};

/// The notebook's resources.
fn resources() -> Resources {
    Resources::new().with(Index).with(Note)
}

/// The notebook's prompts.
fn prompts() -> Prompts {
    Prompts::new().with(SummarizeNotebook).with(DraftNote)
}

/// The titles of the notes in the notebook.
#[resource(uri = "notes://index", mime_type = "text/plain")]
fn index() -> &'static str {
    "Groceries\nBooks to read\n"
}

/// A note of the notebook, by its title.
#[resource(uri = "notes://note/{title}", mime_type = "text/plain", complete = titles)]
fn note(title: String) -> String {
    format!("{title}: milk, eggs")
}

/// The titles a note may be read by, for a client completing the URI.
fn titles(parameter: &str, prefix: &str) -> Vec<String> {
    if parameter != "title" {
        return Vec::new();
    }
    ["Groceries", "Books to read"]
        .into_iter()
        .filter(|title| title.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// Summarize the notebook.
#[prompt]
fn summarize_notebook() -> PromptMessage {
    PromptMessage::user("Summarize my notes.")
}

/// Draft a note on a topic.
#[prompt]
fn draft_note(
    /// What the note is about
    topic: String,
) -> PromptMessage {
    PromptMessage::user(format!("Draft a note about {topic}."))
}
