//! Authorizing a mount's connection, on rmcp's [`AuthorizationManager`]:
//! all of it at a 401 (discovery from the challenge, the client's
//! identity, the browser step, the code exchanged), and a step-up at a 403
//! `insufficient_scope`. One at a time: requests that met the same
//! refusal wait for the one authorization, then try again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use reqwest::Url;
use rmcp::transport::AuthorizationManager;
use rmcp::transport::auth::{
    AuthError, AuthorizationRequest, AuthorizationSession, WWWAuthenticateParams,
};

use super::store::KeyedStore;
use super::{OAuth, OAuthFailure};

/// One mounted server's authorizations.
pub(crate) struct Authorizer {
    url: String,
    oauth: OAuth,
    /// The manager the connection's requests take their token from.
    manager: Arc<tokio::sync::Mutex<AuthorizationManager>>,
    /// How many authorizations have completed: a request that met a
    /// refusal before the latest one tries again rather than authorizing.
    generation: AtomicU64,
    /// One authorization at a time.
    authorizing: tokio::sync::Mutex<()>,
    /// Why the last authorization failed, for the mount's error (shared
    /// with the mount's [`Client`](super::super::connect::Client)).
    failure: Arc<Mutex<Option<OAuthFailure>>>,
}

impl Authorizer {
    /// A manager for `url` that has not discovered anything yet, its
    /// tokens in `oauth`'s store.
    pub(crate) async fn manager(
        url: &str,
        oauth: &OAuth,
    ) -> Result<(AuthorizationManager, KeyedStore), OAuthFailure> {
        let mut manager = AuthorizationManager::new(url)
            .await
            .map_err(|error| OAuthFailure::Discovery(error.to_string()))?;
        let store = KeyedStore::new(Arc::clone(&oauth.store));
        manager.set_credential_store(store.clone());
        Ok((manager, store))
    }

    pub(crate) fn new(
        url: &str,
        oauth: OAuth,
        manager: Arc<tokio::sync::Mutex<AuthorizationManager>>,
        failure: Arc<Mutex<Option<OAuthFailure>>>,
    ) -> Self {
        Self {
            url: url.to_owned(),
            oauth,
            manager,
            generation: AtomicU64::new(0),
            authorizing: tokio::sync::Mutex::new(()),
            failure,
        }
    }

    /// How many authorizations have completed.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Why the last authorization failed, if it did.
    pub(crate) fn failure(&self) -> Option<OAuthFailure> {
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn failed(&self, failure: OAuthFailure) -> AuthError {
        let error = AuthError::AuthorizationFailed(failure.to_string());
        *self.failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(failure);
        error
    }

    fn done(&self) {
        *self.failure.lock().unwrap_or_else(PoisonError::into_inner) = None;
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// Authorizes after a 401 whose `WWW-Authenticate` is `challenge`, met
    /// by a request sent at `seen` (a [`Self::generation`]); tokens the
    /// store keeps for the issuer are taken when `stored` allows.
    pub(crate) async fn authorize(
        &self,
        challenge: &str,
        seen: u64,
        stored: bool,
    ) -> Result<(), AuthError> {
        let _one = self.authorizing.lock().await;
        if self.generation() != seen {
            return Ok(());
        }
        let mut current = self.manager.lock().await;
        let authorized = self.authorized(challenge, stored).await;
        let manager = authorized.map_err(|failure| self.failed(failure))?;
        *current = manager;
        self.done();
        Ok(())
    }

    async fn authorized(
        &self,
        challenge: &str,
        stored: bool,
    ) -> Result<AuthorizationManager, OAuthFailure> {
        let (mut manager, store) = Self::manager(&self.url, &self.oauth).await?;
        let resolution = manager
            .resolve_metadata_from_challenge(Some(challenge))
            .await
            .map_err(|error| OAuthFailure::Discovery(error.to_string()))?;
        // Keyed by the issuer; metadata that names none (a server of
        // 2025-03-26, its endpoints guessed) by its authorization endpoint.
        let key = resolution
            .metadata
            .issuer
            .clone()
            .unwrap_or_else(|| resolution.metadata.authorization_endpoint.clone());
        manager.set_metadata(resolution.metadata);
        store.key(key);
        if stored {
            match manager.initialize_from_store().await {
                Ok(true) => return Ok(manager),
                Ok(false) => {}
                Err(error) => return Err(OAuthFailure::Store(error.to_string())),
            }
        }
        let oauth = &self.oauth;
        let mut request = AuthorizationRequest::new(oauth.browser.redirect_uri())
            .with_client_name(oauth.client_name.clone());
        request = if oauth.scopes.is_empty() {
            request.with_initial_scope_selection()
        } else {
            request.with_scopes(oauth.scopes.iter().map(String::as_str))
        };
        if let Some(url) = &oauth.client_metadata_url {
            request = request.with_client_metadata_url(url.clone());
        }
        if let Some((id, secret)) = &oauth.client {
            request = request.with_preregistered_client(id.clone());
            if let Some(secret) = secret {
                request = request.with_client_secret(secret.clone());
            }
        }
        let session = AuthorizationSession::new(manager, request)
            .await
            .map_err(|(_, error)| match error {
                AuthError::RegistrationFailed(reason) => OAuthFailure::Registration(reason),
                error => OAuthFailure::Discovery(error.to_string()),
            })?;
        let redirect = oauth
            .browser
            .authorize(session.get_authorization_url())
            .await
            .map_err(OAuthFailure::Browser)?;
        session
            .handle_callback_with_issuer(
                &redirect.code,
                &redirect.state,
                redirect.issuer.as_deref(),
            )
            .await
            .map_err(exchange_failure)?;
        Ok(session.auth_manager)
    }

    /// Asks for more scope after a 403 `insufficient_scope` whose
    /// `WWW-Authenticate` is `challenge`, met by a request sent at `seen`.
    pub(crate) async fn step_up(&self, challenge: &str, seen: u64) -> Result<(), AuthError> {
        let _one = self.authorizing.lock().await;
        if self.generation() != seen {
            return Ok(());
        }
        let base = Url::parse(&self.url).map_err(AuthError::from)?;
        let params = WWWAuthenticateParams::parse(challenge, &base);
        let manager = self.manager.lock().await;
        if manager.get_credentials().await.is_err() {
            // Refused for scope before any authorization: authorize whole.
            drop(manager);
            drop(_one);
            return self.authorize(challenge, seen, false).await;
        }
        let scope = params.scope.unwrap_or_default();
        let url = manager
            .request_scope_upgrade(&scope)
            .await
            .map_err(|error| self.failed(OAuthFailure::Token(error.to_string())))?;
        let redirect = self
            .oauth
            .browser
            .authorize(&url)
            .await
            .map_err(|error| self.failed(OAuthFailure::Browser(error)))?;
        manager
            .exchange_code_for_token_with_issuer(
                &redirect.code,
                &redirect.state,
                redirect.issuer.as_deref(),
            )
            .await
            .map_err(|error| self.failed(exchange_failure(error)))?;
        self.done();
        Ok(())
    }

    /// The refusal after the step-ups allowed.
    pub(crate) fn too_many_step_ups(&self, challenge: &str, step_ups: u32) -> AuthError {
        let scope = Url::parse(&self.url)
            .ok()
            .and_then(|base| WWWAuthenticateParams::parse(challenge, &base).scope)
            .unwrap_or_default();
        self.failed(OAuthFailure::Scope { scope, step_ups })
    }
}

/// What failed in exchanging the code: the issuer checked first.
fn exchange_failure(error: AuthError) -> OAuthFailure {
    match error {
        AuthError::AuthorizationServerMismatch {
            expected_issuer,
            received_issuer,
        } => OAuthFailure::IssuerMismatch {
            expected: expected_issuer,
            received: received_issuer,
        },
        AuthError::AuthorizationServerMissingIssuer { expected_issuer } => {
            OAuthFailure::IssuerMismatch {
                expected: expected_issuer,
                received: "none".to_owned(),
            }
        }
        AuthError::CredentialStoreError(reason) => OAuthFailure::Store(reason),
        error => OAuthFailure::Token(error.to_string()),
    }
}
