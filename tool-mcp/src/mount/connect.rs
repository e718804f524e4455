//! Reaching a mounted server with rmcp's client, and following it: its
//! list changes, and its end.

// rmcp marks sampling and roots deprecated (SEP-2577, which moves them in
// a later revision); 2025-11-25 and 2026-07-28 both have them.
#![allow(deprecated)]

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};

use hyper::header::{HeaderName, HeaderValue};
use rmcp::ClientHandler;
use rmcp::ErrorData as McpError;
use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ElicitationCapability, FormElicitationCapability,
    Implementation, ListRootsResult, ProtocolVersion, TASKS_EXTENSION_ID,
};
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, NotificationContext,
    RequestContext, RoleClient, RunningService,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{AuthClient, StreamableHttpClientTransport};
use serde_json::Value;
use tokio::sync::{Notify, oneshot};

use super::asked::{ServerAsks, Takes};
use super::child::{Alive, ChildInput, ChildOutput};
use super::heard::Heard;
use super::oauth::{Authorizer, OAuth, OAuthFailure, OAuthHttp};
use super::questions::{self, Asked, Desk};
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

/// Which of MCP's versions a mount speaks to its server
/// ([`Mount::protocol`](super::Mount::protocol)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Protocol {
    /// The newest the server speaks: 2026-07-28 where the server offers
    /// it (`server/discover`, each request carrying its own metadata,
    /// questions asked through `input_required`, list changes on a stream
    /// of their own, calls run as tasks as its tasks extension says);
    /// otherwise 2025-11-25 (`initialize`, then a session).
    #[default]
    Newest,
    /// 2025-11-25 whatever the server offers: `initialize`, then a
    /// session; for a server whose newer form is not to be relied on.
    V2025_11_25,
}

/// The mount's side of the connection: it hears the server's list change.
/// (The calls' progress is read below rmcp, in order: `progress.rs`.)
#[derive(Clone)]
pub(crate) struct Client {
    server: Arc<str>,
    protocol: Protocol,
    changed: Arc<Notify>,
    info: ClientConfig,
    desk: Arc<Desk>,
    /// Why authorizing with a server behind OAuth last failed, if it did:
    /// what a request that failed for it says, rather than rmcp's words.
    unauthorized: Arc<Mutex<Option<OAuthFailure>>>,
}

impl Client {
    pub(crate) fn new(
        server: Arc<str>,
        changed: Arc<Notify>,
        protocol: Protocol,
        takes: Takes,
    ) -> Self {
        // The person behind each call answers the server's questions, in
        // forms; the registry checks each answer against the form.
        let mut capabilities = ClientCapabilities::default();
        // A server that runs a call as a task (2026-07-28's extension) is
        // followed to the task's end (`task_follow.rs`).
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(TASKS_EXTENSION_ID.to_owned(), Default::default());
        capabilities.elicitation = Some(
            ElicitationCapability::new()
                .with_form(FormElicitationCapability::new().with_schema_validation(true)),
        );
        // The calling context's client, where the application says so.
        if takes.sampling {
            capabilities.sampling = Some(Default::default());
        }
        if takes.roots {
            capabilities.roots = Some(Default::default());
        }
        let mut info = ClientConfig::new(
            capabilities,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        );
        // What `initialize` asks for: 2026-07-28 has no `initialize`.
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        Self {
            server,
            protocol,
            changed,
            info,
            desk: Arc::new(Desk::new(takes)),
            unauthorized: Arc::default(),
        }
    }

    /// The calls running on the mount's connections.
    pub(crate) fn desk(&self) -> Arc<Desk> {
        Arc::clone(&self.desk)
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

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        let answer = self.pass(&context, ServerAsks::Elicit(params)).await?;
        read(answer)
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, McpError> {
        let answer = self.pass(&context, ServerAsks::Sample(params)).await?;
        read(answer)
    }

    async fn list_roots(
        &self,
        context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, McpError> {
        let answer = self.pass(&context, ServerAsks::Roots).await?;
        read(answer)
    }
}

impl Client {
    /// Passes the server's `request` to the call it belongs to, and gives
    /// the answer made there.
    async fn pass(
        &self,
        context: &RequestContext<RoleClient>,
        request: ServerAsks,
    ) -> Result<Value, McpError> {
        let (reply, answer) = oneshot::channel();
        let asked = Asked { request, reply };
        if self.desk.pass(&context.id, asked).await.is_err() {
            return Err(questions::unplaced(&self.server));
        }
        // The call ended before it answered.
        answer.await.unwrap_or_else(|_| {
            Err(McpError::internal_error(
                "the call the request belongs to ended before it was answered",
                None,
            ))
        })
    }
}

/// An answer made as JSON, read as rmcp's model of it.
fn read<T: serde::de::DeserializeOwned>(answer: Value) -> Result<T, McpError> {
    serde_json::from_value(answer)
        .map_err(|error| McpError::internal_error(error.to_string(), None))
}

/// Starts or reaches the server, and completes MCP's initialization; each
/// message the server sends is read for `heard` on the way; a child
/// process holds `alive` until it is reaped.
///
/// The server is asked first with 2026-07-28's `server/discover`; one that
/// answers it as MCP's older versions do (an error, or nothing for 10 s)
/// is initialized as 2025-11-25 says. One that answers it with something
/// else than an error, as some servers do with any method they do not
/// know, is reached again and initialized.
pub(crate) async fn connect(
    server: &str,
    source: &ServerLocation,
    client: Client,
    heard: Heard,
    alive: &Alive,
) -> Result<RunningService<RoleClient, Client>, MountError> {
    if client.protocol == Protocol::V2025_11_25 {
        let initializing = ClientLifecycleMode::Initialize;
        return start(server, source, client, heard, alive, initializing)
            .await
            .map_err(|failed| failed.into_error(server));
    }
    let discovering = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::LATEST],
        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
    };
    match start(
        server,
        source,
        client.clone(),
        heard.clone(),
        alive,
        discovering,
    )
    .await
    {
        Err(Started::Answered(_)) => start(
            server,
            source,
            client,
            heard,
            alive,
            ClientLifecycleMode::Initialize,
        )
        .await
        .map_err(|failed| failed.into_error(server)),
        started => started.map_err(|failed| failed.into_error(server)),
    }
}

/// Why a server was not reached.
enum Started {
    /// It answered, but not as the lifecycle asked for.
    Answered(Box<ClientInitializeError>),
    /// It could not be reached, for this reason.
    Failed(String),
    /// It was reached, and refused as this says.
    Refused(MountError),
}

impl Started {
    fn into_error(self, server: &str) -> MountError {
        let reason = match self {
            Started::Answered(error) => error.to_string(),
            Started::Failed(reason) => reason,
            Started::Refused(error) => return error,
        };
        MountError::Connect {
            server: server.to_owned(),
            reason,
        }
    }
}

impl From<ClientInitializeError> for Started {
    fn from(error: ClientInitializeError) -> Self {
        match error {
            ClientInitializeError::TransportError { .. } => Started::Failed(error.to_string()),
            answered => Started::Answered(Box::new(answered)),
        }
    }
}

/// Starts or reaches the server, and begins MCP's session as `lifecycle`
/// says.
async fn start(
    server: &str,
    source: &ServerLocation,
    client: Client,
    heard: Heard,
    alive: &Alive,
    lifecycle: ClientLifecycleMode,
) -> Result<RunningService<RoleClient, Client>, Started> {
    let failed = Started::Failed;
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
            Ok(client.serve_with_lifecycle(transport, lifecycle).await?)
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
                let transport = StreamableHttpClientTransport::with_client(http, config);
                return Ok(client.serve_with_lifecycle(transport, lifecycle).await?);
            };
            let authorization = |failure| {
                Started::Refused(MountError::Authorization {
                    server: server.to_owned(),
                    failure,
                })
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
            let transport = StreamableHttpClientTransport::with_client(http, config);
            let connected = client.serve_with_lifecycle(transport, lifecycle).await;
            connected.map_err(|error| match flow.failure() {
                Some(failure) => authorization(failure),
                None => Started::from(error),
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
