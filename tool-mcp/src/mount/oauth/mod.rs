//! OAuth 2.1 for a mounted server behind an authorization server, as MCP's
//! authorization specification asks, on rmcp's own auth client: the
//! server's 401 points to its protected resource metadata (RFC 9728),
//! that to its authorization server's metadata (RFC 8414 or OpenID
//! discovery), and the mount authorizes with PKCE (S256), the `resource`
//! parameter (RFC 8707) and the authorization response's `iss` checked
//! (RFC 9207); tokens are refreshed when they expire, and a 403
//! `insufficient_scope` asks for the scope named, a bounded number of
//! times.
//!
//! What the application gives: who the client is ([`OAuth::client_metadata_url`],
//! [`OAuth::client`], else dynamic registration), where tokens are kept
//! ([`TokenStore`], keyed by issuer), and the step in the person's browser
//! ([`Browser`]).

mod browser;
mod flow;
mod http;
mod store;

use std::sync::Arc;

pub use browser::{Browser, CliBrowser, HeadlessBrowser, Redirect};
pub(crate) use flow::Authorizer;
pub(crate) use http::OAuthHttp;
pub use store::{MemoryTokenStore, TokenStore, Tokens};

/// The default number of scope step-ups one request may make: a server
/// that still answers `insufficient_scope` after two authorizations for
/// what it asked will not be satisfied by a third.
pub const DEFAULT_MAX_STEP_UPS: u32 = 2;

/// How a mount authorizes with a server behind OAuth
/// ([`Mount::oauth`](super::Mount::oauth)).
///
/// The client's identity is, in this order: a pre-registered client
/// ([`OAuth::client`]); a Client ID Metadata Document the application
/// hosts ([`OAuth::client_metadata_url`]), when the authorization server
/// supports them; else the client registers itself dynamically
/// (RFC 7591), named by [`OAuth::client_name`].
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use tool_core::ToolRegistry;
/// use tool_core::toolset::RegistryHandle;
/// use tool_mcp::mount::{CliBrowser, Mount, OAuth};
///
/// let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
/// let oauth = OAuth::new(CliBrowser::on_port(8976))
///     .client_metadata_url("https://app.example.com/oauth/client.json")
///     .client_name("My agent");
/// let linear = Mount::http("linear", "https://mcp.linear.app/mcp")
///     .oauth(oauth)
///     // Time for the person to authorize in their browser.
///     .connect_timeout(std::time::Duration::from_secs(300))
///     .mount(&handle)
///     .await?;
/// println!("mounted {:?}", linear.tools());
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct OAuth {
    pub(crate) browser: Arc<dyn Browser>,
    pub(crate) store: Arc<dyn TokenStore>,
    pub(crate) client_name: String,
    pub(crate) client_metadata_url: Option<String>,
    pub(crate) client: Option<(String, Option<String>)>,
    pub(crate) scopes: Vec<String>,
    pub(crate) max_step_ups: u32,
}

impl OAuth {
    /// Authorizes through `browser`, with tokens kept in memory
    /// ([`MemoryTokenStore`]), the client registered dynamically unless
    /// told otherwise, and the scopes the server asks for.
    pub fn new(browser: impl Browser) -> Self {
        Self {
            browser: Arc::new(browser),
            store: Arc::new(MemoryTokenStore::new()),
            client_name: env!("CARGO_PKG_NAME").to_owned(),
            client_metadata_url: None,
            client: None,
            scopes: Vec::new(),
            max_step_ups: DEFAULT_MAX_STEP_UPS,
        }
    }

    /// The client is the one whose metadata document is at `url` (an
    /// `https` URL with a path, which the application hosts): used as the
    /// client id where the authorization server supports Client ID
    /// Metadata Documents, before registering dynamically.
    #[must_use]
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// The client registered with the authorization server beforehand: its
    /// id, and its secret for a confidential client (sent as the server's
    /// metadata asks, HTTP Basic or in the body; no secret for a public
    /// client). It comes before any other identity.
    #[must_use]
    pub fn client(mut self, id: impl Into<String>, secret: Option<String>) -> Self {
        self.client = Some((id.into(), secret));
        self
    }

    /// The name the client registers with dynamically (the crate's name).
    #[must_use]
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// The scopes to ask for at first. Without them, the scopes the
    /// server's 401 names, else those its protected resource metadata
    /// supports, else none (the authorization server's default).
    #[must_use]
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Where tokens are kept, keyed by the authorization server's issuer
    /// (in memory by default): a store that persists spares the person a
    /// new authorization at each start.
    #[must_use]
    pub fn store(mut self, store: impl TokenStore) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// How many times one request may ask for more scope after a 403
    /// `insufficient_scope` ([`DEFAULT_MAX_STEP_UPS`]); past it, the
    /// request fails with the server's refusal.
    #[must_use]
    pub fn max_step_ups(mut self, limit: u32) -> Self {
        self.max_step_ups = limit;
        self
    }
}

/// The secret and the tokens left out: a mount's `Debug` goes to logs.
impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("redirect_uri", &self.browser.redirect_uri())
            .field("client_name", &self.client_name)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client", &self.client.as_ref().map(|(id, _)| id))
            .field("scopes", &self.scopes)
            .field("max_step_ups", &self.max_step_ups)
            .finish_non_exhaustive()
    }
}

/// What failed in authorizing with a server behind OAuth
/// ([`MountError::Authorization`](super::MountError::Authorization)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OAuthFailure {
    /// Its protected resource metadata or its authorization server's
    /// metadata could not be found or read.
    #[error("discovering its authorization server failed: {0}")]
    Discovery(String),
    /// The client could not be registered, dynamically or by its
    /// metadata document.
    #[error("registering the client failed: {0}")]
    Registration(String),
    /// The step in the browser failed or was refused.
    #[error("the browser step failed: {0}")]
    Browser(String),
    /// The authorization response came from another authorization server
    /// than the one discovered (RFC 9207's `iss`), or lacked the `iss`
    /// that server promised: a mix-up attack, or a misconfigured server.
    #[error("the authorization response names the issuer {received}, not {expected}")]
    IssuerMismatch {
        /// The discovered authorization server's issuer.
        expected: String,
        /// The issuer the response named (`none` when it named none).
        received: String,
    },
    /// The authorization code could not be exchanged for a token.
    #[error("getting a token failed: {0}")]
    Token(String),
    /// The server still refused for want of scope after the step-ups
    /// allowed ([`OAuth::max_step_ups`]).
    #[error("it still asks for more scope ({scope}) after {step_ups} step-ups")]
    Scope {
        /// The scope the server last asked for.
        scope: String,
        /// How many step-ups were made.
        step_ups: u32,
    },
    /// The token store failed.
    #[error("the token store failed: {0}")]
    Store(String),
}
