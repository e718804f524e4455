//! Bearer token authentication over HTTP: who the caller is decides which
//! scopes its calls run with.

use std::collections::HashMap;
use std::fmt;

use hyper::HeaderMap;
use hyper::header::AUTHORIZATION;

/// Checks a bearer token and gives the scopes it grants: the scopes of
/// every call made with it, so a tool that requires a scope
/// (`#[tool(scopes = [..])]`) runs only for a caller whose token holds it.
///
/// `None` refuses the token: the HTTP request is answered 401 before any
/// MCP processing. Implement it for tokens kept elsewhere (a database, a
/// JWT checked against a key); [`BearerTokens`] is a fixed list.
///
/// ```
/// use tool_mcp::TokenVerifier;
///
/// /// Tokens of the form `reader-<anything>` may read files.
/// struct Prefix;
///
/// impl TokenVerifier for Prefix {
///     fn verify(&self, token: &str) -> Option<Vec<String>> {
///         token.starts_with("reader-").then(|| vec!["files:read".to_owned()])
///     }
/// }
///
/// assert_eq!(Prefix.verify("reader-7"), Some(vec!["files:read".to_owned()]));
/// assert_eq!(Prefix.verify("writer-7"), None);
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// The scopes `token` grants, or `None` when it is not a valid token.
    fn verify(&self, token: &str) -> Option<Vec<String>>;
}

/// A fixed set of bearer tokens, each with the scopes it grants.
///
/// Tokens are compared in time that does not depend on where they differ,
/// so a caller cannot find a token byte by byte by timing refusals; an
/// empty token is never accepted.
///
/// ```
/// use tool_mcp::{BearerTokens, TokenVerifier};
///
/// let tokens = BearerTokens::new()
///     .with_token("reader-secret", ["files:read"])
///     .with_token("admin-secret", ["files:read", "files:write"]);
/// assert_eq!(tokens.verify("reader-secret"), Some(vec!["files:read".to_owned()]));
/// assert_eq!(tokens.verify("guess"), None);
/// assert_eq!(tokens.len(), 2);
/// ```
#[derive(Clone, Default)]
pub struct BearerTokens {
    tokens: HashMap<String, Vec<String>>,
}

impl BearerTokens {
    /// No tokens: every request is refused until one is added.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same tokens and `token`, granting `scopes` (none for a token that
    /// may only list tools and call those that require no scope). Adding a
    /// token again replaces its scopes.
    #[must_use]
    pub fn with_token<S: Into<String>>(
        mut self,
        token: impl Into<String>,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.tokens
            .insert(token.into(), scopes.into_iter().map(Into::into).collect());
        self
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}

impl TokenVerifier for BearerTokens {
    fn verify(&self, token: &str) -> Option<Vec<String>> {
        if token.is_empty() {
            return None;
        }
        // Every token is compared, and each comparison runs to the end:
        // a hash lookup would return sooner for some guesses than others.
        let mut granted = None;
        for (known, scopes) in &self.tokens {
            if constant_time_eq(known.as_bytes(), token.as_bytes()) {
                granted = Some(scopes);
            }
        }
        granted.cloned()
    }
}

/// A function is a verifier, for a check that needs no type of its own.
///
/// ```
/// use tool_core::{ToolContext, ToolRegistry};
/// use tool_mcp::{BearerTokens, McpServer, TokenVerifier};
///
/// let tokens = BearerTokens::new().with_token("reader-secret", ["files:read"]);
/// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
///     // Every valid token may also read the audit log.
///     .with_config(tool_mcp::McpConfig::new().with_bearer_auth(move |token: &str| {
///         let mut scopes = tokens.verify(token)?;
///         scopes.push("audit:read".to_owned());
///         Some(scopes)
///     }));
/// # drop(server);
/// ```
impl<F> TokenVerifier for F
where
    F: Fn(&str) -> Option<Vec<String>> + Send + Sync + 'static,
{
    fn verify(&self, token: &str) -> Option<Vec<String>> {
        self(token)
    }
}

/// Tokens are secrets: only their number is shown.
impl fmt::Debug for BearerTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearerTokens")
            .field("tokens", &self.tokens.len())
            .finish()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Why a request's credentials were refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AuthRefusal {
    /// No `Authorization: Bearer` header.
    Missing,
    /// A bearer token the verifier does not accept, or a header that is not
    /// one.
    Invalid,
}

/// The scopes the request's bearer token grants.
pub(crate) fn authenticate(
    verifier: &dyn TokenVerifier,
    headers: &HeaderMap,
) -> Result<Vec<String>, AuthRefusal> {
    let mut values = headers.get_all(AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Err(AuthRefusal::Missing);
    };
    // Two credentials are ambiguous: which one would the scopes be for?
    if values.next().is_some() {
        return Err(AuthRefusal::Invalid);
    }
    let value = value.to_str().map_err(|_| AuthRefusal::Invalid)?;
    let (scheme, token) = value.split_once(' ').ok_or(AuthRefusal::Invalid)?;
    // RFC 7235: the scheme is case-insensitive.
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(AuthRefusal::Invalid);
    }
    verifier.verify(token.trim()).ok_or(AuthRefusal::Invalid)
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;

    use super::*;

    fn headers(values: &[&[u8]]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append(
                AUTHORIZATION,
                HeaderValue::from_bytes(value).expect("a header value"),
            );
        }
        map
    }

    fn tokens() -> BearerTokens {
        BearerTokens::new().with_token("s3cret", ["files:read"])
    }

    #[test]
    fn a_known_token_grants_its_scopes() {
        let scopes = authenticate(&tokens(), &headers(&[b"Bearer s3cret"]));
        assert_eq!(scopes, Ok(vec!["files:read".to_owned()]));
        let scopes = authenticate(&tokens(), &headers(&[b"bearer s3cret"]));
        assert_eq!(scopes, Ok(vec!["files:read".to_owned()]));
    }

    #[test]
    fn anything_else_is_refused() {
        assert_eq!(
            authenticate(&tokens(), &headers(&[])),
            Err(AuthRefusal::Missing)
        );
        for bad in [
            &b"Bearer wrong"[..],
            b"Bearer s3cre",
            b"Bearer ",
            b"Basic s3cret",
            b"s3cret",
            b"Bearer \xffs3cret",
        ] {
            assert_eq!(
                authenticate(&tokens(), &headers(&[bad])),
                Err(AuthRefusal::Invalid),
                "{bad:?}"
            );
        }
        let twice = headers(&[b"Bearer s3cret", b"Bearer s3cret"]);
        assert_eq!(authenticate(&tokens(), &twice), Err(AuthRefusal::Invalid));
        assert_eq!(BearerTokens::new().with_token("", ["x"]).verify(""), None);
    }

    #[test]
    fn the_debug_form_hides_tokens() {
        assert_eq!(format!("{:?}", tokens()), "BearerTokens { tokens: 1 }");
    }
}
