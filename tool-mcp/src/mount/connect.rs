//! Reaching a mounted server with rmcp's client, and following it: its
//! list changes, and its end.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;

use hyper::header::{HeaderName, HeaderValue};
use rmcp::handler::client::progress::ProgressDispatcher;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use tool_core::toolset::RegistryHandle;

use super::{MountError, Shared};

/// Where a server is.
#[derive(Debug)]
pub(crate) enum Source {
    Stdio(Box<tokio::process::Command>),
    Http {
        url: String,
        bearer: Option<String>,
        headers: Vec<(String, String)>,
    },
}

/// The mount's side of the connection: it hears the server's list change.
pub(crate) struct Client {
    changed: Arc<Notify>,
    progress: ProgressDispatcher,
    info: ClientConfig,
}

impl Client {
    pub(crate) fn new(changed: Arc<Notify>, progress: ProgressDispatcher) -> Self {
        let info = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        );
        Self {
            changed,
            progress,
            info,
        }
    }
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.notify_one();
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.handle_notification(params).await;
    }

    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }
}

/// Starts or reaches the server, and completes MCP's initialization.
pub(crate) async fn connect(
    server: &str,
    source: Source,
    client: Client,
) -> Result<RunningService<RoleClient, Client>, MountError> {
    let failed = |reason: String| MountError::Connect {
        server: server.to_owned(),
        reason,
    };
    match source {
        Source::Stdio(command) => {
            let mut command = *command;
            // Should the mount's task not end it, the child still ends with it.
            command.kill_on_drop(true);
            let (transport, stderr) = TokioChildProcess::builder(command)
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|error| failed(format!("its command did not start: {error}")))?;
            if let Some(stderr) = stderr {
                let server = server.to_owned();
                tokio::spawn(async move {
                    // Read to the end, so that the child never blocks on a
                    // full pipe; each line bounded in the log.
                    let mut lines = BufReader::new(stderr).lines();
                    while let Ok(Some(line)) = lines.next_line().await {
                        let shown: String = line.chars().take(500).collect();
                        tracing::debug!(server = %server, "stderr: {shown}");
                    }
                });
            }
            client
                .serve(transport)
                .await
                .map_err(|error| failed(error.to_string()))
        }
        Source::Http {
            url,
            bearer,
            headers,
        } => {
            let mut custom = HashMap::new();
            for (name, value) in &headers {
                let name = HeaderName::try_from(name.as_str())
                    .map_err(|error| failed(format!("the header name `{name}`: {error}")))?;
                let value = HeaderValue::try_from(value.as_str())
                    .map_err(|error| failed(format!("the value of header `{name}`: {error}")))?;
                custom.insert(name, value);
            }
            let mut config =
                StreamableHttpClientTransportConfig::with_uri(url).custom_headers(custom);
            if let Some(token) = bearer {
                config = config.auth_header(token);
            }
            client
                .serve(StreamableHttpClientTransport::from_config(config))
                .await
                .map_err(|error| failed(error.to_string()))
        }
    }
}

/// Follows a mounted server until the mount ends: each list change puts
/// the new list in the registry; the connection's end makes its tools
/// answer that the server is down.
pub(crate) async fn follow<Ctx: Send + Sync + 'static>(
    running: RunningService<RoleClient, Client>,
    shared: Arc<Shared>,
    handle: RegistryHandle<Ctx>,
    changed: Arc<Notify>,
    stop: CancellationToken,
) {
    let peer = running.peer().clone();
    let mut running = Some(running);
    loop {
        tokio::select! {
            () = stop.cancelled() => break,
            () = changed.notified() => {
                match peer.list_all_tools().await {
                    Ok(listed) => {
                        if let Err(error) = shared.put(&handle, &listed, false) {
                            tracing::warn!(server = %shared.server, %error, "the new tool list is not mounted");
                        }
                    }
                    Err(error) => {
                        tracing::warn!(server = %shared.server, %error, "the new tool list could not be read");
                    }
                }
            }
            () = wait_closed(&peer) => break,
        }
    }
    shared
        .connection
        .down("the mount has ended or the server closed its connection".to_owned());
    if let Some(mut running) = running.take() {
        let _ = running.close().await;
    }
}

/// Waits until the transport to the server is closed.
async fn wait_closed(peer: &rmcp::service::Peer<RoleClient>) {
    // rmcp says so only when asked: ask now and then.
    while !peer.is_transport_closed() {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
