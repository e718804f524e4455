//! A complete agent loop against a scripted fake model, for Anthropic,
//! OpenAI Chat Completions (strict) and Gemini: the same few lines
//! (definitions, then `send` / `respond` / `append_to` until the model calls
//! no tool) drive each. The fake model checks every request it receives:
//! the tool definitions, and after its parallel tool calls the conversation
//! holding its own turn followed by the results, in the calls' order and
//! grouped as the provider wants them.
//!
//! The first call is the slower one, so its result comes in last: the
//! replies still follow the calls' order. The clock is Tokio's paused one.

use std::error::Error;
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Get the current weather for a city.
#[tool(read_only, concurrency_safe, tier = Observe)]
async fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Days ahead, 0 for today.
    days: Option<u8>,
) -> String {
    let delay = if city == "Paris" { 50 } else { 10 };
    tokio::time::sleep(Duration::from_millis(delay)).await;
    format!("15 degrees in {city}, {} days ahead", days.unwrap_or(0))
}

/// The same question for every provider.
const QUESTION: &str = "What is the weather in Paris and in London?";
const ANSWER: &str = "It is 15 degrees in both Paris and London.";

/// A fake Claude: two parallel `tool_use` blocks, then, once their results
/// are in, a final answer.
fn scripted_claude() -> impl AsyncFnMut(Value) -> Value {
    let tool_use = json!({
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "Let me check both cities."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "London"}}
        ]
    });
    let mut requests = 0;
    async move |body: Value| {
        requests += 1;
        assert_eq!(body["tools"][0]["name"], "get_weather");
        assert_eq!(body["tools"][0]["strict"], true);
        assert!(body["tools"][0]["input_schema"].is_object());
        let first = json!({"role": "user", "content": QUESTION});
        match requests {
            1 => {
                assert_eq!(body["messages"], json!([first]));
                tool_use.clone()
            }
            2 => {
                // The assistant's turn, then ONE user message holding both
                // results in the calls' order.
                assert_eq!(
                    body["messages"],
                    json!([
                        first,
                        {"role": "assistant", "content": tool_use["content"]},
                        {"role": "user", "content": [
                            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "15 degrees in Paris, 0 days ahead"},
                            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "15 degrees in London, 0 days ahead"}
                        ]}
                    ])
                );
                json!({
                    "id": "msg_2",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "stop_reason": "end_turn",
                    "content": [{"type": "text", "text": ANSWER}]
                })
            }
            _ => panic!("the loop should have ended after the final answer"),
        }
    }
}

/// The guide's loop (docs/guide/providers.md), word for word.
async fn converse<App: Send + Sync + 'static>(
    registry: &ToolRegistry<App>,
    ctx: &ToolContext<App>,
    mut send: impl AsyncFnMut(Value) -> Value,
    messages: &mut Vec<Value>,
) -> Result<String, Box<dyn std::error::Error>> {
    let provider = Provider::Anthropic { strict: true };
    let tools = provider.definitions(registry)?;
    loop {
        let response = send(json!({
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "tools": tools.as_json(),
            "messages": messages,
        }))
        .await;
        let turn = provider.respond(registry, ctx, &response).await?;
        turn.append_to(messages);
        if turn.is_done() {
            return Ok(turn.text().unwrap_or_default().to_owned());
        }
    }
}

#[tokio::test(start_paused = true)]
async fn anthropic_agent_loop() -> Result<(), Box<dyn Error>> {
    let registry = ToolRegistry::new().with(GetWeather);
    let ctx = ToolContext::new(());
    let mut messages = vec![json!({"role": "user", "content": QUESTION})];

    let answer = converse(&registry, &ctx, scripted_claude(), &mut messages).await?;

    assert_eq!(answer, ANSWER);
    // The conversation goes on from the model's final turn.
    assert_eq!(messages.len(), 4);
    assert_eq!(
        messages[3],
        json!({"role": "assistant", "content": [{"type": "text", "text": ANSWER}]})
    );
    Ok(())
}

/// A fake GPT in strict mode: two parallel tool calls (sending `null` for
/// the optional `days`, as strict mode does), then a final answer.
fn scripted_gpt() -> impl AsyncFnMut(Value) -> Value {
    let assistant = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":null}"}},
            {"id": "call_2", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"London\",\"days\":1}"}}
        ]
    });
    let mut requests = 0;
    async move |body: Value| {
        requests += 1;
        let function = &body["tools"][0]["function"];
        assert_eq!(function["name"], "get_weather");
        assert_eq!(function["strict"], true);
        assert_eq!(function["parameters"]["required"], json!(["city", "days"]));
        let first = json!({"role": "user", "content": QUESTION});
        let message = match requests {
            1 => {
                assert_eq!(body["messages"], json!([first]));
                assistant.clone()
            }
            2 => {
                // The assistant message, then one `tool` message per call,
                // in order, nothing in between.
                assert_eq!(
                    body["messages"],
                    json!([
                        first,
                        assistant,
                        {"role": "tool", "tool_call_id": "call_1", "content": "15 degrees in Paris, 0 days ahead"},
                        {"role": "tool", "tool_call_id": "call_2", "content": "15 degrees in London, 1 days ahead"}
                    ])
                );
                json!({"role": "assistant", "content": ANSWER})
            }
            _ => panic!("the loop should have ended after the final answer"),
        };
        let finish_reason = if message.get("tool_calls").is_some() {
            "tool_calls"
        } else {
            "stop"
        };
        json!({
            "id": format!("chatcmpl-{requests}"),
            "object": "chat.completion",
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}]
        })
    }
}

#[tokio::test(start_paused = true)]
async fn openai_chat_strict_agent_loop() -> Result<(), Box<dyn Error>> {
    let mut send = scripted_gpt();

    let registry = ToolRegistry::new().with(GetWeather);
    let ctx = ToolContext::new(());
    let provider = Provider::OpenAiChat { strict: true };

    let definitions = provider.definitions(&registry)?;
    let mut messages = vec![json!({"role": "user", "content": QUESTION})];
    let answer = loop {
        let response = send(json!({
            "model": "gpt-4o-mini",
            "tools": definitions.as_json(),
            "messages": messages,
        }))
        .await;
        let turn = provider.respond(&registry, &ctx, &response).await?;
        if turn.is_done() {
            break response;
        }
        turn.append_to(&mut messages);
    };

    assert_eq!(answer["choices"][0]["message"]["content"], ANSWER);
    Ok(())
}

/// A fake Gemini 3: two parallel function calls, the first part carrying
/// the thought signature that must come back verbatim, then a final answer.
fn scripted_gemini() -> impl AsyncFnMut(Value) -> Value {
    let calls = json!({
        "role": "model",
        "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
             "thoughtSignature": "CiQBcsjafBxZ3Gu0hVvUeQ=="},
            {"functionCall": {"name": "get_weather", "args": {"city": "London", "days": 2}}}
        ]
    });
    let mut requests = 0;
    async move |body: Value| {
        requests += 1;
        let declaration = &body["tools"][0]["functionDeclarations"][0];
        assert_eq!(declaration["name"], "get_weather");
        assert!(declaration["parametersJsonSchema"].is_object());
        let first = json!({"role": "user", "parts": [{"text": QUESTION}]});
        let content = match requests {
            1 => {
                assert_eq!(body["contents"], json!([first]));
                calls.clone()
            }
            2 => {
                // The model's content as it came, signature included, then
                // one user content with a `functionResponse` per call.
                assert_eq!(
                    body["contents"],
                    json!([
                        first,
                        calls,
                        {"role": "user", "parts": [
                            {"functionResponse": {"name": "get_weather",
                             "response": {"output": "15 degrees in Paris, 0 days ahead"}}},
                            {"functionResponse": {"name": "get_weather",
                             "response": {"output": "15 degrees in London, 2 days ahead"}}}
                        ]}
                    ])
                );
                json!({"role": "model", "parts": [{"text": ANSWER}]})
            }
            _ => panic!("the loop should have ended after the final answer"),
        };
        json!({
            "candidates": [{"content": content, "finishReason": "STOP", "index": 0}],
            "modelVersion": "gemini-3-pro-preview"
        })
    }
}

#[tokio::test(start_paused = true)]
async fn gemini_agent_loop() -> Result<(), Box<dyn Error>> {
    let mut send = scripted_gemini();

    let registry = ToolRegistry::new().with(GetWeather);
    let ctx = ToolContext::new(());
    let provider = Provider::Gemini { openapi: false };

    let definitions = provider.definitions(&registry)?;
    let mut contents = vec![json!({"role": "user", "parts": [{"text": QUESTION}]})];
    let answer = loop {
        let response = send(json!({
            "tools": definitions.as_json(),
            "contents": contents,
        }))
        .await;
        let turn = provider.respond(&registry, &ctx, &response).await?;
        if turn.is_done() {
            break response;
        }
        turn.append_to(&mut contents);
    };

    assert_eq!(
        answer["candidates"][0]["content"]["parts"][0]["text"],
        ANSWER
    );
    Ok(())
}

#[tokio::test]
async fn a_finished_turn_appends_only_the_models_answer() {
    // The loops above stop before appending the final turn; a conversation
    // that goes on appends it too: the model's answer, and no reply.
    let registry = ToolRegistry::new().with(GetWeather);
    let ctx = ToolContext::new(());
    let finals = [
        (
            Provider::Anthropic { strict: false },
            json!({"role": "assistant", "stop_reason": "end_turn", "content": [{"type": "text", "text": ANSWER}]}),
            json!({"role": "assistant", "content": [{"type": "text", "text": ANSWER}]}),
        ),
        (
            Provider::OpenAiChat { strict: true },
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER}, "finish_reason": "stop"}]}),
            json!({"role": "assistant", "content": ANSWER}),
        ),
        (
            Provider::Gemini { openapi: false },
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ANSWER}]}, "finishReason": "STOP"}]}),
            json!({"role": "model", "parts": [{"text": ANSWER}]}),
        ),
    ];
    for (provider, response, answer) in finals {
        let turn = provider.respond(&registry, &ctx, &response).await.unwrap();
        assert!(turn.is_done(), "{provider}");
        assert!(turn.reply().is_empty(), "{provider}");
        let mut conversation = Vec::new();
        turn.append_to(&mut conversation);
        assert_eq!(conversation, [answer], "{provider}");
    }
}
