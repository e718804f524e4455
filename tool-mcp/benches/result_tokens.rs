//! What a mounted server's text result costs the model, in `o200k_base`
//! tokens (tool-core's `tokens` feature): MCP's reference server
//! `filesystem` reads a 20 KiB text file with `read_text_file`, which
//! answers with the file as a text block and again as structured content,
//! `{"content": "…"}`. The model reads the text block as the server wrote
//! it; beside it, the same file as the structured content's compact JSON,
//! which is what a mounted result's text was when the structure replaced
//! the text (its newlines and quotes escaped).
//!
//! Run with `cargo bench -p tool-mcp --features tool-core/tokens --bench
//! result_tokens` (the server from `TOOL_SDK_NODE_MODULES`, as
//! `scripts/test` installs it); see BENCHMARKS.md. The counts are exact:
//! the same file gives the same figures on any machine.

use std::path::Path;

use tokio::process::Command;
use tool_core::toolset::{Compose, RegistryHandle};
use tool_core::{ToolContext, ToolRegistry, ToolResult};
use tool_mcp::mount::Mount;

#[path = "../../tests/support/sdk_node.rs"]
#[allow(dead_code, reason = "only the packages' folder is needed here")]
mod sdk_node;

/// Each file's size: 20 KiB, cut at the last line end before it.
const SIZE: usize = 20 * 1024;

/// `text`'s first [`SIZE`] bytes, cut at a line end.
fn first_20_kib(text: &str) -> String {
    let end = text.len().min(SIZE);
    let cut = text.as_bytes()[..end]
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(end, |at| at + 1);
    String::from_utf8_lossy(&text.as_bytes()[..cut]).into_owned()
}

/// The files read, each fixed so that the counts do not move with the
/// code: prose (the Apache License, twice over), code (the server's own
/// `dist/index.js`, of the version `tests/sdk/node` pins) and JSON (that
/// folder's `package-lock.json`).
fn files(server: &Path) -> Result<Vec<(&'static str, String)>, String> {
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))
    };
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/sdk/node/package-lock.json");
    Ok(vec![
        (
            "prose: LICENSE-APACHE, twice",
            first_20_kib(&include_str!("../../LICENSE-APACHE").repeat(2)),
        ),
        (
            "code: server-filesystem's dist/index.js",
            first_20_kib(&read(server)?),
        ),
        (
            "JSON: tests/sdk/node/package-lock.json",
            first_20_kib(&read(&lock)?),
        ),
    ])
}

fn main() -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|error| error.to_string())?;
    runtime.block_on(run())
}

async fn run() -> Result<(), String> {
    let modules = sdk_node::sdk_node_modules("result_tokens", "mounting server-filesystem");
    let entry = modules.join("@modelcontextprotocol/server-filesystem/dist/index.js");
    let files = files(&entry)?;
    let folder = std::env::temp_dir().join(format!("tool-mcp-tokens-{}", std::process::id()));
    std::fs::create_dir_all(&folder).map_err(|error| error.to_string())?;
    let folder = folder.canonicalize().map_err(|error| error.to_string())?;

    let mut command = Command::new("node");
    command.arg(&entry).arg(&folder);
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("files", command)
        .compose(Compose::new().allow(["read_text_file"]))
        .mount(&handle)
        .await
        .map_err(|error| format!("mounting {}: {error}", entry.display()))?;

    println!(
        "server-filesystem's `read_text_file` of 20 KiB text files, what the model reads in o200k_base tokens:\n"
    );
    println!(
        "| file | bytes | the server's text, as sent | its structured content as compact JSON | ratio |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut outcome = Ok(());
    for (at, (name, text)) in files.iter().enumerate() {
        let file = folder.join(format!("file-{at}.txt"));
        if let Err(error) = std::fs::write(&file, text) {
            outcome = Err(error.to_string());
            break;
        }
        let path = file.to_string_lossy();
        let read = handle
            .call(
                &ToolContext::new(()),
                "read_text_file",
                serde_json::json!({"path": path}),
            )
            .await;
        if read.model_text() != *text {
            outcome = Err(format!(
                "{name}: the model does not read the file as the server sent it: {}",
                read.model_text().chars().take(200).collect::<String>()
            ));
            break;
        }
        let Some(structured) = read.structured_content() else {
            outcome = Err(format!("{name}: the server sent no structured content"));
            break;
        };
        let escaped = ToolResult::json(structured.clone());
        let (tokens, before) = (read.model_tokens(), escaped.model_tokens());
        println!(
            "| {name} | {} | {tokens} | {before} ({} bytes) | {:.2}x |",
            text.len(),
            escaped.model_text().len(),
            before as f64 / tokens as f64
        );
    }
    mounted.unmount().await;
    let _ = std::fs::remove_dir_all(&folder);
    outcome
}
