//! Which of a server's tools run as tasks (`execution.taskSupport` of MCP
//! 2025-11-25), read from its `tools/list` answers as they arrive: rmcp's
//! model of a listed tool has no `execution`, so the answers are read
//! below rmcp, where the mount's transports are tapped (`child.rs`, `tap.rs`).

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex, PoisonError};

use serde::Deserialize;

/// The tools of one server whose listing said they run as tasks
/// (`"required"` or `"optional"`).
#[derive(Debug, Default)]
pub(crate) struct TaskTools(Mutex<HashSet<String>>);

impl TaskTools {
    /// Forgets what the last listing said, before the next one.
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    /// Whether the listing said `tool` runs as a task.
    pub(crate) fn contains(&self, tool: &str) -> bool {
        self.lock().contains(tool)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads one message from the server, if it is a page of `tools/list`
    /// that names `taskSupport`.
    pub(crate) fn note(&self, message: &[u8]) {
        // Built once: every message from the server is searched.
        static FIELD: LazyLock<memchr::memmem::Finder<'static>> =
            LazyLock::new(|| memchr::memmem::Finder::new(b"\"taskSupport\""));
        if FIELD.find(message).is_none() {
            return;
        }
        #[derive(Deserialize)]
        struct Page {
            result: Listing,
        }
        #[derive(Deserialize)]
        struct Listing {
            tools: Vec<Listed>,
        }
        #[derive(Deserialize)]
        struct Listed {
            name: String,
            #[serde(default)]
            execution: Option<Execution>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Execution {
            #[serde(default)]
            task_support: Option<String>,
        }
        // Anything else (a call's result that mentions the word, garbage)
        // is rmcp's to read or refuse.
        let Ok(page) = serde_json::from_slice::<Page>(message) else {
            return;
        };
        let mut tools = self.lock();
        for listed in page.result.tools {
            let support = listed
                .execution
                .and_then(|execution| execution.task_support);
            if matches!(support.as_deref(), Some("required" | "optional")) {
                tools.insert(listed.name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_that_names_task_support_marks_its_tools() {
        let tasks = TaskTools::default();
        tasks.note(
            br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[
                {"name":"research","inputSchema":{},"execution":{"taskSupport":"required"}},
                {"name":"maybe","inputSchema":{},"execution":{"taskSupport":"optional"}},
                {"name":"never","inputSchema":{},"execution":{"taskSupport":"forbidden"}},
                {"name":"echo","inputSchema":{}}]}}"#,
        );
        assert!(tasks.contains("research") && tasks.contains("maybe"));
        assert!(!tasks.contains("never") && !tasks.contains("echo"));
        tasks.clear();
        assert!(!tasks.contains("research"));
    }

    #[test]
    fn anything_else_is_left_alone() {
        let tasks = TaskTools::default();
        tasks.note(br#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"\"taskSupport\""}]}}"#);
        tasks.note(br#"{"tools":[{"name":"x","execution":{"taskSupport":"required"}}]"#);
        assert!(tasks.0.lock().unwrap().is_empty());
    }
}
