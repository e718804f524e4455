//! Whole agent loops whose every response is streamed (as
//! `Provider::streamed` streams it, by a scripted server over HTTP on
//! loopback, a few bytes at a time) and read with `StreamedTurn`, so that
//! each call starts while the rest still comes: for OpenAI Chat
//! Completions, Responses, Anthropic and Gemini, the conversation and the
//! answer are those of the same loop read whole.

use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::provider::stream::StreamedTurn;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Get the weather for a city.
#[tool(read_only)]
async fn get_weather(
    /** The city. */
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// The scripted model's two responses: calls first, then the answer.
fn responses(provider: Provider) -> (Value, Value, Value) {
    let arguments = json!({"city": "Paris"}).to_string();
    match provider {
        Provider::OpenAiChat { .. } => (
            json!({"role": "user", "content": "Weather in Paris?"}),
            json!({"id": "c1", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": "Checking.", "tool_calls": [{"id": "call_1", "type": "function",
                "function": {"name": "get_weather", "arguments": arguments}}]}}]}),
            json!({"id": "c2", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "It is sunny in Paris."}}]}),
        ),
        Provider::OpenAiResponses { .. } => (
            json!({"role": "user", "content": "Weather in Paris?"}),
            json!({"id": "resp_1", "object": "response", "status": "completed", "output": [
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
                 "arguments": arguments, "status": "completed"}]}),
            json!({"id": "resp_2", "object": "response", "status": "completed", "output": [
                {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": "It is sunny in Paris.", "annotations": []}]}]}),
        ),
        Provider::Anthropic { .. } => (
            json!({"role": "user", "content": "Weather in Paris?"}),
            json!({"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]}),
            json!({"id": "msg_2", "type": "message", "role": "assistant", "stop_reason": "end_turn",
                "content": [{"type": "text", "text": "It is sunny in Paris."}]}),
        ),
        _ => (
            json!({"role": "user", "parts": [{"text": "Weather in Paris?"}]}),
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}, "finishReason": "STOP"}]}),
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "It is sunny in Paris."}]},
                "finishReason": "STOP"}]}),
        ),
    }
}

/// A scripted server streaming `responses` in turn, one a request, in
/// chunks of a few bytes (HTTP/1.1, chunked): its URL.
async fn server(provider: Provider, responses: Vec<Value>) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("bound");
    tokio::spawn(async move {
        for response in responses {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let mut request = Vec::new();
            let mut buffer = [0_u8; 8192];
            // The head, then the body its content-length says.
            loop {
                let Ok(n) = socket.read(&mut buffer).await else {
                    return;
                };
                request.extend_from_slice(&buffer[..n]);
                let text = String::from_utf8_lossy(&request).to_lowercase();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length: usize = text
                        .lines()
                        .find_map(|line| line.strip_prefix("content-length:"))
                        .and_then(|n| n.trim().parse().ok())
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
                if n == 0 {
                    return;
                }
            }
            let stream = provider.streamed(&response).expect("a whole response");
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
            let _ = socket.write_all(head.as_bytes()).await;
            for piece in stream.as_bytes().chunks(11) {
                let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
                chunk.extend_from_slice(piece);
                chunk.extend_from_slice(b"\r\n");
                if socket.write_all(&chunk).await.is_err() {
                    return;
                }
                tokio::task::yield_now().await;
            }
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
    });
    format!("http://{address}/")
}

/// The loop's conversation and answer, each response streamed over HTTP
/// or taken whole.
async fn converse(provider: Provider, streamed: bool) -> (Vec<Value>, String) {
    let registry = Arc::new(ToolRegistry::new().with(GetWeather));
    let ctx = ToolContext::new(());
    let (question, first, last) = responses(provider);
    let url = server(provider, vec![first.clone(), last.clone()]).await;
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a client");
    let mut conversation = vec![question];
    for response in [first, last] {
        let turn = if streamed {
            let mut body = client
                .post(&url)
                .json(&json!({"stream": true, "conversation": conversation}))
                .send()
                .await
                .expect("an answer");
            let mut turn = StreamedTurn::new(provider, Arc::clone(&registry), ctx.clone());
            while let Some(chunk) = body.chunk().await.expect("a chunk") {
                turn.feed(&chunk).expect("read");
            }
            turn.finish().await.expect("a turn")
        } else {
            provider
                .respond(&registry, &ctx, &response)
                .await
                .expect("a turn")
        };
        turn.append_to(&mut conversation);
        if turn.is_done() {
            return (conversation, turn.text().unwrap_or_default().to_owned());
        }
    }
    panic!("the model never answered")
}

#[tokio::test]
async fn every_providers_loop_streamed_is_its_loop_read_whole() {
    for provider in [
        Provider::OpenAiChat { strict: false },
        Provider::OpenAiResponses { strict: true },
        Provider::Anthropic { strict: false },
        Provider::Gemini { openapi: false },
    ] {
        let whole = converse(provider, false).await;
        let streamed = converse(provider, true).await;
        assert_eq!(streamed, whole, "{provider}");
        assert_eq!(whole.1, "It is sunny in Paris.", "{provider}");
        // The question, the model's calls, the results, the answer.
        assert!(whole.0.len() >= 4, "{provider}: {:?}", whole.0);
        assert!(
            whole
                .0
                .iter()
                .any(|item| item.to_string().contains("sunny in Paris")
                    && item != whole.0.last().unwrap()),
            "{provider}: the tool's result is in the conversation"
        );
    }
}
