//! A scripted model on loopback, so that the example runs with no key and
//! no network: it answers in each provider's documented shapes (those of
//! `tests/fixtures/providers/`), first with three tool calls, then, once a
//! request carries their results as the provider wants them, with a final
//! answer. A request that is anything else gets an HTTP 400 in the
//! provider's error shape saying what was wrong, so a run that ends with
//! the answer shows the loop did its part.
//!
//! A request whose tools hold the search tool (`search_tools`, the
//! example's `--search`) is a searching conversation: the model first
//! searches, and calls the three tools once the request shows them what
//! it found (for Anthropic, once the search's result holds their
//! `tool_reference`s, every tool being sent, those that wait deferred).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

use super::Api;

#[path = "results.rs"]
mod results;
use results::{check_anthropic_results, check_gemini_results, check_openai_results};

/// The tools the model must be given, in the registry's order.
pub(crate) const TOOLS: [&str; 3] = ["get_weather", "web_search", "convert_currency"];

/// The scripted model's final answer.
pub(crate) const ANSWER: &str = "In Paris it is 21.5 °C, sunny with a light breeze. \
     100 EUR is 108.00 USD; converting 5000 EUR needs a person to approve it first.";

/// Starts the scripted model of `api` on 127.0.0.1 at a free port and
/// returns the base URL to give the client. The server runs on the current
/// Tokio runtime until it shuts down.
pub(crate) async fn serve(api: Api) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let router = match api {
        Api::OpenAi => Router::new().route("/v1/chat/completions", post(chat)),
        Api::Anthropic => Router::new().route("/v1/messages", post(chat)),
        Api::Gemini => Router::new().route("/v1beta/models/{model}", post(generate_content)),
    }
    .with_state(api);
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, router).await {
            eprintln!("the scripted model stopped: {error}");
        }
    });
    Ok(match api {
        Api::OpenAi => format!("http://{address}/v1"),
        Api::Anthropic | Api::Gemini => format!("http://{address}"),
    })
}

async fn chat(State(api): State<Api>, body: Bytes) -> Response {
    reply(api, &body, false)
}

/// Gemini's path is `models/{model}:generateContent`: the method is part
/// of the last segment.
async fn generate_content(
    State(api): State<Api>,
    Path(model): Path<String>,
    body: Bytes,
) -> Response {
    let streamed = model.ends_with(":streamGenerateContent");
    if !model.ends_with(":generateContent") && !streamed {
        let message = format!(
            "the scripted model has no method `{model}`; it answers `{{model}}:generateContent` \
             and `{{model}}:streamGenerateContent`"
        );
        return refusal(api, StatusCode::NOT_FOUND, &message);
    }
    reply(api, &body, streamed)
}

/// The answer to a request, whole or, when the request asks it (`"stream":
/// true`, or Gemini's `streamGenerateContent`), streamed as the provider
/// streams it.
fn reply(api: Api, body: &[u8], streamed: bool) -> Response {
    let body: Value = match serde_json::from_slice(body) {
        Ok(body) => body,
        Err(error) => {
            let message = format!("the request body is not JSON: {error}");
            return refusal(api, StatusCode::BAD_REQUEST, &message);
        }
    };
    let streamed = streamed || body.get("stream") == Some(&Value::Bool(true));
    match answer(api, &body) {
        Ok(response) if streamed => {
            let events = api.provider().streamed(&response).unwrap_or_default();
            (
                [(axum::http::header::CONTENT_TYPE, "text/event-stream")],
                events,
            )
                .into_response()
        }
        Ok(response) => axum::Json(response).into_response(),
        Err(message) => refusal(api, StatusCode::BAD_REQUEST, &message),
    }
}

/// An error in the provider's own shape: each puts the message at
/// `error.message`.
fn refusal(api: Api, status: StatusCode, message: &str) -> Response {
    let body = match api {
        Api::OpenAi => json!({"error": {
            "message": message, "type": "invalid_request_error", "param": null, "code": null
        }}),
        Api::Anthropic => json!({"type": "error", "error": {
            "type": "invalid_request_error", "message": message
        }}),
        Api::Gemini => {
            let code = if status == StatusCode::NOT_FOUND {
                "NOT_FOUND"
            } else {
                "INVALID_ARGUMENT"
            };
            json!({"error": {"code": status.as_u16(), "message": message, "status": code}})
        }
    };
    (status, axum::Json(body)).into_response()
}

/// The scripted model's response to a request body, or what is wrong with
/// the request.
pub(crate) fn answer(api: Api, body: &Value) -> Result<Value, String> {
    let key = match api {
        Api::OpenAi | Api::Anthropic => "messages",
        Api::Gemini => "contents",
    };
    let conversation = body[key]
        .as_array()
        .ok_or_else(|| format!("the request has no `{key}` array"))?;
    if conversation
        .first()
        .is_none_or(|first| first["role"] != "user")
    {
        return Err(format!("`{key}` must start with the user's message"));
    }
    // A searching conversation: the search and its result come first.
    let searching = tool_names(api, body)?.contains(&SEARCH_TOOL);
    if searching && conversation.len() == 1 {
        check_search_tools(api, body)?;
        return Ok(search_call(api));
    }
    let skipped = if searching {
        check_search_turn(api, conversation)?;
        SEARCH_ENTRIES
    } else {
        0
    };
    check_tools(api, body)?;
    match conversation.len() - skipped {
        1 => Ok(tool_calls(api)),
        n if n == expected_len(api) => {
            check_model_turn(api, &conversation[1 + skipped])?;
            check_results(api, &conversation[2 + skipped..])?;
            Ok(final_answer(api))
        }
        n => Err(format!(
            "`{key}` has {} entries; expected {} (the question{}) or {} (then the \
             model's turn with its three calls, and their results)",
            n + skipped,
            1 + skipped,
            if searching {
                ", the search and what it found"
            } else {
                ""
            },
            expected_len(api) + skipped
        )),
    }
}

/// The search tool's name, as the registry's `SearchTool` has it.
const SEARCH_TOOL: &str = "search_tools";

/// The entries a search adds before the calls: the model's turn with it,
/// and its result.
const SEARCH_ENTRIES: usize = 2;

/// What the scripted model searches for.
const SEARCH_QUERY: &str = "weather in a city, searching the web, converting currency";

/// The names of the request's tools, in order.
fn tool_names(api: Api, body: &Value) -> Result<Vec<&str>, String> {
    let (list, name) = match api {
        Api::OpenAi => (&body["tools"], "/function/name"),
        Api::Anthropic => (&body["tools"], "/name"),
        Api::Gemini => (&body["tools"][0]["functionDeclarations"], "/name"),
    };
    let tools = list
        .as_array()
        .ok_or("the request carries no tool definitions")?;
    Ok(tools
        .iter()
        .map(|tool| tool.pointer(name).and_then(Value::as_str).unwrap_or("?"))
        .collect())
}

/// Before the search: Anthropic is sent every tool, the three deferred
/// and the search not; the others are shown the search alone.
fn check_search_tools(api: Api, body: &Value) -> Result<(), String> {
    let names = tool_names(api, body)?;
    match api {
        Api::Anthropic => {
            let tools = body["tools"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            for tool in tools {
                let deferred = tool["defer_loading"] == true;
                let name = tool["name"].as_str().unwrap_or("?");
                if deferred == (name == SEARCH_TOOL) {
                    return Err(format!(
                        "every tool but `{SEARCH_TOOL}` must be sent with `defer_loading: true`; got {tool}"
                    ));
                }
            }
            Ok(())
        }
        Api::OpenAi | Api::Gemini => {
            if names.iter().any(|name| TOOLS.contains(name)) {
                return Err(format!(
                    "before the search, the tools that wait to be found must not be shown; got {names:?}"
                ));
            }
            Ok(())
        }
    }
}

/// The ids the scripted model gives its search call.
const SEARCH_CALL_ID: &str = "call_search01";
const SEARCH_USE_ID: &str = "toolu_01SearchToolsQ7xYzAbCdEf";

/// The model's turn with its search.
fn search_turn(api: Api) -> Value {
    let input = json!({"query": SEARCH_QUERY});
    match api {
        Api::OpenAi => json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": SEARCH_CALL_ID, "type": "function",
            "function": {"name": SEARCH_TOOL, "arguments": input.to_string()}
        }]}),
        Api::Anthropic => json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": SEARCH_USE_ID, "name": SEARCH_TOOL, "input": input}
        ]}),
        Api::Gemini => json!({"role": "model", "parts": [
            {"functionCall": {"name": SEARCH_TOOL, "args": input}}
        ]}),
    }
}

/// The response with the search.
fn search_call(api: Api) -> Value {
    let turn = search_turn(api);
    match api {
        Api::OpenAi => json!({
            "id": "chatcmpl-agent0",
            "object": "chat.completion",
            "created": 1699896915,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": turn, "logprobs": null, "finish_reason": "tool_calls"}]
        }),
        Api::Anthropic => json!({
            "id": "msg_01Sq9w938a90dw8q",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": turn["content"],
            "stop_reason": "tool_use",
            "stop_sequence": null
        }),
        Api::Gemini => json!({
            "candidates": [{"content": turn, "finishReason": "STOP", "index": 0}],
            "modelVersion": "gemini-3-pro-preview"
        }),
    }
}

/// The search's turn as it was sent, then its result naming the three
/// tools: text for OpenAI and Gemini, `tool_reference` blocks for
/// Anthropic.
fn check_search_turn(api: Api, conversation: &[Value]) -> Result<(), String> {
    let (Some(turn), Some(result)) = (conversation.get(1), conversation.get(2)) else {
        return Err("after the question, the search and its result must follow".into());
    };
    if *turn != search_turn(api) {
        return Err(format!(
            "the second entry must be the search as it was sent, {}; got {turn}",
            search_turn(api)
        ));
    }
    let found: Vec<String> = match api {
        Api::OpenAi => {
            let fits = result["role"] == "tool" && result["tool_call_id"] == SEARCH_CALL_ID;
            let text = result["content"].as_str().filter(|_| fits).ok_or_else(|| {
                format!("the search's result must be a `tool` message answering `{SEARCH_CALL_ID}`; got {result}")
            })?;
            TOOLS
                .iter()
                .filter(|tool| text.contains(&format!("`{tool}`")))
                .map(|tool| (*tool).to_owned())
                .collect()
        }
        Api::Anthropic => {
            let block = &result["content"][0];
            let fits = result["role"] == "user"
                && block["type"] == "tool_result"
                && block["tool_use_id"] == SEARCH_USE_ID;
            let references = block["content"].as_array().filter(|_| fits).ok_or_else(|| {
                format!("the search's result must be a `tool_result` of `tool_reference` blocks for `{SEARCH_USE_ID}`; got {result}")
            })?;
            references
                .iter()
                .filter(|reference| reference["type"] == "tool_reference")
                .filter_map(|reference| reference["tool_name"].as_str().map(str::to_owned))
                .collect()
        }
        Api::Gemini => {
            let response = &result["parts"][0]["functionResponse"];
            let output = response["response"]["output"]
                .as_str()
                .filter(|_| result["role"] == "user" && response["name"] == SEARCH_TOOL)
                .ok_or_else(|| format!("the search's result must be the `functionResponse` of `{SEARCH_TOOL}`; got {result}"))?;
            TOOLS
                .iter()
                .filter(|tool| output.contains(&format!("`{tool}`")))
                .map(|tool| (*tool).to_owned())
                .collect()
        }
    };
    if TOOLS
        .iter()
        .all(|tool| found.iter().any(|name| name == tool))
    {
        Ok(())
    } else {
        Err(format!(
            "the search's result must name the tools {TOOLS:?}; it named {found:?}"
        ))
    }
}

/// The question, the model's turn, and the results: one `tool` message per
/// call for Chat Completions, one user entry holding them all otherwise.
fn expected_len(api: Api) -> usize {
    match api {
        Api::OpenAi => 2 + TOOL_CALL_IDS.len(),
        Api::Anthropic | Api::Gemini => 3,
    }
}

fn check_tools(api: Api, body: &Value) -> Result<(), String> {
    let (list, name, schema) = match api {
        Api::OpenAi => (&body["tools"], "/function/name", "/function/parameters"),
        Api::Anthropic => (&body["tools"], "/name", "/input_schema"),
        Api::Gemini => (
            &body["tools"][0]["functionDeclarations"],
            "/name",
            "/parametersJsonSchema",
        ),
    };
    let tools = list
        .as_array()
        .ok_or("the request carries no tool definitions")?;
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool.pointer(name).and_then(Value::as_str).unwrap_or("?"))
        .collect();
    // The three, in order; a gateway's registry holds others beside them.
    let ours: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| TOOLS.contains(name))
        .collect();
    if ours != TOOLS {
        return Err(format!("expected the tools {TOOLS:?}, got {names:?}"));
    }
    if let Some(tool) = tools
        .iter()
        .find(|tool| !tool.pointer(schema).is_some_and(Value::is_object))
    {
        return Err(format!("the tool {tool} has no schema at `{schema}`"));
    }
    Ok(())
}

/// The ids the scripted model gives its calls. Gemini's documented
/// responses carry none: its results are matched by name and order.
const TOOL_CALL_IDS: [&str; 3] = ["call_abc123", "call_def456", "call_ghi789"];
const TOOL_USE_IDS: [&str; 3] = [
    "toolu_01A09q90qw90lq917835lq9",
    "toolu_01B7mdTcNNFaY2d7Ekq4U3fv",
    "toolu_01XvVgfFpqTmU9uJ1h7KzPDe",
];

/// The three calls: the weather (an `Observe` tool), a conversion the
/// approval hook lets through and one it refuses.
fn arguments() -> [Value; 3] {
    let convert = |amount| json!({"amount": amount, "from": "EUR", "to": "USD"});
    [json!({"city": "Paris"}), convert(100), convert(5000)]
}

/// Which of the calls the approval hook refuses.
const REFUSED: [bool; 3] = [false, false, true];

/// The tool each call names.
const CALLED: [&str; 3] = ["get_weather", "convert_currency", "convert_currency"];

/// The model's turn with its calls, as the provider sends it and wants it
/// back in the conversation.
fn model_turn(api: Api) -> Value {
    let calls = CALLED.into_iter().zip(arguments());
    match api {
        Api::OpenAi => {
            let tool_calls: Vec<Value> = calls
                .zip(TOOL_CALL_IDS)
                .map(|((name, mut arguments), id)| {
                    // Strict mode makes every property required: the
                    // optional ones come as null.
                    if name == "get_weather" {
                        arguments["units"] = Value::Null;
                    }
                    json!({"id": id, "type": "function",
                           "function": {"name": name, "arguments": arguments.to_string()}})
                })
                .collect();
            json!({"role": "assistant", "content": null, "tool_calls": tool_calls})
        }
        Api::Anthropic => {
            let mut content = vec![json!({
                "type": "text",
                "text": "I'll check the weather in Paris and convert both amounts."
            })];
            content.extend(calls.zip(TOOL_USE_IDS).map(|((name, input), id)| {
                json!({"type": "tool_use", "id": id, "name": name, "input": input})
            }));
            json!({"role": "assistant", "content": content})
        }
        Api::Gemini => {
            let mut parts: Vec<Value> = calls
                .map(|(name, args)| json!({"functionCall": {"name": name, "args": args}}))
                .collect();
            // Gemini 3 signs its first call; the signature must come back
            // as it was sent.
            parts[0]["thoughtSignature"] = "CiQBcsjafBxZ3Gu0hVvUeQ==".into();
            json!({"role": "model", "parts": parts})
        }
    }
}

fn tool_calls(api: Api) -> Value {
    let turn = model_turn(api);
    match api {
        Api::OpenAi => json!({
            "id": "chatcmpl-agent1",
            "object": "chat.completion",
            "created": 1699896916,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": turn, "logprobs": null, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 182, "completion_tokens": 61, "total_tokens": 243}
        }),
        Api::Anthropic => json!({
            "id": "msg_01Aq9w938a90dw8q",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": turn["content"],
            "stop_reason": "tool_use",
            "stop_sequence": null,
            "usage": {"input_tokens": 712, "output_tokens": 154}
        }),
        Api::Gemini => json!({
            "candidates": [{"content": turn, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 210, "candidatesTokenCount": 48, "totalTokenCount": 258},
            "modelVersion": "gemini-3-pro-preview"
        }),
    }
}

fn final_answer(api: Api) -> Value {
    match api {
        Api::OpenAi => json!({
            "id": "chatcmpl-agent2",
            "object": "chat.completion",
            "created": 1699896917,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": ANSWER},
                         "logprobs": null, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 301, "completion_tokens": 35, "total_tokens": 336}
        }),
        Api::Anthropic => json!({
            "id": "msg_01Bq9w938a90dw8r",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": ANSWER}],
            "stop_reason": "end_turn",
            "stop_sequence": null,
            "usage": {"input_tokens": 1024, "output_tokens": 38}
        }),
        Api::Gemini => json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": ANSWER}]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 330, "candidatesTokenCount": 36, "totalTokenCount": 366},
            "modelVersion": "gemini-3-pro-preview"
        }),
    }
}

/// The model's turn must come back exactly as it was sent (Gemini's
/// signature included), before the results.
fn check_model_turn(api: Api, turn: &Value) -> Result<(), String> {
    let sent = model_turn(api);
    if *turn == sent {
        Ok(())
    } else {
        Err(format!(
            "the second entry must be the model's turn as it was sent, {sent}; got {turn}"
        ))
    }
}

/// The results in the provider's shape, in the calls' order, answering
/// the calls by the ids the model issued.
fn check_results(api: Api, results: &[Value]) -> Result<(), String> {
    match api {
        Api::OpenAi => check_openai_results(results),
        Api::Anthropic => check_anthropic_results(results),
        Api::Gemini => check_gemini_results(results),
    }
}
