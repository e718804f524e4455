//! A server that fills the registry: a hundred thousand tools mounted and
//! taken out again, each in one change, and a list longer than the
//! mount's limit refused whole, with an error naming the server, the count
//! and the limit.

use std::time::Duration;

use serde_json::json;
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::mount::{DEFAULT_MAX_TOOLS, Mount, MountError};

/// Add two numbers.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The hostile test server, listing `tools` tools of its own, `page` at a
/// time (all at once for 0).
fn many_tools(tools: usize, page: usize) -> tokio::process::Command {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/hostile_server.py");
    let mut command = tokio::process::Command::new("python3");
    command
        .arg(script)
        .env("HOSTILE_TOOLS", tools.to_string())
        .env("HOSTILE_PAGE", page.to_string());
    command
}

#[tokio::test]
async fn a_hundred_thousand_tools_are_mounted_under_a_raised_limit_and_leave_when_unmounted() {
    const MANY: usize = 100_000;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let mounted = Mount::stdio("crowd", many_tools(MANY, 30_000))
        .no_restart()
        .max_tools(MANY)
        // Unoptimized, listing so many takes its time.
        .connect_timeout(Duration::from_secs(300))
        .mount(&handle)
        .await
        .expect("mounted");
    let tools = mounted.tools();
    assert_eq!(tools.len(), MANY);
    assert_eq!(tools[0], "many_0");
    assert_eq!(tools[MANY - 1], format!("many_{}", MANY - 1));
    let current = handle.current();
    // In the order the server listed them, after the registry's own.
    assert_eq!(current.names().len(), MANY + 1);
    assert_eq!(
        current.names().take(3).collect::<Vec<_>>(),
        ["add", "many_0", "many_1"]
    );
    assert!(mounted.refused().is_empty());
    let version = handle.version();

    mounted.unmount().await;
    // One change took every tool of the mount out.
    assert_eq!(handle.version(), version + 1);
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add"]);
    let ctx = ToolContext::new(());
    let add = handle.call(&ctx, "add", json!({"a": 2, "b": 3})).await;
    assert_eq!(add.model_text(), "5");
}

#[tokio::test]
async fn a_list_longer_than_the_limit_is_refused_whole_naming_the_server_the_count_and_the_limit() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    // Pages of 10: the listing stops at the page that passes 25.
    let error = Mount::stdio("crowd", many_tools(1_000, 10))
        .max_tools(25)
        .mount(&handle)
        .await
        .expect_err("too many tools");
    assert!(matches!(
        error,
        MountError::TooManyTools { ref server, listed: 30, max: 25 } if server == "crowd"
    ));
    assert_eq!(
        error.to_string(),
        "the MCP server `crowd` lists more tools than a mount takes: 30 read before the \
         listing was stopped, at most 25 taken; raise the limit with `Mount::max_tools` if \
         they are all wanted"
    );
    assert_eq!(handle.version(), 0);
    assert_eq!(handle.current().names().collect::<Vec<_>>(), ["add"]);
}

#[tokio::test]
async fn the_default_limit_refuses_one_tool_past_it_and_takes_a_list_at_it() {
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let error = Mount::stdio("crowd", many_tools(DEFAULT_MAX_TOOLS + 1, 0))
        .mount(&handle)
        .await
        .expect_err("too many tools");
    assert!(matches!(
        error,
        MountError::TooManyTools { listed, max: DEFAULT_MAX_TOOLS, .. }
            if listed == DEFAULT_MAX_TOOLS + 1
    ));
    let mounted = Mount::stdio("crowd", many_tools(DEFAULT_MAX_TOOLS, 0))
        .no_restart()
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(mounted.tools().len(), DEFAULT_MAX_TOOLS);
    mounted.unmount().await;
    assert_eq!(handle.current().names().len(), 0);
}
