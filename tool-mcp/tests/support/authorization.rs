//! An OAuth authorization server for a mount's tests, on a loopback port:
//! its metadata (RFC 8414), dynamic registration, an authorization
//! endpoint that redirects at once (as a person who always agrees would),
//! and a token endpoint that issues `first-token` for a code and
//! `refreshed-token` for the refresh token. It notes each grant it is
//! asked for. A few paths answer as a broken one would, for the browser
//! step's errors.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::net::TcpListener;

/// The authorization server, served until dropped.
pub(crate) struct AuthorizationServer {
    pub(crate) address: SocketAddr,
    grants: Arc<Mutex<Vec<String>>>,
    serving: tokio::task::JoinHandle<()>,
}

impl Drop for AuthorizationServer {
    fn drop(&mut self) {
        self.serving.abort();
    }
}

impl AuthorizationServer {
    /// Serves it; the first token lives `first_lifetime` seconds.
    pub(crate) async fn serve(first_lifetime: u64) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let address = listener.local_addr().expect("bound");
        let grants = Arc::new(Mutex::new(Vec::new()));
        let noted = Arc::clone(&grants);
        let serving = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let noted = Arc::clone(&noted);
                tokio::spawn(async move {
                    let service = service_fn(move |request| {
                        answer(request, address, first_lifetime, Arc::clone(&noted))
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Self {
            address,
            grants,
            serving,
        }
    }

    /// Its issuer.
    pub(crate) fn issuer(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The grants it was asked for, in order.
    pub(crate) fn grants(&self) -> Vec<String> {
        self.grants.lock().expect("not poisoned").clone()
    }
}

fn reply(status: u16, headers: &[(&str, String)], body: String) -> Response<Full<Bytes>> {
    let mut response = Response::builder().status(status);
    for (name, value) in headers {
        response = response.header(*name, value);
    }
    response
        .body(Full::new(Bytes::from(body)))
        .expect("a valid response")
}

fn json_reply(body: serde_json::Value) -> Response<Full<Bytes>> {
    reply(
        200,
        &[("content-type", "application/json".to_owned())],
        body.to_string(),
    )
}

/// `name`'s value in a query or a form.
fn field(pairs: &str, name: &str) -> Option<String> {
    pairs.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == name).then(|| percent_decoded(value))
    })
}

fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'%' if at + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[at + 1..at + 3]).unwrap_or("");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b'?'));
                at += 3;
            }
            b'+' => {
                out.push(b' ');
                at += 1;
            }
            byte => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

async fn answer(
    request: Request<Incoming>,
    address: SocketAddr,
    first_lifetime: u64,
    grants: Arc<Mutex<Vec<String>>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let issuer = format!("http://{address}");
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or("").to_owned();
    let body = request
        .into_body()
        .collect()
        .await
        .map(|collected| String::from_utf8_lossy(&collected.to_bytes()).into_owned())
        .unwrap_or_default();
    let redirect = field(&query, "redirect_uri").unwrap_or_default();
    let state = field(&query, "state").unwrap_or_default();
    Ok(match path.as_str() {
        "/.well-known/oauth-authorization-server" => json_reply(json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}/authorize"),
            "token_endpoint": format!("{issuer}/token"),
            "registration_endpoint": format!("{issuer}/register"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": true,
        })),
        "/register" => reply(
            201,
            &[("content-type", "application/json".to_owned())],
            json!({"client_id": "registered-client", "redirect_uris": ["http://127.0.0.1:9/callback"]})
                .to_string(),
        ),
        "/authorize" => reply(
            302,
            &[(
                "location",
                format!("{redirect}?code=the-code&state={state}&iss={issuer}"),
            )],
            String::new(),
        ),
        "/token" => {
            let grant = field(&body, "grant_type").unwrap_or_default();
            grants.lock().expect("not poisoned").push(grant.clone());
            let (token, lifetime) = match grant.as_str() {
                "refresh_token" => ("refreshed-token", 3600),
                _ => ("first-token", first_lifetime),
            };
            json_reply(json!({
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": lifetime,
                "refresh_token": "the-refresh-token",
                "scope": "mcp:tools",
            }))
        }
        // What a broken authorization server answers.
        "/plain" => reply(200, &[], "a page".to_owned()),
        "/elsewhere" => reply(
            302,
            &[("location", "http://elsewhere.example/callback?code=c&state=s".to_owned())],
            String::new(),
        ),
        "/denied" => reply(
            302,
            &[(
                "location",
                format!("{redirect}?error=access_denied&error_description=the+person+said+no"),
            )],
            String::new(),
        ),
        "/no-code" => reply(
            302,
            &[("location", format!("{redirect}?state=s"))],
            String::new(),
        ),
        _ => reply(404, &[], "Not Found".to_owned()),
    })
}
