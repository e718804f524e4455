//! A server behind an OAuth authorization server, as the MCP authorization
//! specification asks it to say so: its protected resource metadata
//! (RFC 9728), and challenges that point to it.
//!
//! Sources:
//! - MCP, Authorization, 2025-06-18 and 2025-11-25
//!   (<https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization>):
//!   servers MUST implement RFC 9728 and MUST name at least one
//!   authorization server in it; a 401 carries `WWW-Authenticate` with
//!   `resource_metadata` (and SHOULD carry `scope`); clients that find no
//!   `resource_metadata` try `/.well-known/oauth-protected-resource` with
//!   the MCP endpoint's path appended, then without it; a call needing a
//!   scope the token lacks is answered 403 with `error="insufficient_scope"`,
//!   the `scope` needed, and `resource_metadata` ("Scope Challenge
//!   Handling").
//! - RFC 9728 §2 (the metadata's fields), §3.1 (the well-known URL: the
//!   suffix goes between the host and the resource's path), §5.1 (the
//!   `resource_metadata` challenge parameter).
//! - RFC 6750 §3 (`error`, `error_description`, `scope` in a bearer
//!   challenge), §3.1 (`invalid_token` is 401, `insufficient_scope` 403).
//! - RFC 6749 §3.3: a scope token is printable ASCII without space, `"`
//!   or `\`.

use hyper::Uri;
use serde_json::{Value, json};

use crate::error::ServeError;

/// The well-known path of protected resource metadata (RFC 9728 §3).
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// What a server behind an OAuth 2.1 authorization server publishes about
/// itself, so that an MCP client can find where to get a token: the
/// server's URL as clients reach it (the resource), the authorization
/// servers that issue its tokens, and the scopes it knows.
///
/// Give it to [`McpConfig::with_protected_resource`](crate::McpConfig::with_protected_resource) with the
/// [`TokenVerifier`](crate::TokenVerifier) that checks those tokens. It is checked when serving
/// starts ([`ServeError::InvalidProtectedResource`] otherwise): the
/// resource and the authorization servers must be absolute `http` or
/// `https` URLs, and there must be at least one authorization server.
///
/// ```
/// use tool_mcp::ProtectedResource;
///
/// let resource = ProtectedResource::new("https://tools.example.com/mcp")
///     .authorization_server("https://auth.example.com")
///     .scopes(["files:read", "files:write"]);
/// assert_eq!(
///     resource.metadata(),
///     serde_json::json!({
///         "resource": "https://tools.example.com/mcp",
///         "authorization_servers": ["https://auth.example.com"],
///         "bearer_methods_supported": ["header"],
///         "scopes_supported": ["files:read", "files:write"],
///     })
/// );
/// assert_eq!(
///     resource.metadata_url()?,
///     "https://tools.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// # Ok::<(), tool_mcp::ServeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedResource {
    resource: String,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
    name: Option<String>,
}

impl ProtectedResource {
    /// The resource at `url`: the MCP endpoint's URL exactly as clients
    /// reach it (`https://tools.example.com/mcp`), which clients compare
    /// with the URL they were given and which the authorization server
    /// names as its tokens' audience.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            resource: url.into(),
            authorization_servers: Vec::new(),
            scopes: Vec::new(),
            name: None,
        }
    }

    /// The same resource, whose tokens `url` also issues (the
    /// authorization server's issuer URL).
    #[must_use]
    pub fn authorization_server(mut self, url: impl Into<String>) -> Self {
        self.authorization_servers.push(url.into());
        self
    }

    /// The same resource with `scopes` as the scopes it knows
    /// (`scopes_supported`), which a 401 asks the client to request.
    #[must_use]
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The same resource with a name for people (`resource_name`), which a
    /// client may show when it asks the user to sign in.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The metadata document (RFC 9728 §2), as served at
    /// [`ProtectedResource::metadata_url`]: tokens are taken only in the
    /// `Authorization` header, as MCP requires.
    pub fn metadata(&self) -> Value {
        let mut metadata = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes.is_empty() {
            metadata["scopes_supported"] = json!(self.scopes);
        }
        if let Some(name) = &self.name {
            metadata["resource_name"] = json!(name);
        }
        metadata
    }

    /// Where the metadata is served, as the `resource_metadata` of every
    /// challenge: the well-known path inserted between the resource's host
    /// and its path (RFC 9728 §3.1). Checks the settings.
    pub fn metadata_url(&self) -> Result<String, ServeError> {
        let (origin, path) = self.check()?;
        Ok(format!("{origin}{WELL_KNOWN}{path}"))
    }

    /// The resource's origin and path (`""` for none), once every setting
    /// is checked.
    fn check(&self) -> Result<(String, String), ServeError> {
        let invalid = |reason: String| ServeError::InvalidProtectedResource { reason };
        let resource = absolute(&self.resource).ok_or_else(|| {
            invalid(format!(
                "the resource `{}` is not an absolute http or https URL",
                self.resource
            ))
        })?;
        if self.resource.contains('#') || resource.query().is_some() {
            return Err(invalid(format!(
                "the resource `{}` has a query or a fragment (RFC 9728 §1.2)",
                self.resource
            )));
        }
        if self.authorization_servers.is_empty() {
            return Err(invalid(format!(
                "the resource `{}` names no authorization server; MCP requires one",
                self.resource
            )));
        }
        if let Some(server) = self
            .authorization_servers
            .iter()
            .find(|server| absolute(server).is_none())
        {
            return Err(invalid(format!(
                "the authorization server `{server}` is not an absolute http or https URL"
            )));
        }
        if let Some(scope) = self.scopes.iter().find(|scope| !is_scope_token(scope)) {
            return Err(invalid(format!(
                "the scope `{scope}` is empty or has a space, `\"` or `\\` (RFC 6749 §3.3)"
            )));
        }
        let scheme = resource.scheme_str().unwrap_or_default();
        let authority = resource.authority().map_or("", |a| a.as_str());
        let path = resource.path().trim_end_matches('/').to_owned();
        Ok((format!("{scheme}://{authority}"), path))
    }

    /// What the HTTP front serves and says, computed once.
    pub(crate) fn publish(&self) -> Result<Published, ServeError> {
        let (_, path) = self.check()?;
        let metadata_url = self.metadata_url()?;
        let mut paths = vec![WELL_KNOWN.to_owned()];
        if !path.is_empty() {
            paths.push(format!("{WELL_KNOWN}{path}"));
        }
        Ok(Published {
            document: self.metadata().to_string(),
            paths,
            metadata_url,
            scope: (!self.scopes.is_empty()).then(|| self.scopes.join(" ")),
        })
    }
}

/// A resource's metadata and challenges, ready to serve.
#[derive(Debug)]
pub(crate) struct Published {
    /// The metadata document.
    pub(crate) document: String,
    /// The paths it is served at: the root well-known path, and the one
    /// suffixed with the resource's path.
    pub(crate) paths: Vec<String>,
    /// The `resource_metadata` of every challenge.
    pub(crate) metadata_url: String,
    /// The scopes a 401 asks for, space-separated.
    pub(crate) scope: Option<String>,
}

/// `url` parsed when it is an absolute `http` or `https` URL with a host.
fn absolute(url: &str) -> Option<Uri> {
    let uri: Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?;
    let has_host = uri.host().is_some_and(|host| !host.is_empty());
    ((scheme == "https" || scheme == "http") && has_host).then_some(uri)
}

/// RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource() -> ProtectedResource {
        ProtectedResource::new("https://tools.example.com/mcp/")
            .authorization_server("https://auth.example.com/realms/tools")
            .scopes(["files:read"])
            .name("Tools")
    }

    #[test]
    fn published_at_both_well_known_paths() {
        let published = resource().publish().expect("valid");
        assert_eq!(
            published.paths,
            [
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp"
            ]
        );
        assert_eq!(
            published.metadata_url,
            "https://tools.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(published.scope.as_deref(), Some("files:read"));
        assert_eq!(
            published.document,
            r#"{"resource":"https://tools.example.com/mcp/","authorization_servers":["https://auth.example.com/realms/tools"],"bearer_methods_supported":["header"],"scopes_supported":["files:read"],"resource_name":"Tools"}"#
        );
        let root = ProtectedResource::new("http://127.0.0.1:8080")
            .authorization_server("http://127.0.0.1:9000")
            .publish()
            .expect("valid");
        assert_eq!(root.paths, ["/.well-known/oauth-protected-resource"]);
        assert_eq!(
            root.metadata_url,
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource"
        );
        assert_eq!(root.scope, None);
    }

    #[test]
    fn bad_settings_are_named() {
        let reason = |resource: ProtectedResource| match resource.publish() {
            Err(ServeError::InvalidProtectedResource { reason }) => reason,
            other => panic!("not refused: {other:?}"),
        };
        let server = "https://auth.example.com";
        assert_eq!(
            reason(ProtectedResource::new("/mcp").authorization_server(server)),
            "the resource `/mcp` is not an absolute http or https URL"
        );
        assert_eq!(
            reason(ProtectedResource::new("ftp://tools.example.com").authorization_server(server)),
            "the resource `ftp://tools.example.com` is not an absolute http or https URL"
        );
        assert_eq!(
            reason(
                ProtectedResource::new("https://t.example/mcp?x=1").authorization_server(server)
            ),
            "the resource `https://t.example/mcp?x=1` has a query or a fragment (RFC 9728 §1.2)"
        );
        assert_eq!(
            reason(ProtectedResource::new("https://t.example/mcp")),
            "the resource `https://t.example/mcp` names no authorization server; MCP requires one"
        );
        assert_eq!(
            reason(ProtectedResource::new("https://t.example/mcp").authorization_server("auth")),
            "the authorization server `auth` is not an absolute http or https URL"
        );
        assert_eq!(
            reason(
                ProtectedResource::new("https://t.example/mcp")
                    .authorization_server(server)
                    .scopes(["files read"])
            ),
            "the scope `files read` is empty or has a space, `\"` or `\\` (RFC 6749 §3.3)"
        );
    }
}
