//! Reaching a mounted server with rmcp's client, and following it: its
//! list changes, and its end.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};

use hyper::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{AuthClient, StreamableHttpClientTransport};
use rmcp::{ClientHandler, ServiceExt};
use tokio::sync::Notify;

use super::child::{Alive, ChildInput, ChildOutput};
use super::heard::Heard;
use super::oauth::{Authorizer, OAuth, OAuthFailure, OAuthHttp};
use super::tap::TappedHttp;
use super::{MountError, stderr};

/// Where a server is.
pub(crate) enum ServerLocation {
    Stdio(Box<tokio::process::Command>),
    Http {
        url: String,
        bearer: Option<String>,
        headers: Vec<(String, String)>,
        oauth: Option<Box<OAuth>>,
    },
}

/// The token and the headers' values left out: a mount's `Debug` goes to
/// logs.
impl std::fmt::Debug for ServerLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerLocation::Stdio(command) => f.debug_tuple("Stdio").field(command).finish(),
            ServerLocation::Http {
                url,
                bearer,
                headers,
                oauth,
            } => f
                .debug_struct("Http")
                .field("url", url)
                .field("bearer", &bearer.as_ref().map(|_| "…"))
                .field(
                    "headers",
                    &headers.iter().map(|(name, _)| name).collect::<Vec<_>>(),
                )
                .field("oauth", oauth)
                .finish(),
        }
    }
}

/// The mount's side of the connection: it hears the server's list change.
/// (The calls' progress is read below rmcp, in order: `progress.rs`.)
#[derive(Clone)]
pub(crate) struct Client {
    changed: Arc<Notify>,
    info: ClientConfig,
    /// Why authorizing with a server behind OAuth last failed, if it did:
    /// what a request that failed for it says, rather than rmcp's words.
    unauthorized: Arc<Mutex<Option<OAuthFailure>>>,
}

impl Client {
    pub(crate) fn new(changed: Arc<Notify>) -> Self {
        let info = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        );
        Self {
            changed,
            info,
            unauthorized: Arc::default(),
        }
    }

    /// `error`, or the authorization's failure that caused it, naming
    /// `server`.
    pub(crate) fn unauthorized_or(&self, server: &str, error: MountError) -> MountError {
        let failure = self
            .unauthorized
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        match failure {
            Some(failure) => MountError::Authorization {
                server: server.to_owned(),
                failure,
            },
            None => error,
        }
    }
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.notify_one();
    }

    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }
}

/// Starts or reaches the server, and completes MCP's initialization; each
/// message the server sends is read for `heard` on the way; a child
/// process holds `alive` until it is reaped.
pub(crate) async fn connect(
    server: &str,
    source: &ServerLocation,
    client: Client,
    heard: Heard,
    alive: &Alive,
) -> Result<RunningService<RoleClient, Client>, MountError> {
    let failed = |reason: String| MountError::Connect {
        server: server.to_owned(),
        reason,
    };
    match source {
        ServerLocation::Stdio(command) => {
            let mut command = rebuilt(command.as_std());
            // Should the mount's task not end it, the child still ends with it.
            command
                .kill_on_drop(true)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = command
                .spawn()
                .map_err(|error| failed(format!("its command did not start: {error}")))?;
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                return Err(failed("its command has no pipes".to_owned()));
            };
            let stderr = child.stderr.take();
            let transport = (
                ChildOutput::new(stdout, heard),
                ChildInput::new(stdin, child, alive.clone()),
            );
            if let Some(stderr) = stderr {
                let server = server.to_owned();
                tokio::spawn(stderr::drain(server, stderr));
            }
            client
                .serve(transport)
                .await
                .map_err(|error| failed(error.to_string()))
        }
        ServerLocation::Http {
            url,
            bearer,
            headers,
            oauth,
        } => {
            let mut custom = HashMap::new();
            for (name, value) in headers {
                let name = HeaderName::try_from(name.as_str())
                    .map_err(|error| failed(format!("the header name `{name}`: {error}")))?;
                let value = HeaderValue::try_from(value.as_str())
                    .map_err(|error| failed(format!("the value of header `{name}`: {error}")))?;
                custom.insert(name, value);
            }
            let mut config =
                StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom);
            if let Some(token) = bearer {
                config = config.auth_header(token.clone());
            }
            let http = TappedHttp::new(heard).map_err(failed)?;
            let Some(oauth) = oauth else {
                return client
                    .serve(StreamableHttpClientTransport::with_client(http, config))
                    .await
                    .map_err(|error| failed(error.to_string()));
            };
            let authorization = |failure| MountError::Authorization {
                server: server.to_owned(),
                failure,
            };
            let (manager, _) = Authorizer::manager(url, oauth)
                .await
                .map_err(authorization)?;
            let authorized = AuthClient::new(http, manager);
            let flow = Arc::new(Authorizer::new(
                url,
                OAuth::clone(oauth),
                Arc::clone(&authorized.auth_manager),
                Arc::clone(&client.unauthorized),
            ));
            let http = OAuthHttp::new(authorized, Arc::clone(&flow), oauth.max_step_ups);
            let connected = client
                .serve(StreamableHttpClientTransport::with_client(http, config))
                .await;
            connected.map_err(|error| match flow.failure() {
                Some(failure) => authorization(failure),
                None => failed(error.to_string()),
            })
        }
    }
}

/// A command to start again: its program, arguments, environment changes
/// and folder.
fn rebuilt(command: &std::process::Command) -> tokio::process::Command {
    let mut next = tokio::process::Command::new(command.get_program());
    next.args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => next.env(key, value),
            None => next.env_remove(key),
        };
    }
    if let Some(folder) = command.get_current_dir() {
        next.current_dir(folder);
    }
    next
}
