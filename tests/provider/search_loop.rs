//! Native tool search in whole loops over HTTP, against scripted servers
//! that answer in the providers' documented shapes (docs/providers.md
//! 13.1, 13.4) and refuse, with an HTTP 400, a request that is not what
//! the provider wants: Anthropic's server-side search (the search's
//! blocks and the `tool_use` in one response, the turn echoed whole, one
//! `tool_result`), OpenAI Responses' hosted search (its items echoed, the
//! loaded `function_call` answered) and its client-executed search (the
//! application's search answers with the found tools' definitions, and
//! the model calls one).

use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tool_core::provider::{Listing, Provider, Search};
use tool_core::search::SearchTool;
use tool_core::toolset::Compose;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// The city.
    city: String,
) -> String {
    format!("21 °C and sunny in {city}")
}

/// Convert an amount between currencies.
#[tool(read_only)]
fn convert_currency(amount: f64, from: String, to: String) -> String {
    format!("{amount} {from} = {:.2} {to}", amount * 1.08)
}

/// Every tool waits to be found.
fn registry() -> ToolRegistry {
    let tools: ToolRegistry = ToolRegistry::new().with(GetWeather).with(ConvertCurrency);
    Compose::new().defer().apply(tools).expect("composed")
}

const QUESTION: &str = "What is the weather in Paris?";
const ANSWER: &str = "It is 21 °C and sunny in Paris.";

/// One step of a scripted server: what it checks of a request, and what it
/// answers.
type Step = Box<dyn Fn(&Value) -> Result<Value, String> + Send + Sync>;

#[derive(Clone)]
struct Script(Arc<(Mutex<usize>, Vec<Step>)>);

async fn answer(State(script): State<Script>, body: axum::Json<Value>) -> Response {
    let (next, steps) = &*script.0;
    let at = {
        let mut next = next.lock().unwrap_or_else(PoisonError::into_inner);
        *next += 1;
        *next - 1
    };
    let result = match steps.get(at) {
        Some(step) => step(&body.0),
        None => Err(format!("no request {} was expected", at + 1)),
    };
    match result {
        Ok(response) => axum::Json(response).into_response(),
        Err(message) => (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"error": {"type": "invalid_request_error", "message": message}})),
        )
            .into_response(),
    }
}

/// A scripted server on loopback; its URL.
async fn serve(steps: Vec<Step>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("bound");
    let router = Router::new()
        .route("/", post(answer))
        .with_state(Script(Arc::new((Mutex::new(0), steps))));
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}/")
}

/// The loop: the conversation and the tools as `listing` lists them, the
/// response answered, until the model answers; its answer and the
/// requests made.
async fn run(
    provider: Provider,
    url: &str,
    registry: &ToolRegistry,
    listing: Listing,
) -> Result<(String, usize), String> {
    let tools = provider
        .definitions_with(registry, listing)
        .map_err(|error| error.to_string())?;
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a client");
    let mut conversation = vec![json!({"role": "user", "content": QUESTION})];
    for requests in 1..=5 {
        let key = match provider {
            Provider::OpenAiResponses { .. } => "input",
            _ => "messages",
        };
        let body = json!({key: conversation, "tools": tools.as_json()});
        let response = client.post(url).json(&body).send().await.expect("sent");
        let status = response.status();
        let response: Value = response.json().await.expect("JSON");
        if !status.is_success() {
            return Err(response["error"]["message"]
                .as_str()
                .unwrap_or("?")
                .to_owned());
        }
        let turn = provider
            .respond(registry, &ToolContext::new(()), &response)
            .await
            .map_err(|error| error.to_string())?;
        turn.append_to(&mut conversation);
        if turn.is_done() {
            return Ok((turn.text().unwrap_or_default().to_owned(), requests));
        }
    }
    Err("no answer in 5 requests".into())
}

/// Anthropic's response with its server-side search and the call of what
/// it found (the guide's response format).
fn anthropic_searched() -> Value {
    json!({"role": "assistant", "type": "message", "stop_reason": "tool_use", "content": [
        {"type": "server_tool_use", "id": "srvtoolu_01ABC123", "name": "tool_search_tool_bm25",
         "input": {"query": "weather"}},
        {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_01ABC123", "content": {
            "type": "tool_search_tool_search_result",
            "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
        {"type": "tool_use", "id": "toolu_01XYZ789", "name": "get_weather", "input": {"city": "Paris"}}
    ]})
}

#[tokio::test]
async fn anthropic_searches_on_its_servers_and_the_loop_answers_the_call_that_follows() {
    let first: Step = Box::new(|body| {
        let tools = body["tools"].as_array().ok_or("no tools")?;
        if tools[0]
            != json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
        {
            return Err(format!("the search must come first; got {}", tools[0]));
        }
        if !tools[1..].iter().all(|tool| tool["defer_loading"] == true) {
            return Err("every other tool must be deferred".into());
        }
        Ok(anthropic_searched())
    });
    let second: Step = Box::new(|body| {
        let messages = body["messages"].as_array().ok_or("no messages")?;
        // The assistant's content back unchanged, search blocks included.
        if messages[1]["content"] != anthropic_searched()["content"] {
            return Err(format!(
                "the model's turn must come back unchanged; got {}",
                messages[1]
            ));
        }
        let results = messages[2]["content"].as_array().ok_or("no results")?;
        if results.len() != 1 || results[0]["tool_use_id"] != "toolu_01XYZ789" {
            return Err(format!(
                "one `tool_result`, for the `tool_use`, none for the `srvtoolu_` id; got {}",
                messages[2]
            ));
        }
        if results[0]["content"] != "21 °C and sunny in Paris" {
            return Err(format!("the weather's result; got {}", results[0]));
        }
        Ok(json!({"role": "assistant", "stop_reason": "end_turn",
                  "content": [{"type": "text", "text": ANSWER}]}))
    });
    let url = serve(vec![first, second]).await;
    let answered = run(
        Provider::Anthropic { strict: false },
        &url,
        &registry(),
        Listing::new().search(Search::Native),
    )
    .await;
    assert_eq!(answered, Ok((ANSWER.to_owned(), 2)));
}

/// OpenAI's hosted search, as its guide shows the items: the search, what
/// it loaded, and the call.
fn openai_hosted() -> Value {
    json!([
        {"type": "tool_search_call", "execution": "server", "call_id": null,
         "status": "completed", "arguments": {"paths": ["get_weather"]}},
        {"type": "tool_search_output", "execution": "server", "call_id": null,
         "status": "completed", "tools": [{"type": "function", "name": "get_weather",
            "description": "Get the current weather in a city.", "defer_loading": true,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                           "required": ["city"], "additionalProperties": false}}]},
        {"type": "function_call", "name": "get_weather", "call_id": "call_abc123",
         "arguments": "{\"city\":\"Paris\"}"}
    ])
}

#[tokio::test]
async fn openai_responses_searches_on_its_servers_and_the_loop_answers_the_loaded_call() {
    let first: Step = Box::new(|body| {
        let tools = body["tools"].as_array().ok_or("no tools")?;
        if tools.last() != Some(&json!({"type": "tool_search"})) {
            return Err("the hosted search must come last".into());
        }
        if !tools[..tools.len() - 1]
            .iter()
            .all(|tool| tool["defer_loading"] == true)
        {
            return Err("every function must be deferred".into());
        }
        Ok(json!({"output": openai_hosted()}))
    });
    let second: Step = Box::new(|body| {
        let input = body["input"].as_array().ok_or("no input")?;
        if input[1..4] != *openai_hosted().as_array().expect("items") {
            return Err("the output items must come back as they were".into());
        }
        let fits = input.len() == 5
            && input[4]["type"] == "function_call_output"
            && input[4]["call_id"] == "call_abc123"
            && input[4]["output"] == "21 °C and sunny in Paris";
        if !fits {
            return Err(format!(
                "the call's output must follow; got {:?}",
                input.get(4)
            ));
        }
        Ok(json!({"output": [{"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": ANSWER}]}]}))
    });
    let url = serve(vec![first, second]).await;
    let answered = run(
        Provider::OpenAiResponses { strict: false },
        &url,
        &registry(),
        Listing::new().search(Search::Native),
    )
    .await;
    assert_eq!(answered, Ok((ANSWER.to_owned(), 2)));
}

#[tokio::test]
async fn openai_responses_searches_with_the_applications_search_and_calls_what_it_found() {
    let tools = registry();
    let search = SearchTool::new(tools.tools());
    let registry = tools.with(search);
    let search_call = json!({"type": "tool_search_call", "execution": "client",
        "call_id": "call_search1", "status": "completed",
        "arguments": {"query": "the weather in a city"}});
    let first: Step = {
        let search_call = search_call.clone();
        Box::new(move |body| {
            let tools = body["tools"].as_array().ok_or("no tools")?;
            let search = tools.last().ok_or("no tools")?;
            if search["type"] != "tool_search" || search["execution"] != "client" {
                return Err(format!("the client search must come last; got {search}"));
            }
            Ok(json!({"output": [search_call]}))
        })
    };
    let second: Step = Box::new(move |body| {
        let input = body["input"].as_array().ok_or("no input")?;
        let output = &input[2];
        let fits = input[1] == search_call
            && output["type"] == "tool_search_output"
            && output["call_id"] == "call_search1"
            && output["tools"][0]["name"] == "get_weather"
            && output["tools"][0]["defer_loading"] == true;
        if !fits {
            return Err(format!(
                "the search and what it found must follow; got {input:?}"
            ));
        }
        Ok(
            json!({"output": [{"type": "function_call", "name": "get_weather",
            "namespace": "get_weather", "call_id": "call_xyz456",
            "arguments": "{\"city\":\"Paris\"}"}]}),
        )
    });
    let third: Step = Box::new(|body| {
        let input = body["input"].as_array().ok_or("no input")?;
        let last = input.last().ok_or("no input")?;
        if last["type"] != "function_call_output" || last["call_id"] != "call_xyz456" {
            return Err(format!("the call's output must follow; got {last}"));
        }
        Ok(json!({"output": [{"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": ANSWER}]}]}))
    });
    let url = serve(vec![first, second, third]).await;
    let answered = run(
        Provider::OpenAiResponses { strict: false },
        &url,
        &registry,
        Listing::new().search(Search::Client),
    )
    .await;
    assert_eq!(answered, Ok((ANSWER.to_owned(), 3)));
}
