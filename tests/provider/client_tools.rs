//! A tool the client runs, inside a complete loop, for Anthropic, OpenAI
//! (Chat Completions and Responses), Gemini, Groq, Ollama and vLLM, with
//! their real response shapes: the turn answers the call that ran, lists the one that waits on
//! the application with the provider's id and the arguments, and once the
//! application delivers its result, the reply holds both, in the calls'
//! order, under the ids the provider issued; the model then answers.
//!
//! Each loop is also paused across processes: a first process (this test
//! binary, run again for the one test) gets the response, saves the
//! waiting turn to Redis and exits; this one loads it, delivers the
//! answer, and gets the reply the unbroken loop got.

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::provider::{Provider, Turn};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};
use tool_redis::RedisStore;

// Each test binary uses its own part of the server's controls.
#[allow(dead_code)]
#[path = "../../tool-redis/tests/support/server.rs"]
mod server;

/// Set in the process that runs a paused loop's first half: the Redis to
/// save the turn in.
const FIRST_HALF: &str = "TOOL_TEST_TURN_FIRST_HALF";

/// Where the first half saves the turn.
const SAVED_AS: &str = "conversation:7";

/// Get the current weather for a city.
#[tool(read_only, tier = Observe)]
fn get_weather(
    /// City name.
    city: String,
) -> String {
    format!("15 degrees in {city}")
}

/// Ask the user a question; the client shows it and sends the answer.
#[tool(long_running, tier = Observe)]
fn ask_user(
    /// The question.
    question: String,
) -> ToolResult {
    let _ = question;
    ToolResult::deferred()
}

/// One provider's side of the loop: its two responses and the replies
/// expected before and after the delivery.
struct Script {
    /// The test's name, to run its first half alone in a process.
    test: &'static str,
    provider: Provider,
    /// The response asking the user, then for the weather.
    calls: Value,
    /// The provider's id of the `ask_user` call (Ollama's calls have
    /// none).
    ask_id: Option<&'static str>,
    /// The reply before the delivery: the weather only.
    partial: Value,
    /// The reply after it: both, in order.
    whole: Value,
    /// The final answer.
    answer: Value,
}

async fn run(script: Script) {
    if let Ok(redis) = std::env::var(FIRST_HALF) {
        first_half(&script, &redis).await;
        return;
    }
    unbroken(&script).await;
    paused_across_processes(&script).await;
}

/// The first half of a paused loop, in a process of its own: the response
/// run, the waiting turn saved; then the process ends.
async fn first_half(script: &Script, redis: &str) {
    let store = RedisStore::connect(redis).await.expect("Redis is up");
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(GetWeather)
        .with(AskUser)
        .store(store.clone())
        .build();
    let turn = script
        .provider
        .respond(&registry, &ToolContext::new(()), &script.calls)
        .await
        .expect("the calls are the provider's shape");
    assert!(turn.is_waiting());
    turn.save(&store, SAVED_AS, Duration::from_secs(600))
        .await
        .expect("saved");
}

/// The loop with its turn paused in one process and finished in another.
async fn paused_across_processes(script: &Script) {
    let provider = script.provider;
    let server = server::Server::start();
    let first = Command::new(std::env::current_exe().expect("this test binary"))
        .args([script.test, "--exact", "--test-threads=1"])
        .env(FIRST_HALF, server.url())
        .output()
        .expect("the first half runs");
    assert!(
        first.status.success(),
        "the first half failed: {}{}",
        String::from_utf8_lossy(&first.stdout),
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        String::from_utf8_lossy(&first.stdout).contains("1 passed"),
        "the first half ran its test: {}",
        String::from_utf8_lossy(&first.stdout)
    );

    // The first process is gone: this one finishes the turn.
    let store = RedisStore::connect(&server.url()).await.expect("connect");
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(GetWeather)
        .with(AskUser)
        .store(store.clone())
        .build();
    let mut turn = Turn::load(&store, SAVED_AS)
        .await
        .expect("Redis is up")
        .expect("the first process saved the turn");
    assert!(turn.is_waiting(), "{provider}");
    assert_eq!(turn.reply(), replies(&script.partial), "{provider}");
    assert_eq!(
        turn.model_turn(),
        provider
            .model_turn(&script.calls)
            .expect("the provider's shape"),
        "{provider}: the model's turn as it was sent"
    );
    let waiting: Vec<_> = turn.waiting().collect();
    assert_eq!(waiting.len(), 1, "{provider}");
    assert_eq!(waiting[0].call().id(), script.ask_id, "{provider}");
    let call_id = waiting[0].call_id().to_owned();
    registry
        .pending()
        .deliver(&call_id, ToolResult::text("Lisbon"))
        .await
        .expect("the call awaits its result, though the process that made it is gone");
    tokio::time::timeout(Duration::from_secs(10), turn.resume(&registry))
        .await
        .expect("the turn resumes");
    assert!(!turn.is_waiting());
    assert_eq!(turn.reply(), replies(&script.whole), "{provider}");
    let last = provider
        .respond(&registry, &ToolContext::new(()), &script.answer)
        .await
        .expect("the answer is the provider's shape");
    assert_eq!(last.text(), Some("It is 15 degrees in Lisbon."));
}

/// The loop in one process, start to end.
async fn unbroken(script: &Script) {
    let registry: ToolRegistry = ToolRegistry::new().with(GetWeather).with(AskUser);
    let ctx = ToolContext::new(());
    let provider = script.provider;
    let mut conversation = vec![json!({"role": "user", "content": "Weather where I am?"})];

    let mut turn = provider
        .respond(&registry, &ctx, &script.calls)
        .await
        .expect("the calls are the provider's shape");
    assert!(!turn.is_done());
    assert!(turn.is_waiting(), "{provider}");
    let waiting: Vec<_> = turn.waiting().collect();
    assert_eq!(waiting.len(), 1, "{provider}");
    assert_eq!(waiting[0].call().id(), script.ask_id, "{provider}");
    assert_eq!(waiting[0].call().name(), "ask_user");
    let arguments = waiting[0].call().arguments();
    let question = match arguments {
        // OpenAI sends the arguments as a JSON string.
        Value::String(text) => serde_json::from_str::<Value>(text).expect("the arguments are JSON"),
        other => other.clone(),
    };
    assert_eq!(question, json!({"question": "Which city are you in?"}));
    assert_eq!(turn.reply(), replies(&script.partial), "{provider}");

    // The client asks the user, and the application delivers the answer.
    let call_id = waiting[0].call_id().to_owned();
    registry
        .pending()
        .deliver(&call_id, ToolResult::text("Lisbon"))
        .await
        .expect("the call waits for its result");
    turn.resume(&registry).await;
    assert!(!turn.is_waiting());
    assert_eq!(turn.reply(), replies(&script.whole), "{provider}");
    assert!(registry.pending().ids().is_empty(), "the result was taken");
    turn.append_to(&mut conversation);
    assert_eq!(
        &conversation[conversation.len() - replies(&script.whole).len()..],
        replies(&script.whole)
    );

    let last = provider
        .respond(&registry, &ctx, &script.answer)
        .await
        .expect("the answer is the provider's shape");
    assert!(last.is_done());
    assert!(!last.is_waiting());
    assert_eq!(last.text(), Some("It is 15 degrees in Lisbon."));
}

fn replies(expected: &Value) -> &[Value] {
    expected.as_array().expect("a script's replies are a list")
}

#[tokio::test]
async fn anthropic() {
    run(Script {
        test: "client_tools::anthropic",
        provider: Provider::Anthropic { strict: false },
        calls: json!({
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "stop_reason": "tool_use",
            "content": [
                {"type": "text", "text": "I need to know where you are."},
                {"type": "tool_use", "id": "toolu_01A", "name": "ask_user",
                 "input": {"question": "Which city are you in?"}},
                {"type": "tool_use", "id": "toolu_01B", "name": "get_weather",
                 "input": {"city": "Lisbon"}}
            ],
            "usage": {"input_tokens": 120, "output_tokens": 60}
        }),
        ask_id: Some("toolu_01A"),
        partial: json!([{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01B", "content": "15 degrees in Lisbon"}
        ]}]),
        whole: json!([{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "Lisbon"},
            {"type": "tool_result", "tool_use_id": "toolu_01B", "content": "15 degrees in Lisbon"}
        ]}]),
        answer: json!({
            "id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "stop_reason": "end_turn",
            "content": [{"type": "text", "text": "It is 15 degrees in Lisbon."}]
        }),
    })
    .await;
}

#[tokio::test]
async fn openai_chat() {
    run(Script {
        test: "client_tools::openai_chat",
        provider: Provider::OpenAiChat { strict: true },
        calls: json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_741_569_952,
            "model": "gpt-4.1-2025-04-14",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": null,
                    "tool_calls": [
                        {"id": "call_ask", "type": "function", "function": {
                            "name": "ask_user", "arguments": "{\"question\":\"Which city are you in?\"}"}},
                        {"id": "call_wx", "type": "function", "function": {
                            "name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}"}}
                    ],
                    "refusal": null
                },
                "finish_reason": "tool_calls"
            }]
        }),
        ask_id: Some("call_ask"),
        partial: json!([
            {"role": "tool", "tool_call_id": "call_wx", "content": "15 degrees in Lisbon"}
        ]),
        whole: json!([
            {"role": "tool", "tool_call_id": "call_ask", "content": "Lisbon"},
            {"role": "tool", "tool_call_id": "call_wx", "content": "15 degrees in Lisbon"}
        ]),
        answer: json!({
            "id": "chatcmpl-2", "object": "chat.completion", "model": "gpt-4.1-2025-04-14",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "It is 15 degrees in Lisbon."}}]
        }),
    })
    .await;
}

#[tokio::test]
async fn openai_responses() {
    run(Script {
        test: "client_tools::openai_responses",
        provider: Provider::OpenAiResponses { strict: true },
        calls: json!({
            "id": "resp_1",
            "object": "response",
            "status": "completed",
            "model": "gpt-4.1-2025-04-14",
            "output": [
                {"type": "function_call", "id": "fc_1", "call_id": "call_ask", "name": "ask_user",
                 "arguments": "{\"question\":\"Which city are you in?\"}", "status": "completed"},
                {"type": "function_call", "id": "fc_2", "call_id": "call_wx", "name": "get_weather",
                 "arguments": "{\"city\":\"Lisbon\"}", "status": "completed"}
            ]
        }),
        ask_id: Some("call_ask"),
        partial: json!([
            {"type": "function_call_output", "call_id": "call_wx", "output": "15 degrees in Lisbon"}
        ]),
        whole: json!([
            {"type": "function_call_output", "call_id": "call_ask", "output": "Lisbon"},
            {"type": "function_call_output", "call_id": "call_wx", "output": "15 degrees in Lisbon"}
        ]),
        answer: json!({
            "id": "resp_2", "object": "response", "status": "completed",
            "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "It is 15 degrees in Lisbon.", "annotations": []}]}]
        }),
    })
    .await;
}

#[tokio::test]
async fn gemini() {
    run(Script {
        test: "client_tools::gemini",
        provider: Provider::Gemini { openapi: false },
        calls: json!({
            "candidates": [{
                "content": {"role": "model", "parts": [
                    {"functionCall": {"id": "fc-ask", "name": "ask_user",
                                      "args": {"question": "Which city are you in?"}},
                     "thoughtSignature": "c2lnbmF0dXJl"},
                    {"functionCall": {"id": "fc-wx", "name": "get_weather", "args": {"city": "Lisbon"}}}
                ]},
                "finishReason": "STOP",
                "index": 0
            }],
            "modelVersion": "gemini-3-pro-preview"
        }),
        ask_id: Some("fc-ask"),
        partial: json!([{"role": "user", "parts": [
            {"functionResponse": {"name": "get_weather", "id": "fc-wx",
                                  "response": {"output": "15 degrees in Lisbon"}}}
        ]}]),
        whole: json!([{"role": "user", "parts": [
            {"functionResponse": {"name": "ask_user", "id": "fc-ask", "response": {"output": "Lisbon"}}},
            {"functionResponse": {"name": "get_weather", "id": "fc-wx",
                                  "response": {"output": "15 degrees in Lisbon"}}}
        ]}]),
        answer: json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": "It is 15 degrees in Lisbon."}]},
                            "finishReason": "STOP"}]
        }),
    })
    .await;
}

#[tokio::test]
async fn groq() {
    run(Script {
        test: "client_tools::groq",
        provider: Provider::Groq,
        calls: json!({
            "id": "chatcmpl-g1", "object": "chat.completion", "created": 1_741_569_952,
            "model": "llama-3.3-70b-versatile",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "call_g_ask", "type": "function", "function": {
                            "name": "ask_user", "arguments": "{\"question\": \"Which city are you in?\"}"}},
                        {"id": "call_g_wx", "type": "function", "function": {
                            "name": "get_weather", "arguments": "{\"city\": \"Lisbon\"}"}}
                    ]
                },
                "logprobs": null,
                "finish_reason": "tool_calls"
            }],
            "usage": {"prompt_tokens": 220, "completion_tokens": 40, "total_tokens": 260}
        }),
        ask_id: Some("call_g_ask"),
        partial: json!([
            {"role": "tool", "tool_call_id": "call_g_wx", "name": "get_weather",
             "content": "15 degrees in Lisbon"}
        ]),
        whole: json!([
            {"role": "tool", "tool_call_id": "call_g_ask", "name": "ask_user", "content": "Lisbon"},
            {"role": "tool", "tool_call_id": "call_g_wx", "name": "get_weather",
             "content": "15 degrees in Lisbon"}
        ]),
        answer: json!({
            "id": "chatcmpl-g2", "object": "chat.completion", "model": "llama-3.3-70b-versatile",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "It is 15 degrees in Lisbon."}}]
        }),
    })
    .await;
}

#[tokio::test]
async fn ollama() {
    run(Script {
        test: "client_tools::ollama",
        provider: Provider::Ollama,
        calls: json!({
            "model": "llama3.2",
            "created_at": "2026-11-27T10:00:00.000Z",
            "message": {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"function": {"name": "ask_user",
                                  "arguments": {"question": "Which city are you in?"}}},
                    {"function": {"name": "get_weather", "arguments": {"city": "Lisbon"}}}
                ]
            },
            "done": true,
            "done_reason": "stop"
        }),
        ask_id: None,
        partial: json!([
            {"role": "tool", "tool_name": "get_weather", "content": "15 degrees in Lisbon"}
        ]),
        whole: json!([
            {"role": "tool", "tool_name": "ask_user", "content": "Lisbon"},
            {"role": "tool", "tool_name": "get_weather", "content": "15 degrees in Lisbon"}
        ]),
        answer: json!({
            "model": "llama3.2", "created_at": "2026-11-27T10:00:05.000Z",
            "message": {"role": "assistant", "content": "It is 15 degrees in Lisbon."},
            "done": true, "done_reason": "stop"
        }),
    })
    .await;
}

#[tokio::test]
async fn vllm() {
    run(Script {
        test: "client_tools::vllm",
        provider: Provider::Vllm { strict: false },
        calls: json!({
            "id": "chatcmpl-v1", "object": "chat.completion", "created": 1_741_569_952,
            "model": "Qwen/Qwen2.5-7B-Instruct",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant", "content": null,
                    "tool_calls": [
                        {"id": "chatcmpl-tool-ask", "type": "function", "function": {
                            "name": "ask_user", "arguments": "{\"question\": \"Which city are you in?\"}"}},
                        {"id": "chatcmpl-tool-wx", "type": "function", "function": {
                            "name": "get_weather", "arguments": "{\"city\": \"Lisbon\"}"}}
                    ]
                },
                "finish_reason": "tool_calls"
            }]
        }),
        ask_id: Some("chatcmpl-tool-ask"),
        partial: json!([
            {"role": "tool", "tool_call_id": "chatcmpl-tool-wx", "content": "15 degrees in Lisbon"}
        ]),
        whole: json!([
            {"role": "tool", "tool_call_id": "chatcmpl-tool-ask", "content": "Lisbon"},
            {"role": "tool", "tool_call_id": "chatcmpl-tool-wx", "content": "15 degrees in Lisbon"}
        ]),
        answer: json!({
            "id": "chatcmpl-v2", "object": "chat.completion", "model": "Qwen/Qwen2.5-7B-Instruct",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "It is 15 degrees in Lisbon."}}]
        }),
    })
    .await;
}

/// A client that never answers: the loop does not hang, the call ends with
/// an error result the model reads.
#[tokio::test(start_paused = true)]
async fn a_result_never_delivered_ends_as_an_error_in_the_reply() {
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(AskUser)
        .pending_timeout(std::time::Duration::from_secs(5))
        .build();
    let response = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "ask_user", "input": {"question": "Which city are you in?"}}
    ]});
    let provider = Provider::Anthropic { strict: false };
    let mut turn = provider
        .respond(&registry, &ToolContext::new(()), &response)
        .await
        .unwrap();
    assert!(turn.reply().is_empty());
    let call_id = turn.waiting().next().expect("waiting").call_id().to_owned();
    turn.resume(&registry).await;
    assert_eq!(
        turn.reply(),
        [json!({"role": "user", "content": [{
            "type": "tool_result", "tool_use_id": "toolu_1", "is_error": true,
            "content": format!("tool `ask_user` (call `{call_id}`) produced no result within 5s"),
        }]})]
    );
}
