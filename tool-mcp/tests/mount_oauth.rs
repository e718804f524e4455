//! A mount of a server behind OAuth, in what MCP's conformance suite does
//! not check: the tokens kept by the authorization server's issuer and
//! used again by the next mount, without the browser step; a token that
//! expires refreshed; and the browser step's failures, each saying what
//! went wrong.

use std::net::SocketAddr;

use tokio_util::sync::CancellationToken;
use tool_core::toolset::RegistryHandle;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::mount::{
    Browser, CliBrowser, HeadlessBrowser, MemoryTokenStore, Mount, MountError, OAuth, OAuthFailure,
    Redirect, TokenStore, async_trait,
};
use tool_mcp::{BearerTokens, McpServer, ProtectedResource};

#[path = "support/authorization.rs"]
mod authorization;

use authorization::AuthorizationServer;

/// Where the test's authorization server sends the browser back (no one
/// listens: the headless step reads the redirect without following it).
const REDIRECT_URI: &str = "http://127.0.0.1:9/callback";

/// Say hello.
#[tool(read_only, tier = Observe)]
fn hello() -> &'static str {
    "hello"
}

/// Read a private file.
#[tool(read_only, tier = Observe, scopes = ["files:read"])]
fn secret() -> &'static str {
    "the secret"
}

/// Serves `hello` as a resource of `authorization`, taking the tokens it
/// issues.
async fn serve(authorization: &AuthorizationServer) -> (SocketAddr, CancellationToken) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("bound");
    let resource = ProtectedResource::new(format!("http://{address}/mcp"))
        .authorization_server(authorization.issuer())
        .scopes(["mcp:tools"]);
    let tokens = BearerTokens::new()
        .with_token("first-token", ["mcp:tools"])
        .with_token("refreshed-token", ["mcp:tools"]);
    let server = McpServer::new(
        ToolRegistry::<()>::new().with(Hello).with(Secret),
        ToolContext::new(()),
    )
    .with_config(tool_mcp::McpConfig::new().with_protected_resource(resource, tokens));
    let stop = CancellationToken::new();
    let config = tool_mcp::http_config().with_cancellation_token(stop.clone());
    tokio::spawn(server.serve_http_with(listener, config));
    (address, stop)
}

/// A browser step with no one to agree.
struct Nobody;

#[async_trait]
impl Browser for Nobody {
    fn redirect_uri(&self) -> String {
        REDIRECT_URI.to_owned()
    }

    async fn authorize(&self, _url: &str) -> Result<Redirect, String> {
        Err("no one is there".to_owned())
    }
}

#[tokio::test]
async fn tokens_are_kept_by_issuer_and_spare_the_next_mount_the_browser() {
    let authorization = AuthorizationServer::serve(3600).await;
    let (address, stop) = serve(&authorization).await;
    let url = format!("http://{address}/mcp");
    let store = MemoryTokenStore::new();

    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let oauth = OAuth::new(HeadlessBrowser::new(REDIRECT_URI)).store(store.clone());
    let first = Mount::http("notes", &url)
        .oauth(oauth)
        .mount(&handle)
        .await
        .expect("authorized and mounted");
    assert_eq!(first.tools(), ["hello", "secret"]);
    let said = handle
        .call(&ToolContext::new(()), "hello", serde_json::json!({}))
        .await;
    assert_eq!(said.as_text(), Some("hello"));
    assert_eq!(store.issuers(), [authorization.issuer()]);
    let kept = store
        .load(&authorization.issuer())
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(kept.access_token(), Some("first-token"));
    assert_eq!(kept.refresh_token(), Some("the-refresh-token"));
    assert_eq!(kept.client_id(), "registered-client");
    assert_eq!(kept.scopes(), ["mcp:tools"]);
    first.unmount().await;

    // The next mount finds the tokens by the issuer it discovers: no one
    // needs to agree again.
    let again = Mount::http("notes", &url)
        .oauth(OAuth::new(Nobody).store(store.clone()))
        .mount(&handle)
        .await
        .expect("mounted with the kept tokens");
    assert_eq!(again.tools(), ["hello", "secret"]);
    assert_eq!(authorization.grants(), ["authorization_code"]);
    again.unmount().await;
    stop.cancel();
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed() {
    // A token of five seconds is within rmcp's margin: refreshed before use.
    let authorization = AuthorizationServer::serve(5).await;
    let (address, stop) = serve(&authorization).await;
    let store = MemoryTokenStore::new();
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("notes", format!("http://{address}/mcp"))
        .oauth(OAuth::new(HeadlessBrowser::new(REDIRECT_URI)).store(store.clone()))
        .mount(&handle)
        .await
        .expect("authorized and mounted");
    assert_eq!(mounted.tools(), ["hello", "secret"]);
    assert_eq!(
        authorization.grants()[..2],
        ["authorization_code", "refresh_token"]
    );
    let kept = store
        .load(&authorization.issuer())
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(kept.access_token(), Some("refreshed-token"));
    mounted.unmount().await;
    stop.cancel();
}

#[tokio::test]
async fn a_browser_step_that_fails_fails_the_mount_naming_the_server_and_the_step() {
    let authorization = AuthorizationServer::serve(3600).await;
    let (address, stop) = serve(&authorization).await;
    let handle = RegistryHandle::new(ToolRegistry::<()>::new());
    let error = Mount::http("notes", format!("http://{address}/mcp"))
        .oauth(OAuth::new(Nobody))
        .no_restart()
        .mount(&handle)
        .await
        .expect_err("no one agreed");
    assert!(
        matches!(
            &error,
            MountError::Authorization {
                failure: OAuthFailure::Browser(_),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "the MCP server `notes` could not be authorized: the browser step failed: no one is there"
    );
    assert!(authorization.grants().is_empty());
    stop.cancel();
}

#[tokio::test]
async fn the_headless_browser_step_says_what_the_authorization_server_did_wrong() {
    let authorization = AuthorizationServer::serve(3600).await;
    let issuer = authorization.issuer();
    let browser = HeadlessBrowser::new(REDIRECT_URI);
    let at = |path: &str| format!("{issuer}{path}?redirect_uri={REDIRECT_URI}&state=s");

    let plain = browser.authorize(&at("/plain")).await;
    assert_eq!(
        plain,
        Err("the authorization server answered 200 OK, not a redirect".to_owned())
    );
    let elsewhere = browser.authorize(&at("/elsewhere")).await;
    assert_eq!(
        elsewhere,
        Err(format!(
            "the authorization server redirected to http://elsewhere.example/callback?code=c&state=s, \
             not to {REDIRECT_URI}"
        ))
    );
    let denied = browser.authorize(&at("/denied")).await;
    assert_eq!(
        denied,
        Err("the authorization server refused: access_denied (the person said no)".to_owned())
    );
    let no_code = browser.authorize(&at("/no-code")).await;
    assert_eq!(
        no_code,
        Err(format!(
            "the redirect `{REDIRECT_URI}?state=s` is incomplete: \
             OAuth authorization failed: Authorization callback missing code"
        ))
    );
    let unreachable = browser.authorize("http://127.0.0.1:9/authorize").await;
    let Err(said) = unreachable else {
        panic!("nothing listens there")
    };
    assert!(
        said.starts_with("the authorization URL could not be fetched: "),
        "{said}"
    );

    let agreed = browser.authorize(&at("/authorize")).await;
    assert_eq!(
        agreed,
        Ok(Redirect {
            code: "the-code".to_owned(),
            state: "s".to_owned(),
            issuer: Some(issuer.clone()),
        })
    );
}

#[tokio::test]
async fn the_command_line_browser_step_reads_the_redirect_on_loopback() {
    let port = {
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        free.local_addr().expect("bound").port()
    };
    let browser = CliBrowser::on_port(port);
    assert_eq!(
        browser.redirect_uri(),
        format!("http://127.0.0.1:{port}/callback")
    );
    let waiting = tokio::spawn(async move {
        browser
            .authorize("https://auth.example.com/authorize?state=s")
            .await
    });
    let client = reqwest::Client::new();
    // The listener is up once the browser step prints the address.
    let other = loop {
        match client
            .get(format!("http://127.0.0.1:{port}/favicon.ico"))
            .send()
            .await
        {
            Ok(answer) => break answer,
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
        }
    };
    assert_eq!(other.status(), 404);
    let page = client
        .get(format!(
            "http://127.0.0.1:{port}/callback?code=the-code&state=s&iss=https%3A%2F%2Fauth.example.com"
        ))
        .send()
        .await
        .expect("answered");
    assert_eq!(
        page.text().await.expect("a page"),
        "Authorized: you can close this window."
    );
    assert_eq!(
        waiting.await.expect("ran"),
        Ok(Redirect {
            code: "the-code".to_owned(),
            state: "s".to_owned(),
            issuer: Some("https://auth.example.com".to_owned()),
        })
    );
}

#[tokio::test]
async fn a_scope_never_granted_is_asked_for_at_most_twice() {
    let authorization = AuthorizationServer::serve(3600).await;
    let (address, stop) = serve(&authorization).await;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = Mount::http("notes", format!("http://{address}/mcp"))
        .oauth(OAuth::new(HeadlessBrowser::new(REDIRECT_URI)))
        .mount(&handle)
        .await
        .expect("authorized and mounted");
    // The authorization server grants `mcp:tools` whatever is asked.
    let refused = handle
        .call(&ToolContext::new(()), "secret", serde_json::json!({}))
        .await;
    assert!(refused.is_error());
    assert_eq!(
        refused.as_text(),
        Some(
            "the MCP server `notes` refused to call `secret`: authorization failed: it still \
             asks for more scope (mcp:tools files:read) after 2 step-ups"
        )
    );
    // Only that call failed: the connection goes on.
    let said = handle
        .call(&ToolContext::new(()), "hello", serde_json::json!({}))
        .await;
    assert_eq!(said.as_text(), Some("hello"));
    assert_eq!(
        authorization.grants(),
        [
            "authorization_code",
            "authorization_code",
            "authorization_code"
        ]
    );
    mounted.unmount().await;
    stop.cancel();
}
