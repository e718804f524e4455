//! A mount at its edges: what happens to its tools when it ends (dropped,
//! or its server gone for good), what the model reads when a call fails
//! (the tool named as the model called it, "try again later" only where
//! it comes true), names that clash with the registry's, and the server's
//! progress reaching the call whole and in order.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use support::serve_http;
use tool_core::toolset::{Compose, RegistryHandle};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_mcp::McpServer;
use tool_mcp::mount::{Mount, MountError, Refused, Restart};

mod support;

/// Add two numbers.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Multiply two numbers.
#[tool(read_only)]
fn multiply(a: i64, b: i64) -> i64 {
    a * b
}

fn served() -> McpServer {
    McpServer::new(
        ToolRegistry::new().with(Add).with(Multiply),
        ToolContext::new(()),
    )
}

fn hostile_server() -> tokio::process::Command {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/hostile_server.py");
    let mut command = tokio::process::Command::new("python3");
    command.arg(script);
    command
}

/// A registry whose calls end within two seconds.
fn quick() -> RegistryHandle {
    RegistryHandle::new(
        ToolRegistry::builder()
            .default_timeout(Duration::from_secs(2))
            .build(),
    )
}

async fn call(handle: &RegistryHandle, name: &str, args: serde_json::Value) -> ToolResult {
    handle.call(&ToolContext::new(()), name, args).await
}

fn names(handle: &RegistryHandle) -> Vec<String> {
    handle.current().names().map(str::to_owned).collect()
}

/// Waits until the registry holds none of the server's tools.
async fn gone(handle: &RegistryHandle, tool: &str) {
    let left = tokio::time::timeout(Duration::from_secs(5), async {
        while handle.current().info(tool).is_some() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(left.is_ok(), "`{tool}` still listed: {:?}", names(handle));
}

#[tokio::test]
async fn a_dropped_mount_takes_its_tools_out_of_the_registry() {
    let (address, stop) = serve_http(served()).await;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let mounted = Mount::http("calc", format!("http://{address}/mcp"))
        .compose(Compose::new().prefix("calc_"))
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(names(&handle), ["add", "calc_add", "calc_multiply"]);
    drop(mounted);
    // At once: no version of the registry after the drop lists them.
    assert_eq!(names(&handle), ["add"]);
    let after = call(&handle, "calc_multiply", json!({"a": 2, "b": 3})).await;
    assert_eq!(
        after.model_text(),
        "unknown tool `calc_multiply`. Available tools: `add`."
    );
    stop.cancel();
}

#[tokio::test]
async fn a_server_that_is_not_started_again_takes_its_tools_with_it_and_never_says_try_again() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .compose(Compose::new().allow(["good", "crash"]))
        .no_restart()
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(names(&handle), ["good", "crash"]);
    let crashed = call(&handle, "crash", json!({})).await;
    assert!(crashed.is_error());
    assert_eq!(
        crashed.model_text(),
        "the MCP server `hostile` closed its connection during the call of `crash`; \
         it is not started again, so its tools are no longer available"
    );
    gone(&handle, "good").await;
    assert!(handle.current().tools().len() == 0, "{:?}", names(&handle));
    assert_eq!(mounted.tools(), Vec::<String>::new());
    drop(mounted);
}

#[tokio::test]
async fn a_server_that_is_started_again_says_try_again_later() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .compose(Compose::new().allow(["good", "crash"]))
        .restart(Restart::backoff(
            Duration::from_millis(200),
            Duration::from_secs(1),
        ))
        .mount(&handle)
        .await
        .expect("mounted");
    let crashed = call(&handle, "crash", json!({})).await;
    assert_eq!(
        crashed.model_text(),
        "the MCP server `hostile` closed its connection during the call of `crash`; \
         it is being started again: try again later"
    );
    // It came true: the tools stayed, and answer again.
    let back = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let answer = call(&handle, "good", json!({"text": "back"})).await;
            if !answer.is_error() {
                return answer.model_text().into_owned();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert_eq!(back.as_deref(), Ok("back"));
    drop(mounted);
}

#[tokio::test]
async fn what_the_model_reads_names_the_tool_as_the_model_called_it() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .compose(
            Compose::new()
                .prefix("h_")
                .rename("big_text", "long_text")
                .allow(["big_text", "hang", "task_lost", "crash"]),
        )
        .max_result_bytes(10_000)
        .no_restart()
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        names(&handle),
        ["h_hang", "h_crash", "h_long_text", "h_task_lost"]
    );
    let big = call(&handle, "h_long_text", json!({})).await;
    assert_eq!(
        big.model_text(),
        "the MCP server `hostile` answered `h_long_text` with 100000 bytes, over the mount's limit of 10000"
    );
    // Cancelled by the caller while the server works on it.
    let token = tokio_util::sync::CancellationToken::new();
    let ctx = ToolContext::builder(()).cancellation(token.clone()).build();
    let cancelling = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        token.cancel();
    });
    let hung = handle.call(&ctx, "h_hang", json!({})).await;
    cancelling.await.expect("cancelled");
    assert_eq!(hung.model_text(), "the call of `h_hang` was cancelled");
    // Run as a task the server then does not know.
    let pending = call(&handle, "h_task_lost", json!({})).await;
    let id = pending.pending_call_id().expect("pending").to_owned();
    let lost = tokio::time::timeout(Duration::from_secs(10), handle.wait(&id))
        .await
        .expect("an outcome in time")
        .expect("a result");
    assert_eq!(
        lost.model_text(),
        "the MCP server `hostile` refused to call `h_task_lost`: unknown task"
    );
    let crashed = call(&handle, "h_crash", json!({})).await;
    assert_eq!(
        crashed.model_text(),
        "the MCP server `hostile` closed its connection during the call of `h_crash`; \
         it is not started again, so its tools are no longer available"
    );
    drop(mounted);
}

#[tokio::test]
async fn a_name_the_registry_holds_fails_the_mount_unless_it_is_lenient() {
    let (address, stop) = serve_http(served()).await;
    let url = format!("http://{address}/mcp");
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Add));
    let clash = Mount::http("calc", url.as_str())
        .mount(&handle)
        .await
        .expect_err("`add` is taken");
    assert!(matches!(clash, MountError::Clash { .. }), "{clash:?}");
    assert_eq!(
        clash.to_string(),
        "the MCP server `calc` lists tools whose names the registry already holds: `add`; \
         give them other names (`Compose::prefix`, `Compose::rename`), leave them out \
         (`Compose::deny`), or mount with `Mount::lenient` to leave out each that clashes"
    );
    assert_eq!(names(&handle), ["add"], "nothing was added");

    // A rename onto a name the registry holds.
    let renamed = Mount::http("calc", url.as_str())
        .compose(Compose::new().rename("multiply", "add").allow(["multiply"]))
        .mount(&handle)
        .await
        .expect_err("`add` is taken");
    assert_eq!(
        renamed.to_string(),
        "the MCP server `calc` lists tools whose names the registry already holds: `add`; \
         give them other names (`Compose::prefix`, `Compose::rename`), leave them out \
         (`Compose::deny`), or mount with `Mount::lenient` to leave out each that clashes"
    );
    assert_eq!(names(&handle), ["add"], "nothing was added");

    // Asked for: what clashes is left out, and said so.
    let lenient = Mount::http("calc", url.as_str())
        .lenient()
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(lenient.tools(), ["multiply"]);
    assert_eq!(
        lenient.refused(),
        [Refused {
            tool: "add".into(),
            reason: "a tool named `add` is already registered".into()
        }]
    );
    assert_eq!(names(&handle), ["add", "multiply"]);
    drop(lenient);
    stop.cancel();
}

#[tokio::test]
async fn progress_sent_just_before_the_answer_reaches_the_call_whole_and_in_order() {
    let handle = quick();
    let mounted = Mount::stdio("hostile", hostile_server())
        .compose(Compose::new().allow(["progress_burst"]))
        .mount(&handle)
        .await
        .expect("mounted");
    let heard = Arc::new(Mutex::new(Vec::new()));
    let ctx = ToolContext::builder(())
        .progress_listener({
            let heard = Arc::clone(&heard);
            move |event| {
                heard.lock().expect("not poisoned").push((
                    event.done,
                    event.total,
                    event.message.map(str::to_owned),
                ));
            }
        })
        .build();
    let expected: Vec<(f64, Option<f64>, Option<String>)> = (1..=20)
        .map(|step| (f64::from(step), Some(20.0), Some(format!("step {step}"))))
        .collect();
    // The twenty reports and the answer arrive in one read: each call
    // hears every report before it ends, in the order they were sent.
    for round in 0..5 {
        let result = handle.call(&ctx, "progress_burst", json!({})).await;
        assert_eq!(result.model_text(), "burst done");
        let heard = std::mem::take(&mut *heard.lock().expect("not poisoned"));
        assert_eq!(heard, expected, "call {round}");
    }
    drop(mounted);
}
