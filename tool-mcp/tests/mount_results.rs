//! What a mounted server's result gives the model: the text the server
//! sent, as it sent it, with its structured content kept beside it for
//! the application; the structure as the model's text only where the
//! server sent no text. Against MCP's reference server `filesystem`, from
//! npm, installed by `scripts/test`.

use std::path::PathBuf;

use serde_json::json;
use tokio::process::Command;
use tool_core::provider::{Provider, ProviderCall};
use tool_core::toolset::{Compose, RegistryHandle};
use tool_core::{ToolContext, ToolRegistry};
use tool_mcp::mount::Mount;

#[path = "../../tests/support/sdk_node.rs"]
#[allow(dead_code, reason = "only the packages' folder is needed here")]
mod sdk_node;

/// A temporary folder of this test's own, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("tool-mcp-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).expect("a temporary folder");
        Folder(path.canonicalize().expect("its path"))
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `filesystem` on `folder`, its `read_text_file` mounted as `fs_read_text_file`.
async fn mount_filesystem(folder: &Folder) -> (RegistryHandle, tool_mcp::mount::Mounted) {
    let modules = sdk_node::sdk_node_modules("filesystem", "mounting server-filesystem");
    let entry = modules.join("@modelcontextprotocol/server-filesystem/dist/index.js");
    assert!(
        entry.exists(),
        "{} is missing; run the tests with `scripts/test`",
        entry.display()
    );
    let mut command = Command::new("node");
    command.arg(&entry).arg(&folder.0);
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("files", command)
        .compose(Compose::new().prefix("fs_").allow(["read_text_file"]))
        .mount(&handle)
        .await
        .expect("mounted");
    (handle, mounted)
}

#[tokio::test]
async fn a_text_file_reaches_the_model_as_the_server_sent_it() {
    let folder = Folder::new("mount-text");
    let (handle, mounted) = mount_filesystem(&folder).await;
    let text = "# Notes\n\n- remember the \"milk\"\n\ttabbed line\nlast line\n";
    let note = folder.0.join("note.md");
    std::fs::write(&note, text).expect("written");

    let read = handle
        .call(
            &ToolContext::new(()),
            "fs_read_text_file",
            json!({"path": note.to_str().expect("a UTF-8 path")}),
        )
        .await;
    assert!(!read.is_error(), "{}", read.model_text());
    // The model reads the file, newlines and quotes as they are...
    assert_eq!(read.model_text(), text);
    // ...and the application still has the server's structure.
    assert_eq!(read.structured_content(), Some(&json!({"content": text})));

    // Each provider's result block carries the text itself.
    let calls = [ProviderCall::new(
        Some("call_1".into()),
        "fs_read_text_file".to_owned(),
        json!({}),
    )];
    let results = [read];
    let anthropic = Provider::Anthropic { strict: false }.format_results(&calls, &results);
    assert_eq!(anthropic[0]["content"][0]["content"], text);
    let chat = Provider::OpenAiChat { strict: true }.format_results(&calls, &results);
    assert_eq!(chat[0]["content"], text);
    let responses = Provider::OpenAiResponses { strict: true }.format_results(&calls, &results);
    assert_eq!(responses[0]["output"], text);
    mounted.unmount().await;
}
