//! The README's MCP server (`examples/mcp_notes.rs`): the README shows
//! the example as it is, and MCP's Python SDK on its defaults (protocol
//! 2026-07-28) reads its resource, gets its prompt, and answers the
//! question its tool asks, over stdio.

use std::path::Path;

use serde_json::json;

#[path = "support/example_server.rs"]
mod example_server;
#[path = "support/sdk_python.rs"]
mod sdk_python;

use example_server::example_binary;
use sdk_python::{run_report, sdk_python};

#[test]
fn the_readme_shows_the_example_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let example = std::fs::read_to_string(root.join("examples/mcp_notes.rs")).expect("the example");
    let body = &example[example.find("use schemars::JsonSchema;").expect("its code")..];
    let section = &readme[readme.find("## Serving MCP").expect("the MCP section")..];
    let shown = section
        .split("```rust,no_run\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the section's code");
    assert_eq!(
        shown, body,
        "the README's MCP section and examples/mcp_notes.rs differ"
    );
}

#[test]
fn a_client_of_2026_07_28_reads_gets_and_is_asked() {
    let python = sdk_python(
        "a_client_of_2026_07_28_reads_gets_and_is_asked",
        "the README's MCP server's client",
    );
    let server = example_binary("mcp_notes");
    let report = run_report(&python, "notes_client.py", &[server.as_os_str()]);
    assert_eq!(
        report,
        json!({
            "protocol": "2026-07-28",
            "resource": ["# Notes\n1. Buy milk.\n2. Call Ada."],
            "prompt": ["Summarise notes://all in at most 20 words."],
            "tool": {
                "asked": ["Delete note 3?", "Delete note 4?"],
                "results": [["deleted note 3"], ["kept note 4"]],
            },
        })
    );
}
