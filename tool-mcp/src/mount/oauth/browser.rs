//! The step in the person's browser: the authorization server's page is
//! opened at the authorization URL, and its redirect back brings the code
//! and the state. The application gives it ([`Browser`]); two are here:
//! one for a command line ([`CliBrowser`]) and one with no person at all
//! ([`HeadlessBrowser`]), for tests and authorization servers that
//! redirect at once.

use async_trait::async_trait;
use reqwest::Url;
use rmcp::transport::auth::AuthorizationCallback;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// What the authorization server's redirect brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The authorization code.
    pub code: String,
    /// The state, as the authorization URL gave it.
    pub state: String,
    /// The authorization server's issuer, where it names itself
    /// (RFC 9207's `iss`).
    pub issuer: Option<String>,
}

impl Redirect {
    /// Reads the redirect's URL: `code`, `state` and `iss`; an `error`
    /// (the person or the server refused) is the error, with its
    /// description.
    pub fn from_url(url: &str) -> Result<Self, String> {
        let parsed =
            Url::parse(url).map_err(|error| format!("the redirect `{url}` is no URL: {error}"))?;
        let field = |name: &str| {
            parsed
                .query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        if let Some(error) = field("error") {
            return Err(match field("error_description") {
                Some(description) => {
                    format!("the authorization server refused: {error} ({description})")
                }
                None => format!("the authorization server refused: {error}"),
            });
        }
        let callback = AuthorizationCallback::from_redirect_url(url)
            .map_err(|error| format!("the redirect `{url}` is incomplete: {error}"))?;
        Ok(Self {
            code: callback.code,
            state: callback.csrf_token,
            issuer: callback.issuer,
        })
    }
}

/// The step in the person's browser, which the application implements:
/// open the authorization URL (or show it), and give back what the
/// redirect to [`Browser::redirect_uri`] brought.
#[async_trait]
pub trait Browser: Send + Sync + 'static {
    /// Where the authorization server sends the browser back: registered
    /// with the client, so the same at every authorization.
    fn redirect_uri(&self) -> String;

    /// Has the person authorize at `url`, and gives back the redirect's
    /// code and state; an error says why not, and fails the
    /// authorization.
    async fn authorize(&self, url: &str) -> Result<Redirect, String>;
}

/// For a command line: prints the authorization URL on stderr, for the
/// person to open, and reads the redirect on a loopback listener at
/// `http://127.0.0.1:<port>/callback` (bound for each authorization only).
#[derive(Debug, Clone)]
pub struct CliBrowser {
    port: u16,
}

impl CliBrowser {
    /// Reads the redirect on loopback port `port`, which the client's
    /// registration (or metadata document) names in its redirect URI.
    pub fn on_port(port: u16) -> Self {
        Self { port }
    }
}

/// The page the browser shows once the redirect is read.
const DONE: &str = "Authorized: you can close this window.";

#[async_trait]
impl Browser for CliBrowser {
    fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    async fn authorize(&self, url: &str) -> Result<Redirect, String> {
        let listener = TcpListener::bind(("127.0.0.1", self.port))
            .await
            .map_err(|error| format!("cannot listen on 127.0.0.1:{}: {error}", self.port))?;
        eprintln!("Open this address in a browser to authorize:\n{url}");
        loop {
            let (stream, _) = listener
                .accept()
                .await
                .map_err(|error| format!("cannot read the redirect: {error}"))?;
            let mut stream = BufReader::new(stream);
            let mut line = String::new();
            // A request line is short; a longer one is not the redirect.
            let read = (&mut stream).take(8 * 1024).read_line(&mut line).await;
            let target = match read {
                Ok(_) => line.split_whitespace().nth(1).unwrap_or("").to_owned(),
                Err(_) => continue,
            };
            let Some(query) = target.strip_prefix("/callback") else {
                let _ = stream
                    .get_mut()
                    .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                    .await;
                continue;
            };
            let redirect = Redirect::from_url(&format!("{}{query}", self.redirect_uri()));
            let body = match &redirect {
                Ok(_) => DONE.to_owned(),
                Err(error) => error.clone(),
            };
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.get_mut().write_all(answer.as_bytes()).await;
            return redirect;
        }
    }
}

/// With no person: GETs the authorization URL without following its
/// redirect, and reads the code and state from the `Location` header, for
/// an authorization server that redirects at once (a test's).
#[derive(Debug, Clone)]
pub struct HeadlessBrowser {
    redirect_uri: String,
}

impl HeadlessBrowser {
    /// Expects the redirect to `redirect_uri`.
    pub fn new(redirect_uri: impl Into<String>) -> Self {
        Self {
            redirect_uri: redirect_uri.into(),
        }
    }
}

#[async_trait]
impl Browser for HeadlessBrowser {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    async fn authorize(&self, url: &str) -> Result<Redirect, String> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| format!("no HTTP client: {error}"))?;
        let response = client
            .get(url)
            .send()
            .await
            .map_err(|error| format!("the authorization URL could not be fetched: {error}"))?;
        let status = response.status();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .ok_or_else(|| format!("the authorization server answered {status}, not a redirect"))?;
        let location = response
            .url()
            .join(location)
            .map_err(|error| format!("the redirect `{location}` is no URL: {error}"))?;
        if !location.as_str().starts_with(&self.redirect_uri) {
            return Err(format!(
                "the authorization server redirected to {location}, not to {}",
                self.redirect_uri
            ));
        }
        Redirect::from_url(location.as_str())
    }
}
