//! Raw HTTP exchanges with a server, for tests that read statuses, headers
//! and bodies exactly: `initialize` by hand, requests in a session, the
//! protected resource metadata.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use reqwest::header::HeaderMap;

/// One answer: its status, headers, and body (an event stream's events up
/// to the one answering the request).
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: String,
}

impl Reply {
    /// The value of header `name`, if any.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The JSON of the event answering the request, in an event stream.
    pub(crate) fn answer(&self) -> serde_json::Value {
        let data = self
            .body
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .find(|data| data.contains("\"jsonrpc\""))
            .unwrap_or_else(|| panic!("no answer in {:?}", self.body));
        serde_json::from_str(data).expect("JSON")
    }
}

/// A client of the server at `address`, its `/mcp` and other paths.
pub(crate) struct Raw {
    client: reqwest::Client,
    base: String,
}

impl Raw {
    pub(crate) fn new(address: SocketAddr) -> Self {
        Self {
            client: reqwest::Client::new(),
            base: format!("http://{address}"),
        }
    }

    /// `GET path`.
    pub(crate) async fn get(&self, path: &str) -> Reply {
        read(self.client.get(format!("{}{path}", self.base))).await
    }

    /// A JSON-RPC `body` posted to `/mcp` with `headers`, as MCP clients
    /// post it.
    pub(crate) async fn post(&self, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut request = self
            .client
            .post(format!("{}/mcp", self.base))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_owned());
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        read(request).await
    }

    /// `initialize` (protocol 2025-06-18) with `headers`.
    pub(crate) async fn initialize(&self, headers: &[(&str, &str)]) -> Reply {
        self.post(headers, INITIALIZE).await
    }

    /// A session opened by `initialize` and `notifications/initialized`,
    /// with `headers` on both: its id.
    pub(crate) async fn open_session(&self, headers: &[(&str, &str)]) -> String {
        let opened = self.initialize(headers).await;
        assert_eq!(opened.status, 200, "{opened:?}");
        let id = opened
            .header("mcp-session-id")
            .expect("a session id")
            .to_owned();
        let mut with_id = headers.to_vec();
        with_id.push(("mcp-session-id", &id));
        with_id.push(("mcp-protocol-version", "2025-06-18"));
        let initialized = self
            .post(
                &with_id,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            )
            .await;
        assert_eq!(initialized.status, 202, "{initialized:?}");
        id
    }

    /// A request `body` in session `id`.
    pub(crate) async fn in_session(&self, id: &str, body: &str) -> Reply {
        let headers = [
            ("mcp-session-id", id),
            ("mcp-protocol-version", "2025-06-18"),
        ];
        self.post(&headers, body).await
    }

    /// `ping` in session `id`: its status.
    pub(crate) async fn ping(&self, id: &str) -> u16 {
        self.in_session(id, r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#)
            .await
            .status
    }
}

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// Sends `request` and reads the answer; an event stream only up to the
/// event answering the request, as the stream may stay open.
async fn read(request: reqwest::RequestBuilder) -> Reply {
    let reading = async {
        let mut response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.expect("a readable body") {
            body.extend_from_slice(&chunk);
            let text = String::from_utf8_lossy(&body);
            let answered = text.lines().any(|line| {
                line.starts_with("data: ")
                    && line.contains("\"jsonrpc\"")
                    && line.contains("\"id\"")
            });
            if answered && text.ends_with("\n\n") {
                break;
            }
        }
        Reply {
            status,
            headers,
            body: String::from_utf8(body).expect("a UTF-8 body"),
        }
    };
    tokio::time::timeout(Duration::from_secs(20), reading)
        .await
        .expect("answered in time")
}
