//! Where a mount's tokens are kept: an application's [`TokenStore`],
//! keyed by the authorization server's issuer, seen by rmcp as the one
//! credential slot of the issuer discovered ([`KeyedStore`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use oauth2::TokenResponse;
use rmcp::transport::auth::{AuthError, CredentialStore, StoredCredentials};
use serde::{Deserialize, Serialize};

/// The tokens an authorization server issued a client: the access token,
/// the refresh token if any, the scopes granted and the client's id.
/// Serializable, for a store that persists them (they are secrets: keep
/// them as a password is kept).
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Tokens(pub(crate) StoredCredentials);

impl Tokens {
    /// The id of the client the tokens were issued to.
    pub fn client_id(&self) -> &str {
        &self.0.client_id
    }

    /// The access token, if one was issued.
    pub fn access_token(&self) -> Option<&str> {
        let response = self.0.token_response.as_ref()?;
        Some(response.access_token().secret())
    }

    /// The refresh token, if one was issued.
    pub fn refresh_token(&self) -> Option<&str> {
        let response = self.0.token_response.as_ref()?;
        Some(response.refresh_token()?.secret())
    }

    /// The scopes granted.
    pub fn scopes(&self) -> &[String] {
        &self.0.granted_scopes
    }

    /// The issuer of the authorization server that issued them.
    pub fn issuer(&self) -> Option<&str> {
        self.0.issuer.as_deref()
    }
}

/// The tokens left out: they go to logs.
impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("client_id", &self.0.client_id)
            .field("scopes", &self.0.granted_scopes)
            .field("issuer", &self.0.issuer)
            .finish_non_exhaustive()
    }
}

/// Where a mount keeps its tokens, keyed by the issuer of the
/// authorization server that issued them: one server's authorization
/// serves every mount of a server behind it, and a server that moves to
/// another authorization server is authorized anew. An error is the
/// store's own failure (it fails the authorization, naming the store);
/// a missing entry is `Ok(None)`.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use tool_mcp::mount::{TokenStore, Tokens};
///
/// /// Tokens as JSON, as a file or a keychain would keep them.
/// #[derive(Default)]
/// struct Json(Mutex<HashMap<String, String>>);
///
/// #[tool_mcp::mount::async_trait]
/// impl TokenStore for Json {
///     async fn load(&self, issuer: &str) -> Result<Option<Tokens>, String> {
///         let kept = self.0.lock().map_err(|error| error.to_string())?;
///         kept.get(issuer)
///             .map(|json| serde_json::from_str(json).map_err(|error| error.to_string()))
///             .transpose()
///     }
///
///     async fn save(&self, issuer: &str, tokens: Tokens) -> Result<(), String> {
///         let json = serde_json::to_string(&tokens).map_err(|error| error.to_string())?;
///         let mut kept = self.0.lock().map_err(|error| error.to_string())?;
///         kept.insert(issuer.to_owned(), json);
///         Ok(())
///     }
///
///     async fn clear(&self, issuer: &str) -> Result<(), String> {
///         let mut kept = self.0.lock().map_err(|error| error.to_string())?;
///         kept.remove(issuer);
///         Ok(())
///     }
/// }
/// ```
#[async_trait]
pub trait TokenStore: Send + Sync + 'static {
    /// The tokens kept for `issuer`.
    async fn load(&self, issuer: &str) -> Result<Option<Tokens>, String>;

    /// Keeps `tokens` for `issuer`, in place of any kept before.
    async fn save(&self, issuer: &str, tokens: Tokens) -> Result<(), String>;

    /// Forgets the tokens kept for `issuer`.
    async fn clear(&self, issuer: &str) -> Result<(), String>;
}

/// Tokens kept in memory, for as long as the store (and its clones, which
/// share it) lives: the default.
#[derive(Debug, Clone, Default)]
pub struct MemoryTokenStore {
    kept: Arc<Mutex<HashMap<String, Tokens>>>,
}

impl MemoryTokenStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// The issuers tokens are kept for, sorted.
    pub fn issuers(&self) -> Vec<String> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let mut issuers: Vec<String> = kept.keys().cloned().collect();
        issuers.sort();
        issuers
    }
}

#[async_trait]
impl TokenStore for MemoryTokenStore {
    async fn load(&self, issuer: &str) -> Result<Option<Tokens>, String> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(kept.get(issuer).cloned())
    }

    async fn save(&self, issuer: &str, tokens: Tokens) -> Result<(), String> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.insert(issuer.to_owned(), tokens);
        Ok(())
    }

    async fn clear(&self, issuer: &str) -> Result<(), String> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.remove(issuer);
        Ok(())
    }
}

/// An application's store as rmcp's single credential slot: the slot of
/// the issuer discovered, empty until discovery names it.
#[derive(Clone)]
pub(crate) struct KeyedStore {
    store: Arc<dyn TokenStore>,
    issuer: Arc<Mutex<Option<String>>>,
}

impl KeyedStore {
    pub(crate) fn new(store: Arc<dyn TokenStore>) -> Self {
        Self {
            store,
            issuer: Arc::default(),
        }
    }

    /// From now on, the slot of `issuer`.
    pub(crate) fn key(&self, issuer: String) {
        *self.issuer.lock().unwrap_or_else(PoisonError::into_inner) = Some(issuer);
    }

    fn issuer(&self) -> Option<String> {
        self.issuer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The store's own failure, which rmcp keeps apart from one that asks for
/// a new authorization.
fn failed(error: String) -> AuthError {
    AuthError::CredentialStoreError(error)
}

#[async_trait]
impl CredentialStore for KeyedStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let Some(issuer) = self.issuer() else {
            return Ok(None);
        };
        let tokens = self.store.load(&issuer).await.map_err(failed)?;
        Ok(tokens.map(|tokens| tokens.0))
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let Some(issuer) = self.issuer() else {
            return Ok(());
        };
        self.store
            .save(&issuer, Tokens(credentials))
            .await
            .map_err(failed)
    }

    async fn clear(&self) -> Result<(), AuthError> {
        let Some(issuer) = self.issuer() else {
            return Ok(());
        };
        self.store.clear(&issuer).await.map_err(failed)
    }
}
