//! The client side of a session: one HTTP connection posting JSON-RPC,
//! and the check of each answer. Plain reqwest, no typed model (see
//! README.md, "The client").

use reqwest::header::{CONTENT_TYPE, HeaderMap};
use serde_json::Value;

use crate::{PROTOCOL_VERSION, TOOL};

/// One client session over its own HTTP connection.
pub(crate) struct Session {
    http: reqwest::Client,
    url: String,
    id: String,
}

/// The answer to the request with id `id`, from a JSON body or from the
/// events of an SSE body (skipping events without data, as a priming
/// event, and any message that is not that answer).
pub(crate) fn answer(headers: &HeaderMap, body: &str, id: u64) -> Result<Value, String> {
    let is_sse = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"));
    let matches = |message: &Value| {
        message.get("id").and_then(Value::as_u64) == Some(id)
            && (message.get("result").is_some() || message.get("error").is_some())
    };
    if !is_sse {
        let message: Value = serde_json::from_str(body).map_err(|e| format!("{e}: {body}"))?;
        return if matches(&message) {
            Ok(message)
        } else {
            Err(format!("not the answer to {id}: {body}"))
        };
    }
    let body = body.replace("\r\n", "\n");
    for event in body.split("\n\n") {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(|data| data.strip_prefix(' ').unwrap_or(data))
            .collect();
        if data.iter().all(|line| line.is_empty()) {
            continue;
        }
        let message: Value =
            serde_json::from_str(&data.join("\n")).map_err(|e| format!("{e}: {event}"))?;
        if matches(&message) {
            return Ok(message);
        }
    }
    Err(format!("no answer to {id} in: {body}"))
}

/// How a request is sent.
#[derive(Clone, Copy)]
pub(crate) enum Via<'a> {
    /// The `initialize` that opens a session: no session, no protocol
    /// header.
    Opening,
    /// Within a session.
    Session(&'a str),
    /// On its own, without a session (a stateless server), with the
    /// protocol header.
    Stateless,
}

/// POSTs `body` to `url`; the status, headers and body text.
pub(crate) async fn post(
    http: &reqwest::Client,
    url: &str,
    via: Via<'_>,
    body: String,
) -> Result<(u16, HeaderMap, String), String> {
    let mut request = http
        .post(url)
        .header(CONTENT_TYPE, "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body);
    if let Via::Session(session) = via {
        request = request.header("mcp-session-id", session);
    }
    if !matches!(via, Via::Opening) {
        request = request.header("mcp-protocol-version", PROTOCOL_VERSION);
    }
    let response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.map_err(|e| e.to_string())?;
    Ok((status, headers, text))
}

/// The HTTP client of one client: one kept-alive connection per server it
/// posts to (a session has one request in flight at a time).
pub(crate) fn http() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(1)
        .build()
        .map_err(|e| e.to_string())
}

/// A request's answer's `result`, posted to `url`.
pub(crate) async fn request(
    http: &reqwest::Client,
    url: &str,
    via: Via<'_>,
    id: u64,
    method: &str,
    params: Value,
) -> Result<Value, String> {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let (status, headers, body) = post(http, url, via, body.to_string()).await?;
    if status != 200 {
        return Err(format!("{method}: HTTP {status}: {body}"));
    }
    let mut message = answer(&headers, &body, id)?;
    match message.get_mut("result") {
        Some(result) => Ok(result.take()),
        None => Err(format!("{method}: {body}")),
    }
}

/// The `initialize` request, protocol `PROTOCOL_VERSION`.
pub(crate) fn initialize() -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "mcp-load", "version": "0.0.0"},
        },
    })
    .to_string()
}

/// The number of tools in `tools/list`'s `result`, which must be one page.
pub(crate) fn count_tools(result: &Value) -> Result<usize, String> {
    match result["tools"].as_array() {
        Some(tools) if result.get("nextCursor").is_none_or(Value::is_null) => Ok(tools.len()),
        _ => Err(format!("tools/list: not one page of tools: {result}")),
    }
}

/// The `tools/call` params of call `k` of `tool` (`add_note`, or a tool
/// with its arguments and text): its own title, so that an answer given
/// to the wrong request is caught.
pub(crate) fn note_call(tool: &str, k: u64) -> Value {
    serde_json::json!({
        "name": tool,
        "arguments": {"title": format!("Groceries {k}"), "body": "milk, eggs", "priority": 2},
    })
}

/// Checks the `result` of call `k` (made with [`note_call`]): no
/// `isError`, no `structuredContent`, exactly one text block, the text for
/// that call's own title.
pub(crate) fn check_note(k: u64, result: &Value) -> Result<(), String> {
    let expected = format!("added note `Groceries {k}` (priority 2): milk, eggs");
    let content = result["content"].as_array();
    let ok = result.get("isError") != Some(&Value::Bool(true))
        && result.get("structuredContent").is_none()
        && content.is_some_and(|content| {
            content.len() == 1
                && content[0]["type"] == "text"
                && content[0]["text"].as_str() == Some(expected.as_str())
        });
    if ok {
        Ok(())
    } else {
        Err(format!("call {k}: expected {expected:?}, got {result}"))
    }
}

impl Session {
    /// Opens a session: `initialize`, then `notifications/initialized`.
    pub(crate) async fn open(url: &str) -> Result<Session, String> {
        let http = http()?;
        let (status, headers, body) = post(&http, url, Via::Opening, initialize()).await?;
        if status != 200 {
            return Err(format!("initialize: HTTP {status}: {body}"));
        }
        let result = answer(&headers, &body, 0)?;
        let version = result["result"]["protocolVersion"].as_str();
        if version != Some(PROTOCOL_VERSION) {
            return Err(format!("initialize: protocol {version:?}: {body}"));
        }
        let id = headers
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .ok_or_else(|| format!("initialize: no Mcp-Session-Id: {body}"))?
            .to_owned();
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let (status, _, body) = post(&http, url, Via::Session(&id), initialized.into()).await?;
        if status != 202 {
            return Err(format!("notifications/initialized: HTTP {status}: {body}"));
        }
        Ok(Session {
            http,
            url: url.to_owned(),
            id,
        })
    }

    /// The number of tools `tools/list` gives.
    pub(crate) async fn count_tools(&self) -> Result<usize, String> {
        let via = Via::Session(&self.id);
        let params = serde_json::json!({});
        let result = request(&self.http, &self.url, via, 1, "tools/list", params).await?;
        count_tools(&result)
    }

    /// Checks the resources and prompts tool-mcp-server serves beside its
    /// tools (`src/served.rs`): listed, and one of each read.
    pub(crate) async fn check_served(&self) -> Result<(), String> {
        let via = || Via::Session(&self.id);
        let empty = serde_json::json!({});
        let listed = |result: &Value, field: &str, key: &str| -> Vec<String> {
            result[field]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|item| item[key].as_str().map(str::to_owned))
                .collect()
        };
        let result = request(
            &self.http,
            &self.url,
            via(),
            1,
            "resources/list",
            empty.clone(),
        )
        .await?;
        let resources = listed(&result, "resources", "uri");
        let result = request(
            &self.http,
            &self.url,
            via(),
            2,
            "resources/templates/list",
            empty.clone(),
        )
        .await?;
        let templates = listed(&result, "resourceTemplates", "uriTemplate");
        let result = request(&self.http, &self.url, via(), 3, "prompts/list", empty).await?;
        let prompts = listed(&result, "prompts", "name");
        if resources != ["notes://index"]
            || templates != ["notes://note/{title}"]
            || prompts != ["summarize_notebook", "draft_note"]
        {
            return Err(format!(
                "served: resources {resources:?}, templates {templates:?}, prompts {prompts:?}"
            ));
        }
        let params = serde_json::json!({"uri": "notes://note/Groceries"});
        let result = request(&self.http, &self.url, via(), 4, "resources/read", params).await?;
        if result["contents"][0]["text"] != "Groceries: milk, eggs" {
            return Err(format!("resources/read: {result}"));
        }
        let params = serde_json::json!({"name": "draft_note", "arguments": {"topic": "eggs"}});
        let result = request(&self.http, &self.url, via(), 5, "prompts/get", params).await?;
        if result["messages"][0]["content"]["text"] != "Draft a note about eggs." {
            return Err(format!("prompts/get: {result}"));
        }
        Ok(())
    }

    /// Call `k` of `add_note`, its answer checked.
    pub(crate) async fn call(&self, k: u64) -> Result<(), String> {
        let via = Via::Session(&self.id);
        let params = note_call(TOOL, k);
        let result = request(&self.http, &self.url, via, k, "tools/call", params).await?;
        check_note(k, &result)
    }

    /// Ends the session (`DELETE`), so the server's state stays small.
    pub(crate) async fn close(&self) {
        let _ = self
            .http
            .delete(&self.url)
            .header("mcp-session-id", &self.id)
            .header("mcp-protocol-version", PROTOCOL_VERSION)
            .send()
            .await;
    }
}
