//! Mounting servers nobody here wrote: MCP's reference servers
//! `everything` (over stdio and over streamable HTTP) and `filesystem` (on a
//! temporary folder), from npm, and a server on MCP's Python SDK, from
//! PyPI, each pinned and installed by `scripts/test`. Every tool
//! `everything` lists to a client without sampling, roots or elicitation
//! is called; `simulate-research-query`, which runs only as a task, as a
//! `long_running` tool.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use tool_core::output::{MediaKind, Part};
use tool_core::provider::{Provider, ProviderCall};
use tool_core::toolset::{Compose, RegistryHandle};
use tool_core::{ToolContext, ToolRegistry, ToolResult};
use tool_mcp::mount::Mount;

#[path = "../../tests/support/sdk_node.rs"]
#[allow(dead_code, reason = "only the packages' folder is needed here")]
mod sdk_node;
#[path = "../../tests/support/sdk_python.rs"]
#[allow(dead_code, reason = "only the interpreter is needed here")]
mod sdk_python;

/// The entry point of a reference server installed under `node_modules`.
fn reference_server(test: &str, package: &str) -> PathBuf {
    let modules = sdk_node::sdk_node_modules(test, &format!("mounting {package}"));
    let entry = modules
        .join("@modelcontextprotocol")
        .join(package)
        .join("dist/index.js");
    assert!(
        entry.exists(),
        "{test}: {} is missing; run the tests with `scripts/test`",
        entry.display()
    );
    entry
}

async fn call(handle: &RegistryHandle, name: &str, args: Value) -> ToolResult {
    handle.call(&ToolContext::new(()), name, args).await
}

fn texts(result: &ToolResult) -> Vec<String> {
    match result.as_parts() {
        Some(parts) => parts
            .iter()
            .filter_map(|part| match part {
                Part::Text(text) => Some(text.clone()),
                _ => None,
            })
            .collect(),
        None => vec![result.model_text().into_owned()],
    }
}

/// Calls `everything`'s tools, mounted under `prefix`, and checks what each
/// kind of result becomes.
async fn check_everything(handle: &RegistryHandle, prefix: &str) {
    let name = |tool: &str| format!("{prefix}{tool}");
    // Its task tool is `long_running`: pending at once, its report when
    // the server's task ends (four stages of a second), its status heard
    // as progress meanwhile. Started first, awaited last.
    let research = name("simulate-research-query");
    let current = handle.current();
    let info = current.info(&research).expect("the task tool is mounted");
    assert!(info.metadata.long_running, "it runs as a task");
    let statuses = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let ctx = ToolContext::builder(())
        .progress_listener({
            let statuses = std::sync::Arc::clone(&statuses);
            move |event| {
                if let Some(message) = event.message {
                    statuses
                        .lock()
                        .expect("unpoisoned")
                        .push(message.to_owned());
                }
            }
        })
        .build();
    let pending = handle
        .call(&ctx, &research, json!({"topic": "tides"}))
        .await;
    let research_id = pending
        .pending_call_id()
        .unwrap_or_else(|| panic!("pending: {}", pending.model_text()))
        .to_owned();

    let echo = call(handle, &name("echo"), json!({"message": "hi"})).await;
    assert_eq!(echo.model_text(), "Echo: hi");
    let sum = call(handle, &name("get-sum"), json!({"a": 2, "b": 3.5})).await;
    assert_eq!(sum.model_text(), "The sum of 2 and 3.5 is 5.5.");
    // Checked here, against the schema the server listed, before it is sent.
    let refused = call(handle, &name("get-sum"), json!({"a": 2})).await;
    assert!(refused.is_error());
    assert!(
        refused.model_text().contains("missing argument `b`"),
        "{}",
        refused.model_text()
    );

    let image = call(handle, &name("get-tiny-image"), json!({})).await;
    let Some([Part::Text(_), Part::Media(png), Part::Text(_)]) = image.as_parts() else {
        panic!("not text, an image and text: {image:?}");
    };
    assert_eq!(
        (png.kind(), png.media_type()),
        (MediaKind::Image, "image/png")
    );
    assert!(png.data().starts_with(b"\x89PNG"), "decoded from base64");

    let links = call(handle, &name("get-resource-links"), json!({"count": 2})).await;
    let Some([Part::Text(_), Part::Link(first), Part::Link(_)]) = links.as_parts() else {
        panic!("not text and two links: {links:?}");
    };
    assert!(
        first.uri().starts_with("demo://resource/"),
        "{}",
        first.uri()
    );

    let embedded = call(
        handle,
        &name("get-resource-reference"),
        json!({"resourceType": "Text", "resourceId": 1}),
    )
    .await;
    let parts = embedded.as_parts().expect("parts");
    assert!(
        parts
            .iter()
            .any(|part| matches!(part, Part::Media(media) if media.kind() == MediaKind::Document)),
        "an embedded resource is a document: {embedded:?}"
    );

    let structured = call(
        handle,
        &name("get-structured-content"),
        json!({"location": "Chicago"}),
    )
    .await;
    let content = structured.structured_content().expect("structured content");
    assert!(content["temperature"].is_number(), "{content}");
    assert!(content["conditions"].is_string(), "{content}");

    let annotated = call(
        handle,
        &name("get-annotated-message"),
        json!({"messageType": "success", "includeImage": true}),
    )
    .await;
    assert!(
        matches!(annotated.as_parts(), Some([Part::Text(_), Part::Media(_)])),
        "text and an image: {annotated:?}"
    );
    let gzip = call(
        handle,
        &name("gzip-file-as-resource"),
        json!({"name": "hello.txt.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resource"}),
    )
    .await;
    let Some([Part::Media(archive)]) = gzip.as_parts() else {
        panic!("one embedded resource: {gzip:?}");
    };
    assert_eq!(
        (archive.kind(), archive.media_type()),
        (MediaKind::Document, "application/gzip")
    );
    assert!(
        archive.data().starts_with(&[0x1f, 0x8b]),
        "gzip's magic, decoded"
    );
    // On, then off again: each says which.
    for tool in ["toggle-simulated-logging", "toggle-subscriber-updates"] {
        for _ in 0..2 {
            let toggled = call(handle, &name(tool), json!({})).await;
            assert!(!toggled.is_error(), "{tool}: {}", toggled.model_text());
        }
    }
    // Its text is the server's whole environment: only that it answers,
    // where the mount did not leave it out.
    if handle.current().info(&name("get-env")).is_some() {
        assert!(!call(handle, &name("get-env"), json!({})).await.is_error());
    }

    // Every result in each provider's own shape, an image where the
    // provider takes one.
    let calls = [
        ProviderCall::new(Some("call_1".into()), name("get-tiny-image"), json!({})),
        ProviderCall::new(Some("call_2".into()), name("get-resource-links"), json!({})),
        ProviderCall::new(
            Some("call_3".into()),
            name("get-structured-content"),
            json!({}),
        ),
    ];
    let results = [image, links, structured];
    let anthropic = Provider::Anthropic { strict: false }.format_results(&calls, &results);
    let blocks = anthropic[0]["content"][0]["content"]
        .as_array()
        .expect("blocks");
    assert!(
        blocks
            .iter()
            .any(|block| block["type"] == "image" && block["source"]["media_type"] == "image/png"),
        "{anthropic:?}"
    );
    let chat = Provider::OpenAiChat { strict: true }.format_results(&calls, &results);
    assert!(
        chat.iter().any(|message| message["role"] == "user"
            && message.to_string().contains("data:image/png;base64,")),
        "the image in a user message after the tool messages: {chat:?}"
    );
    let gemini = Provider::Gemini { openapi: false }.format_results(&calls, &results);
    assert!(
        gemini[0].to_string().contains("\"inlineData\""),
        "the image as inline data: {gemini:?}"
    );
    for provider in [
        Provider::OpenAiResponses { strict: false },
        Provider::Mcp,
        Provider::Groq,
        Provider::Ollama,
    ] {
        let formatted = provider.format_results(&calls, &results);
        assert!(!formatted.is_empty(), "{provider:?}");
    }

    let report = tokio::time::timeout(Duration::from_secs(30), handle.wait(&research_id))
        .await
        .expect("the research task ends within 30 s")
        .expect("its result");
    assert!(!report.is_error(), "{}", report.model_text());
    assert!(
        report.model_text().starts_with("# Research Report: tides"),
        "{}",
        report.model_text()
    );
    let statuses = statuses.lock().expect("unpoisoned").clone();
    let stages = [
        "Gathering sources...",
        "Analyzing content...",
        "Synthesizing findings...",
        "Generating report...",
    ];
    assert!(!statuses.is_empty(), "the task's status heard");
    assert!(
        statuses
            .iter()
            .all(|status| stages.contains(&status.as_str())),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn everything_over_stdio_is_mounted_and_every_kind_of_result_comes_through() {
    let entry = reference_server("everything over stdio", "server-everything");
    let mut command = Command::new("node");
    command.arg(&entry).arg("stdio");
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("everything", command)
        .compose(Compose::new().prefix("ev_").deny(["get-env"]))
        .mount(&handle)
        .await
        .expect("mounted");
    let tools = mounted.tools();
    for expected in [
        "ev_echo",
        "ev_get-sum",
        "ev_get-tiny-image",
        "ev_get-structured-content",
        "ev_trigger-long-running-operation",
    ] {
        assert!(
            tools.iter().any(|tool| tool == expected),
            "{expected} in {tools:?}"
        );
    }
    assert!(!tools.iter().any(|tool| tool == "ev_get-env"), "denied");
    assert_eq!(mounted.refused(), []);
    // Annotations are metadata.
    let current = handle.current();
    let echo = current.info("ev_echo").expect("echo");
    assert!(echo.metadata.title.is_some());
    check_everything(&handle, "ev_").await;

    // The server's progress reaches the call's listener.
    let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let ctx = ToolContext::builder(())
        .progress_listener({
            let heard = std::sync::Arc::clone(&heard);
            move |event| {
                heard
                    .lock()
                    .expect("not poisoned")
                    .push((event.done, event.total))
            }
        })
        .build();
    let long = handle
        .call(
            &ctx,
            "ev_trigger-long-running-operation",
            json!({"duration": 1, "steps": 3}),
        )
        .await;
    assert!(!long.is_error(), "{}", long.model_text());
    // Every step, the last (sent just before the answer) included, in
    // order.
    let heard = heard.lock().expect("not poisoned").clone();
    assert_eq!(
        heard,
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))],
        "progress heard"
    );
    mounted.unmount().await;
    assert!(handle.current().tools().len() == 0);
}

/// A free loopback port.
async fn free_port() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    listener.local_addr().expect("its address").port()
}

#[tokio::test]
async fn everything_over_streamable_http_is_mounted_and_called() {
    let entry = reference_server("everything over HTTP", "server-everything");
    let port = free_port().await;
    let mut server = Command::new("node")
        .arg(&entry)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node starts");
    // It says when it listens.
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let listening = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("listening on port") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(listening, Ok(true), "the server listens");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("everything", format!("http://127.0.0.1:{port}/mcp"))
        .mount(&handle)
        .await
        .expect("mounted");
    assert!(mounted.tools().iter().any(|tool| tool == "echo"));
    check_everything(&handle, "").await;
    mounted.unmount().await;
    server.kill().await.expect("stopped");
}

#[tokio::test]
async fn filesystem_reads_and_writes_a_temporary_folder() {
    let entry = reference_server("filesystem", "server-filesystem");
    let folder = std::env::temp_dir().join(format!("tool-mcp-mount-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let folder = folder.canonicalize().unwrap();
    let mut command = Command::new("node");
    command.arg(&entry).arg(&folder);
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("files", command)
        .compose(Compose::new().prefix("fs_").allow([
            "write_file",
            "read_text_file",
            "read_media_file",
            "list_directory",
        ]))
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(
        mounted.tools(),
        [
            "fs_read_text_file",
            "fs_read_media_file",
            "fs_write_file",
            "fs_list_directory"
        ]
    );
    let note = folder.join("note.txt");
    let path = note.to_str().unwrap();
    let written = call(
        &handle,
        "fs_write_file",
        json!({"path": path, "content": "remember the milk"}),
    )
    .await;
    assert!(!written.is_error(), "{}", written.model_text());
    assert_eq!(std::fs::read_to_string(&note).unwrap(), "remember the milk");
    let read = call(&handle, "fs_read_text_file", json!({"path": path})).await;
    assert_eq!(
        read.structured_content(),
        Some(&json!({"content": "remember the milk"}))
    );
    let listed = call(
        &handle,
        "fs_list_directory",
        json!({"path": folder.to_str().unwrap()}),
    )
    .await;
    assert!(
        texts(&listed).concat().contains("[FILE] note.txt"),
        "{listed:?}"
    );
    // Audio, as the server reads it: a media part of its own type.
    let clip = folder.join("clip.wav");
    std::fs::write(&clip, b"RIFF\x24\x00\x00\x00WAVEfmt ").unwrap();
    let audio = call(
        &handle,
        "fs_read_media_file",
        json!({"path": clip.to_str().unwrap()}),
    )
    .await;
    let Some([Part::Media(wav)]) = audio.as_parts() else {
        panic!("not one media part: {audio:?}");
    };
    assert_eq!(
        (wav.kind(), wav.media_type()),
        (MediaKind::Audio, "audio/wav")
    );
    assert!(wav.data().starts_with(b"RIFF"), "decoded from base64");
    // Outside the folder: the server's refusal, as an error result.
    let outside = call(
        &handle,
        "fs_read_text_file",
        json!({"path": "/etc/hostname"}),
    )
    .await;
    assert!(outside.is_error());
    assert!(
        outside.model_text().contains("Access denied"),
        "{}",
        outside.model_text()
    );
    mounted.unmount().await;
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn a_python_sdk_server_over_stdio_is_mounted() {
    let python = sdk_python::sdk_python("python server", "mounting a Python SDK server");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/sdk/mount_server.py");
    let mut command = Command::new(python);
    command.arg(script);
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("py", command)
        .mount(&handle)
        .await
        .expect("mounted");
    assert_eq!(mounted.tools(), ["greet", "weather"]);
    assert_eq!(
        call(&handle, "greet", json!({"name": "Ann"}))
            .await
            .model_text(),
        "Hello, Ann!"
    );
    let weather = call(&handle, "weather", json!({"city": "Oslo"})).await;
    assert_eq!(
        weather.structured_content(),
        Some(&json!({"city": "Oslo", "temperature": 21.5, "conditions": "sunny"}))
    );
    mounted.unmount().await;
}

/// A gateway serves a mounted server's resources and prompts beside its
/// tools: `everything`'s, listed through the mount and read and got
/// through it.
#[tokio::test]
async fn everythings_resources_and_prompts_come_through_a_mount() {
    let entry = reference_server("everything's resources", "server-everything");
    let mut command = Command::new("node");
    command.arg(&entry).arg("stdio");
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::stdio("everything", command)
        .mount(&handle)
        .await
        .expect("mounted");
    let resources: tool_core::resource::Resources = mounted.resources().await.expect("listed");
    let templates: Vec<&str> = resources
        .templates()
        .map(|resource| resource.uri())
        .collect();
    assert!(
        templates.contains(&"demo://resource/dynamic/text/{resourceId}"),
        "{templates:?}"
    );
    let ctx = ToolContext::new(());
    let read = resources
        .read(&ctx, "demo://resource/dynamic/text/7")
        .await
        .expect("read");
    assert_eq!(read[0].uri(), "demo://resource/dynamic/text/7");
    assert_eq!(read[0].mime_type(), Some("text/plain"));
    assert!(
        read[0]
            .as_text()
            .is_some_and(|text| text.starts_with("Resource 7: This is a plaintext resource")),
        "{read:?}"
    );
    let blob = resources
        .read(&ctx, "demo://resource/dynamic/blob/7")
        .await
        .expect("read");
    assert!(
        blob[0]
            .as_bytes()
            .is_some_and(|bytes| bytes.starts_with(b"Resource 7: This is a base64 blob")),
        "{blob:?}"
    );
    assert!(matches!(
        resources.read(&ctx, "demo://nowhere").await,
        Err(tool_core::resource::ResourceError::NotFound { .. })
    ));
    let prompts: tool_core::prompt::Prompts = mounted.prompts().await.expect("listed");
    let arguments = prompts.get("args-prompt").expect("listed").arguments();
    assert_eq!(
        arguments
            .iter()
            .map(|argument| (argument.name.as_str(), argument.required))
            .collect::<Vec<_>>(),
        [("city", true), ("state", false)]
    );
    let asked = tool_core::prompt::PromptArguments::from([("city".to_owned(), "Paris".to_owned())]);
    let messages = prompts
        .messages(&ctx, "args-prompt", &asked)
        .await
        .expect("got");
    assert_eq!(
        messages,
        [tool_core::prompt::PromptMessage::user(
            "What's weather in Paris?"
        )]
    );
    mounted.unmount().await;
}
