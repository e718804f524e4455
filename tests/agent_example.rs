//! The agent example (`examples/agent/`) driven over real HTTP on loopback:
//! for each provider, the whole loop against the scripted model, with the
//! exact calls, the results as they went back (shape, order, ids) and the
//! final answer; a request the script does not expect refused with the
//! provider's message; every bad response a server can give turned into
//! an error that says what happened; and the example's own binary run with
//! no key, as `cargo run --example agent` runs it. (Its streamed loop:
//! `agent_streaming.rs`; with `--search`: `agent_search.rs`; its flags:
//! `agent_flags.rs`.)

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::{Value, json};

#[path = "../examples/agent/main.rs"]
#[allow(dead_code)]
mod agent;

use agent::{Api, Endpoint, Error, QUESTION, Transcript, run, scripted};

const ANSWER: &str = "In Paris it is 21.5 °C, sunny with a light breeze. \
     100 EUR is 108.00 USD; converting 5000 EUR needs a person to approve it first.";
const WEATHER: &str =
    r#"{"city":"Paris","temperature":21.5,"summary":"sunny with a light breeze"}"#;
const CONVERTED: &str = "100 EUR = 108.00 USD";
const REFUSED: &str = "the call to tool `convert_currency` was denied: \
     amounts over 1000 need a person to approve them";

async fn scripted_run(api: Api) -> Transcript {
    let base_url = scripted::serve(api).await.expect("a loopback port");
    run(&Endpoint::local(api, base_url), QUESTION)
        .await
        .unwrap_or_else(|error| panic!("{api}: {error}"))
}

/// The steps every provider's run takes: the weather, an approved
/// conversion, a refused one. `weather` and `converts` are the arguments
/// as the provider sent them.
fn assert_steps(transcript: &Transcript, weather: Value, converts: [Value; 2]) {
    let steps: Vec<(&str, &Value, &str, bool)> = transcript
        .steps
        .iter()
        .map(|step| {
            let agent::Step {
                name,
                arguments,
                result,
                is_error,
            } = step;
            (name.as_str(), arguments, result.as_str(), *is_error)
        })
        .collect();
    let [approved, refused] = &converts;
    assert_eq!(
        steps,
        [
            ("get_weather", &weather, WEATHER, false),
            ("convert_currency", approved, CONVERTED, false),
            ("convert_currency", refused, REFUSED, true),
        ]
    );
    assert_eq!(transcript.answer, ANSWER);
    assert_eq!(transcript.requests, 2);
}

#[tokio::test]
async fn openai_chat_loop_over_http() {
    let transcript = scripted_run(Api::OpenAi).await;

    // Chat Completions sends the arguments as a JSON string; in strict mode
    // the optional `units` comes as null.
    assert_steps(
        &transcript,
        json!(r#"{"city":"Paris","units":null}"#),
        [
            json!(r#"{"amount":100,"from":"EUR","to":"USD"}"#),
            json!(r#"{"amount":5000,"from":"EUR","to":"USD"}"#),
        ],
    );
    let tool_call = |id: &str, name: &str, arguments: &str| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}});
    assert_eq!(
        transcript.conversation,
        [
            json!({"role": "user", "content": QUESTION}),
            json!({"role": "assistant", "content": null, "tool_calls": [
                tool_call("call_abc123", "get_weather", r#"{"city":"Paris","units":null}"#),
                tool_call("call_def456", "convert_currency", r#"{"amount":100,"from":"EUR","to":"USD"}"#),
                tool_call("call_ghi789", "convert_currency", r#"{"amount":5000,"from":"EUR","to":"USD"}"#),
            ]}),
            // One `tool` message per call, in the calls' order, by id; Chat
            // has no error flag, so the refusal is the text.
            json!({"role": "tool", "tool_call_id": "call_abc123", "content": WEATHER}),
            json!({"role": "tool", "tool_call_id": "call_def456", "content": CONVERTED}),
            json!({"role": "tool", "tool_call_id": "call_ghi789", "content": REFUSED}),
            json!({"role": "assistant", "content": ANSWER}),
        ]
    );
}

#[tokio::test]
async fn anthropic_loop_over_http() {
    let transcript = scripted_run(Api::Anthropic).await;

    let convert = |amount| json!({"amount": amount, "from": "EUR", "to": "USD"});
    assert_steps(
        &transcript,
        json!({"city": "Paris"}),
        [convert(100), convert(5000)],
    );
    let tool_use = |id: &str, name: &str, input: Value| json!({"type": "tool_use", "id": id, "name": name, "input": input});
    assert_eq!(
        transcript.conversation,
        [
            json!({"role": "user", "content": QUESTION}),
            json!({"role": "assistant", "content": [
                {"type": "text", "text": "I'll check the weather in Paris and convert both amounts."},
                tool_use("toolu_01A09q90qw90lq917835lq9", "get_weather", json!({"city": "Paris"})),
                tool_use("toolu_01B7mdTcNNFaY2d7Ekq4U3fv", "convert_currency", convert(100)),
                tool_use("toolu_01XvVgfFpqTmU9uJ1h7KzPDe", "convert_currency", convert(5000)),
            ]}),
            // One user message, the blocks in the calls' order, by id, the
            // refusal flagged.
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": WEATHER},
                {"type": "tool_result", "tool_use_id": "toolu_01B7mdTcNNFaY2d7Ekq4U3fv", "content": CONVERTED},
                {"type": "tool_result", "tool_use_id": "toolu_01XvVgfFpqTmU9uJ1h7KzPDe", "content": REFUSED, "is_error": true},
            ]}),
            json!({"role": "assistant", "content": [{"type": "text", "text": ANSWER}]}),
        ]
    );
}

#[tokio::test]
async fn gemini_loop_over_http() {
    let transcript = scripted_run(Api::Gemini).await;

    let convert = |amount| json!({"amount": amount, "from": "EUR", "to": "USD"});
    assert_steps(
        &transcript,
        json!({"city": "Paris"}),
        [convert(100), convert(5000)],
    );
    assert_eq!(
        transcript.conversation,
        [
            json!({"role": "user", "parts": [{"text": QUESTION}]}),
            // The model's content as it came, its signature included.
            json!({"role": "model", "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                 "thoughtSignature": "CiQBcsjafBxZ3Gu0hVvUeQ=="},
                {"functionCall": {"name": "convert_currency", "args": convert(100)}},
                {"functionCall": {"name": "convert_currency", "args": convert(5000)}},
            ]}),
            // One user content, a `functionResponse` per call in order; JSON
            // output stays JSON, the refusal is an `error`.
            json!({"role": "user", "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"output":
                    {"city": "Paris", "temperature": 21.5, "summary": "sunny with a light breeze"}}}},
                {"functionResponse": {"name": "convert_currency", "response": {"output": CONVERTED}}},
                {"functionResponse": {"name": "convert_currency", "response": {"error": REFUSED}}},
            ]}),
            json!({"role": "model", "parts": [{"text": ANSWER}]}),
        ]
    );
}

#[tokio::test]
async fn the_example_prints_each_call_its_result_and_the_answer() {
    let transcript = scripted_run(Api::OpenAi).await;

    assert_eq!(
        transcript.to_string(),
        format!(
            "call   get_weather({{\"city\":\"Paris\",\"units\":null}})\n  \
             -> [ok] {WEATHER}\n\
             call   convert_currency({{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
             -> [ok] {CONVERTED}\n\
             call   convert_currency({{\"amount\":5000,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
             -> [error] {REFUSED}\n\
             answer (2 requests): {ANSWER}\n"
        )
    );
}

/// Posts `body` to the scripted model of `api` and returns the error.
async fn refused(api: Api, base_url: &str, body: Value) -> String {
    let endpoint = Endpoint::local(api, base_url).whole();
    let client = endpoint.client().expect("a client");
    match endpoint.post(&client, &body).await {
        Ok(response) => panic!("{api}: expected an error, got {response}"),
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn the_scripted_model_refuses_results_out_of_order() {
    let base_url = scripted::serve(Api::OpenAi).await.expect("a loopback port");
    let endpoint = Endpoint::local(Api::OpenAi, base_url.as_str()).whole();
    let client = endpoint.client().expect("a client");
    let tools = Api::OpenAi
        .provider()
        .definitions(&agent::quickstart::registry())
        .expect("definitions");

    // The real first turn, then the results of the first two calls swapped.
    let mut conversation = vec![Api::OpenAi.first_message(QUESTION)];
    let response = endpoint
        .post(&client, &endpoint.body(&conversation, tools.as_json()))
        .await
        .expect("the calls");
    conversation.push(response["choices"][0]["message"].clone());
    conversation.extend([
        json!({"role": "tool", "tool_call_id": "call_def456", "content": CONVERTED}),
        json!({"role": "tool", "tool_call_id": "call_abc123", "content": WEATHER}),
        json!({"role": "tool", "tool_call_id": "call_ghi789", "content": REFUSED}),
    ]);
    let error = refused(
        Api::OpenAi,
        &base_url,
        endpoint.body(&conversation, tools.as_json()),
    )
    .await;

    assert_eq!(
        error,
        format!(
            "{base_url}/chat/completions answered 400 Bad Request: result 1 must be a `tool` \
             message answering `call_abc123` with its text in `content`; got \
             {{\"role\":\"tool\",\"tool_call_id\":\"call_def456\",\"content\":\"{CONVERTED}\"}}"
        )
    );
}

#[tokio::test]
async fn the_scripted_models_refuse_a_request_without_the_tools() {
    let tools =
        "expected the tools [\"get_weather\", \"web_search\", \"convert_currency\"], got []";
    // Gemini's declarations sit inside the list's first entry: an empty
    // list has no place for them.
    let cases = [
        (Api::OpenAi, tools),
        (Api::Anthropic, tools),
        (Api::Gemini, "the request carries no tool definitions"),
    ];
    for (api, said) in cases {
        let base_url = scripted::serve(api).await.expect("a loopback port");
        let endpoint = Endpoint::local(api, base_url.as_str()).whole();
        let body = endpoint.body(&[api.first_message(QUESTION)], &json!([]));

        let error = refused(api, &base_url, body).await;

        assert_eq!(
            error,
            format!("{} answered 400 Bad Request: {said}", endpoint.url()),
            "{api}"
        );
    }
}

#[tokio::test]
async fn an_anthropic_refusal_without_its_error_flag_is_refused() {
    let base_url = scripted::serve(Api::Anthropic)
        .await
        .expect("a loopback port");
    let endpoint = Endpoint::local(Api::Anthropic, base_url.as_str()).whole();
    let client = endpoint.client().expect("a client");
    let tools = Api::Anthropic
        .provider()
        .definitions(&agent::quickstart::registry())
        .expect("definitions");
    let mut conversation = vec![Api::Anthropic.first_message(QUESTION)];
    let response = endpoint
        .post(&client, &endpoint.body(&conversation, tools.as_json()))
        .await
        .expect("the calls");
    conversation.push(json!({"role": "assistant", "content": response["content"]}));
    conversation.push(json!({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": WEATHER},
        {"type": "tool_result", "tool_use_id": "toolu_01B7mdTcNNFaY2d7Ekq4U3fv", "content": CONVERTED},
        {"type": "tool_result", "tool_use_id": "toolu_01XvVgfFpqTmU9uJ1h7KzPDe", "content": REFUSED},
    ]}));

    let error = refused(
        Api::Anthropic,
        &base_url,
        endpoint.body(&conversation, tools.as_json()),
    )
    .await;

    assert_eq!(
        error,
        format!(
            "{base_url}/v1/messages answered 400 Bad Request: block 3 must be the `tool_result` \
             of `toolu_01XvVgfFpqTmU9uJ1h7KzPDe`, with `is_error: true`; got \
             {{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_01XvVgfFpqTmU9uJ1h7KzPDe\",\
             \"content\":\"{REFUSED}\"}}"
        )
    );
}

#[tokio::test]
async fn a_path_the_server_does_not_have_is_a_clear_error() {
    // Chat Completions at the server's root instead of under `/v1`.
    let base_url = scripted::serve(Api::OpenAi).await.expect("a loopback port");
    let root = base_url.trim_end_matches("/v1");
    let error = refused(Api::OpenAi, root, json!({})).await;
    assert_eq!(
        error,
        format!("{root}/chat/completions answered 404 Not Found: (an empty body)")
    );

    // Gemini's method is part of the path's last segment.
    let base_url = scripted::serve(Api::Gemini).await.expect("a loopback port");
    let endpoint = Endpoint::local(Api::Gemini, base_url.as_str()).whole();
    let url = endpoint.url().replace(":generateContent", ":countTokens");
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a client")
        .post(&url)
        .json(&json!({}))
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(
        body,
        json!({"error": {"code": 404, "status": "NOT_FOUND", "message":
            "the scripted model has no method `gemini-2.5-flash:countTokens`; \
             it answers `{model}:generateContent` and `{model}:streamGenerateContent`"}})
    );
}

/// A server on loopback whose Chat Completions route always gives `status`
/// and `body`; its base URL.
async fn fixed_server(status: StatusCode, body: &'static str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    let router = Router::new().route(
        "/v1/chat/completions",
        post(move || async move { (status, body) }),
    );
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}/v1")
}

#[tokio::test]
async fn bad_responses_end_the_loop_with_what_the_server_said() {
    let cases = [
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "upstream overloaded, try again later",
            "answered 503 Service Unavailable: upstream overloaded, try again later",
        ),
        (
            StatusCode::UNAUTHORIZED,
            r#"{"error": {"message": "Incorrect API key provided: sk-no.", "type": "invalid_request_error"}}"#,
            "answered 401 Unauthorized: Incorrect API key provided: sk-no.",
        ),
        (
            StatusCode::OK,
            "<html>a captive portal</html>",
            "answered with a body that is not JSON: expected value at line 1 column 1",
        ),
    ];
    for (status, body, said) in cases {
        let base_url = fixed_server(status, body).await;
        let error = run(
            &Endpoint::local(Api::OpenAi, base_url.as_str()).whole(),
            QUESTION,
        )
        .await
        .expect_err("a bad response");
        assert_eq!(
            error.to_string(),
            format!("{base_url}/chat/completions {said}"),
            "{status}"
        );
    }

    // An error body with a success status is not an answer without calls.
    let base_url = fixed_server(
        StatusCode::OK,
        r#"{"error": {"message": "The server had an error", "type": "server_error"}}"#,
    )
    .await;
    let error = run(
        &Endpoint::local(Api::OpenAi, base_url.as_str()).whole(),
        QUESTION,
    )
    .await
    .expect_err("an error body");
    assert!(matches!(error, Error::Response(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "cannot read the tool calls of this OpenAI Chat Completions response: the provider \
         answered with an error: {\"message\":\"The server had an error\",\"type\":\"server_error\"}"
    );
}

#[tokio::test]
async fn a_closed_port_is_a_clear_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("an address");
    drop(listener);
    let base_url = format!("http://{address}/v1");

    let error = run(
        &Endpoint::local(Api::OpenAi, base_url.as_str()).whole(),
        QUESTION,
    )
    .await
    .expect_err("nothing listens");

    // The rest is the operating system's words for a refused connection.
    let message = error.to_string();
    let expected = format!(
        "no answer from {base_url}/chat/completions: error sending request: client error \
         (Connect): tcp connect error: "
    );
    assert!(message.starts_with(&expected), "{message}");
}

#[tokio::test]
async fn a_model_that_never_stops_calling_tools_is_stopped() {
    const CALLS: &str = r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "get_weather", "arguments": "{}"}}]}}]}"#;
    let base_url = fixed_server(StatusCode::OK, CALLS).await;

    let error = run(
        &Endpoint::local(Api::OpenAi, base_url.as_str()).whole(),
        QUESTION,
    )
    .await
    .expect_err("too many requests");

    assert_eq!(
        error.to_string(),
        "the model was still calling tools after 10 requests; stopped there"
    );
}

/// The `agent` example's binary, which `cargo test` builds beside the test
/// binaries.
fn agent_example() -> Option<std::path::PathBuf> {
    let deps = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let example = deps.parent()?.join("examples").join("agent");
    example.exists().then_some(example)
}

#[test]
fn cargo_run_example_agent_works_with_no_key() {
    let Some(example) = agent_example() else {
        panic!("the `agent` example was not built beside this test");
    };
    let openai_arguments = r#"{"city":"Paris","units":null}"#;
    let arguments = r#"{"city":"Paris"}"#;
    for (name, key, weather) in [
        ("openai", "OPENAI_API_KEY", openai_arguments),
        ("anthropic", "ANTHROPIC_API_KEY", arguments),
        ("gemini", "GEMINI_API_KEY", arguments),
    ] {
        let mut command = std::process::Command::new(&example);
        command.args(["--provider", name, "--no-stream"]);
        for api in ["OPENAI", "ANTHROPIC", "GEMINI"] {
            for var in ["API_KEY", "BASE_URL", "MODEL"] {
                command.env_remove(format!("{api}_{var}"));
            }
        }
        let output = command.output().expect("the example runs");

        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        // The first two lines name the loopback port, which changes.
        let (head, rest) = stdout.split_at(stdout.find("\nuser").expect("the question") + 1);
        assert!(
            head.starts_with(&format!(
                "{key} is not set: talking to a scripted model at http://127.0.0.1:"
            )),
            "{head}"
        );
        assert!(head.contains("\nPOST http://127.0.0.1:"), "{head}");
        assert_eq!(
            rest,
            format!(
                "user   {QUESTION}\n\
                 call   get_weather({weather})\n  \
                 -> [ok] {WEATHER}\n\
                 call   convert_currency({{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
                 -> [ok] {CONVERTED}\n\
                 call   convert_currency({{\"amount\":5000,\"from\":\"EUR\",\"to\":\"USD\"}})\n  \
                 -> [error] {REFUSED}\n\
                 answer (2 requests): {ANSWER}\n"
            ),
            "{name}"
        );
    }

    let output = std::process::Command::new(&example)
        .args(["--provider", "mistral"])
        .output()
        .expect("the example runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "unknown provider `mistral`; expected one of: openai, anthropic, gemini, vllm, ollama, \
         openai-compatible\n"
    );
}
