//! What [`McpServer::serve_http`] answers before rmcp's service does: other
//! paths than [`MCP_PATH`], the protected resource metadata, a missing or
//! refused token, a call its token lacks a scope for, and a new session
//! over the limit; the requests of 2025-11-25's tasks are told apart here
//! too, before rmcp reads them (`tasks/spec2025/`).

use std::cell::Cell;
use std::convert::Infallible;
use std::fmt::Display;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body, Incoming};
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderName, HeaderValue, WWW_AUTHENTICATE};
use hyper::{Method, Request, Response, StatusCode};
use rmcp::transport::StreamableHttpService;
use serde_json::{Value, json};

use crate::http::auth::{AuthRefusal, authenticate};
use crate::http::protected_resource::Published;
use crate::http::sessions::{AT_LIMIT, HttpSessions};
use crate::server::McpServer;
use crate::tasks::spec2025::{TaskTools, handle_http};

/// The path a server answers on over HTTP: `http://127.0.0.1:8080/mcp`
/// for a listener on `127.0.0.1:8080`. Any other path is 404.
pub const MCP_PATH: &str = "/mcp";

type Answer = Response<BoxBody<Bytes, Infallible>>;

/// The header naming a request's HTTP session: a `HeaderName` already,
/// which a look-up neither parses nor lowercases.
const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

/// The code of every JSON-RPC error the front answers with: one of the
/// codes JSON-RPC leaves to the server (-32000 to -32099).
const SERVER_ERROR: i64 = -32000;

/// The challenge of a static token server to a request without a token.
/// A client with OAuth configured starts its discovery on any 401 (the
/// TypeScript SDK's `StreamableHTTPClientTransport` with an
/// `authProvider`, the Python SDK's `OAuthClientProvider`): whatever the
/// challenge says, only not finding metadata stops it. So there is no
/// `resource_metadata`, the well-known paths are 404, and the text, which
/// both SDKs show to a client without OAuth (the TypeScript SDK the body,
/// the Python SDK a JSON-RPC error body's message), says what to send.
const STATIC_MISSING: &str =
    "this server takes a static bearer token, not OAuth: send Authorization: Bearer <token>";
/// A static token server's text for a token it refuses.
const STATIC_INVALID: &str = "the bearer token is not one this server accepts";
/// A protected resource's text for a request without a token.
const OAUTH_MISSING: &str = "an access token from the authorization server is required";
/// A protected resource's text for a token its verifier refuses.
const OAUTH_INVALID: &str = "the access token is not valid";

/// The front of one HTTP server, shared by its connections.
pub(crate) struct HttpFront<Ctx> {
    pub(crate) service: StreamableHttpService<McpServer<Ctx>, HttpSessions>,
    pub(crate) server: McpServer<Ctx>,
    /// The protected resource's metadata and challenges, if any.
    pub(crate) published: Option<Published>,
    /// The largest request body read (rmcp's setting).
    pub(crate) max_body: usize,
    /// The tools a 2025-11-25 client may ask to run as tasks.
    pub(crate) task_tools: TaskTools,
}

impl<Ctx: Send + Sync + 'static> HttpFront<Ctx> {
    /// The answer to `request`.
    pub(crate) async fn answer(&self, request: Request<Incoming>) -> Answer {
        let path = request.uri().path();
        if path != MCP_PATH {
            return match &self.published {
                Some(published) if published.paths.iter().any(|known| known == path) => {
                    metadata(request.method(), published)
                }
                _ => text(StatusCode::NOT_FOUND, "Not Found"),
            };
        }
        let Some(verifier) = &self.server.config.verifier else {
            return self.forward(request).await;
        };
        let scopes = match authenticate(verifier.as_ref(), request.headers()) {
            Ok(scopes) => scopes,
            Err(refused) => return unauthorized(refused, self.published.as_ref()),
        };
        let Some(published) = &self.published else {
            return self.forward(request).await;
        };
        if request.method() != Method::POST {
            return self.forward(request).await;
        }
        // Read here to see which tool is called, then handed on whole.
        let (parts, body) = request.into_parts();
        let body = match Limited::new(body, self.max_body).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(error) if error.is::<http_body_util::LengthLimitError>() => {
                return text(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!(
                        "Payload Too Large: request body exceeds {} bytes",
                        self.max_body
                    ),
                );
            }
            Err(error) => {
                return text(
                    StatusCode::BAD_REQUEST,
                    &format!("Bad Request: the request body could not be read: {error}"),
                );
            }
        };
        if let Some(refusal) = self.insufficient_scope(&body, &scopes, published) {
            return refusal;
        }
        self.forward(Request::from_parts(parts, Full::new(body)))
            .await
    }

    /// rmcp's answer, or 503 when it refused a new session for the limit.
    async fn forward<B>(&self, request: Request<B>) -> Answer
    where
        B: Body + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>> + Display,
    {
        // Only a request outside any session may open one and meet the
        // limit: the others go without the flag.
        if request.headers().contains_key(&SESSION_ID) {
            return handle_http(&self.service, request, &self.task_tools, self.max_body).await;
        }
        AT_LIMIT
            .scope(Cell::new(false), async {
                // 2025-11-25's tasks are told apart before rmcp reads the
                // request (`tasks::spec2025`).
                let answer = handle_http(
                    &self.service,
                    request,
                    &self.task_tools,
                    self.max_body,
                )
                .await;
                if !AT_LIMIT.with(Cell::get) {
                    return answer;
                }
                let message = format!(
                    "Service Unavailable: the server is at its limit of {} open sessions, each with a request running; try again later",
                    self.server.config.max_sessions
                );
                jsonrpc_error(StatusCode::SERVICE_UNAVAILABLE, &message)
            })
            .await
    }

    /// 403 for a `tools/call` of a tool requiring scopes that `held` lacks
    /// (MCP's "Scope Challenge Handling"): the challenge's `scope` is the
    /// token's and the missing ones, so that a client asking for it keeps
    /// what it had.
    fn insufficient_scope(
        &self,
        body: &[u8],
        held: &[String],
        published: &Published,
    ) -> Option<Answer> {
        let message: Value = serde_json::from_slice(body).ok()?;
        if message["method"] != "tools/call" {
            return None;
        }
        let name = message["params"]["name"].as_str()?;
        let registry = self.server.registry();
        let tool = registry.tools().find(|tool| tool.definition.name == name)?;
        let missing: Vec<&str> = tool
            .metadata
            .scopes
            .iter()
            .map(|scope| &**scope)
            .filter(|scope| !held.iter().any(|held| held == scope))
            .collect();
        if missing.is_empty() {
            return None;
        }
        let listed = missing
            .iter()
            .map(|scope| format!("`{scope}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let noun = if missing.len() == 1 {
            "scope"
        } else {
            "scopes"
        };
        let description =
            format!("tool `{name}` requires the {noun} {listed}, which this token does not grant");
        let mut wanted: Vec<&str> = held.iter().map(String::as_str).collect();
        wanted.extend(&missing);
        let challenge = format!(
            r#"Bearer error="insufficient_scope", scope="{}", resource_metadata="{}", error_description="{description}""#,
            wanted.join(" "),
            published.metadata_url
        );
        let mut answer = jsonrpc_error(StatusCode::FORBIDDEN, &format!("Forbidden: {description}"));
        insert_challenge(&mut answer, &challenge);
        Some(answer)
    }
}

/// 401 with the challenge for `refused`: a static token server's, or a
/// protected resource's pointing to its metadata.
fn unauthorized(refused: AuthRefusal, published: Option<&Published>) -> Answer {
    let (challenge, description) = match (published, refused) {
        (None, AuthRefusal::Missing) => (
            format!(r#"Bearer error_description="{STATIC_MISSING}""#),
            STATIC_MISSING,
        ),
        (None, AuthRefusal::Invalid) => (
            format!(r#"Bearer error="invalid_token", error_description="{STATIC_INVALID}""#),
            STATIC_INVALID,
        ),
        (Some(published), refused) => {
            let mut challenge = String::from("Bearer ");
            if refused == AuthRefusal::Invalid {
                challenge.push_str(&format!(
                    r#"error="invalid_token", error_description="{OAUTH_INVALID}", "#
                ));
            }
            challenge.push_str(&format!(
                r#"resource_metadata="{}""#,
                published.metadata_url
            ));
            if let Some(scope) = &published.scope {
                challenge.push_str(&format!(r#", scope="{scope}""#));
            }
            let description = match refused {
                AuthRefusal::Missing => OAUTH_MISSING,
                AuthRefusal::Invalid => OAUTH_INVALID,
            };
            (challenge, description)
        }
    };
    let mut answer = jsonrpc_error(
        StatusCode::UNAUTHORIZED,
        &format!("Unauthorized: {description}"),
    );
    insert_challenge(&mut answer, &challenge);
    answer
}

fn insert_challenge(answer: &mut Answer, challenge: &str) {
    // Every part is ASCII without control characters: the fixed texts, a
    // checked URL, scope tokens (RFC 6749 §3.3) and a tool's name. A name
    // that is not is left out rather than sent broken.
    let value = HeaderValue::from_str(challenge)
        .unwrap_or_else(|_| HeaderValue::from_static(r#"Bearer error="insufficient_scope""#));
    answer.headers_mut().insert(WWW_AUTHENTICATE, value);
}

/// The protected resource metadata, to `GET` (or `HEAD`) only.
fn metadata(method: &Method, published: &Published) -> Answer {
    if method != Method::GET && method != Method::HEAD {
        let mut answer = text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
        answer
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return answer;
    }
    let mut answer = Response::new(Full::new(Bytes::from(published.document.clone())).boxed());
    answer
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    answer
}

/// A JSON-RPC error with no id (the request's is not read), which the MCP
/// SDKs show as the error of the request that got it.
fn jsonrpc_error(status: StatusCode, message: &str) -> Answer {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": SERVER_ERROR, "message": message},
    });
    let mut answer = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *answer.status_mut() = status;
    answer
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    answer
}

fn text(status: StatusCode, text: &str) -> Answer {
    let mut answer = Response::new(Full::new(Bytes::from(text.to_owned())).boxed());
    *answer.status_mut() = status;
    answer
}
