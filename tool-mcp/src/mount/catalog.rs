//! A mounted server's resources and prompts, for a gateway to serve beside
//! its tools: each listed when asked for, then read or got through the
//! mount's connection (the server started again as its tools' is), and
//! bounded as its tools are: a description over the mount's limit, a URI
//! that is not a template this reads, or a listing past [`MAX_LISTED`] is
//! left out; an answer over the result limit is an error naming the
//! server.

#![allow(deprecated)]

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use rmcp::model::{
    GetPromptRequestParams, ReadResourceRequestParams, ResourceContents as McpContents,
};
use rmcp::service::ServiceError;
use serde_json::{Map, Value};
use tool_core::prompt::{
    Prompt, PromptArgument, PromptArguments, PromptError, PromptMessage, Prompts, Role,
};
use tool_core::resource::{
    Resource, ResourceContents, ResourceError, ResourceRead, Resources, UriTemplate,
};
use tool_core::{BoxFuture, ToolContext};

use super::connection::Connection;
use super::mounted::{MountError, Mounted};
use crate::asking::client_requests::part_of_block;

/// The most resources, templates or prompts taken from one server's
/// listing: past it, a server is filling the gateway, and the rest are
/// left out.
pub const MAX_LISTED: usize = 10_000;

impl Mounted {
    /// The server's resources and resource templates as it lists them now,
    /// each read through the mount: what a gateway serves with
    /// [`McpServer::with_resources`](crate::McpServer::with_resources)
    /// beside the server's tools. One the limits leave out is named in
    /// [`Mounted::refused`]'s way: a warning in `tracing`.
    pub async fn resources<Ctx: Send + Sync + 'static>(
        &self,
    ) -> Result<Resources<Ctx>, MountError> {
        let connection = &self.shared.connection;
        let link = connection
            .link()
            .map_err(|why| self.shared.list_error(why))?;
        let listing = |error: ServiceError| {
            self.shared
                .list_error(format!("listing its resources failed: {error}"))
        };
        let fixed = link.peer.list_all_resources().await.map_err(listing)?;
        let templates = link
            .peer
            .list_all_resource_templates()
            .await
            .map_err(listing)?;
        let limits = &self.shared.limits;
        let mut resources = Resources::new();
        let listed = fixed
            .into_iter()
            .map(|resource| {
                (
                    resource.uri.clone(),
                    resource.name.clone(),
                    resource.description.clone(),
                    resource.mime_type.clone(),
                )
            })
            .chain(templates.into_iter().map(|template| {
                (
                    template.uri_template.clone(),
                    template.name.clone(),
                    template.description.clone(),
                    template.mime_type.clone(),
                )
            }));
        for (uri, name, description, mime_type) in listed.take(MAX_LISTED) {
            let description = description.unwrap_or_default();
            if description.len() > limits.description_bytes {
                tracing::warn!(server = %connection.server, uri, "a resource left out: its description is over the mount's limit");
                continue;
            }
            let remote = RemoteResource {
                connection: Arc::clone(connection),
                uri,
                name,
                description,
                mime_type,
                max_bytes: limits.result_bytes,
            };
            if let Err(error) = UriTemplate::parse(&remote.uri)
                .map(drop)
                .and_then(|()| resources.register(remote))
            {
                tracing::warn!(server = %connection.server, %error, "a resource left out");
            }
        }
        Ok(resources)
    }

    /// The server's prompts as it lists them now, each got through the
    /// mount: what a gateway serves with
    /// [`McpServer::with_prompts`](crate::McpServer::with_prompts).
    pub async fn prompts<Ctx: Send + Sync + 'static>(&self) -> Result<Prompts<Ctx>, MountError> {
        let connection = &self.shared.connection;
        let link = connection
            .link()
            .map_err(|why| self.shared.list_error(why))?;
        let listed = link.peer.list_all_prompts().await.map_err(|error| {
            self.shared
                .list_error(format!("listing its prompts failed: {error}"))
        })?;
        let limits = &self.shared.limits;
        let mut prompts = Prompts::new();
        for prompt in listed.into_iter().take(MAX_LISTED) {
            let description = prompt.description.clone().unwrap_or_default();
            if description.len() > limits.description_bytes {
                tracing::warn!(server = %connection.server, prompt = prompt.name, "a prompt left out: its description is over the mount's limit");
                continue;
            }
            let arguments = prompt
                .arguments
                .iter()
                .flatten()
                .map(|argument| PromptArgument {
                    name: argument.name.clone(),
                    description: argument.description.clone(),
                    required: argument.required.unwrap_or(false),
                })
                .collect();
            let remote = RemotePrompt {
                connection: Arc::clone(connection),
                name: prompt.name,
                description,
                arguments,
                max_bytes: limits.result_bytes,
            };
            if let Err(error) = prompts.register(remote) {
                tracing::warn!(server = %connection.server, %error, "a prompt left out");
            }
        }
        Ok(prompts)
    }
}

/// One of a mounted server's resources.
struct RemoteResource {
    connection: Arc<Connection>,
    uri: String,
    name: String,
    description: String,
    mime_type: Option<String>,
    max_bytes: usize,
}

impl<Ctx: Send + Sync + 'static> Resource<Ctx> for RemoteResource {
    fn uri(&self) -> &str {
        &self.uri
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn mime_type(&self) -> Option<&str> {
        self.mime_type.as_deref()
    }

    fn read<'a>(
        &'a self,
        _ctx: &'a ToolContext<Ctx>,
        read: &'a ResourceRead,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
        Box::pin(async move {
            let server = &self.connection.server;
            let uri = read.uri();
            let link = self
                .connection
                .link()
                .map_err(|why| ResourceError::failed(uri, why))?;
            let answer = link
                .peer
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .map_err(|error| match &error {
                    ServiceError::McpError(data) if matches!(data.code.0, -32002 | -32602) => {
                        ResourceError::not_found(uri)
                    }
                    _ => ResourceError::failed(
                        uri,
                        format!("the MCP server `{server}` failed: {error}"),
                    ),
                })?;
            let mut contents = Vec::new();
            let mut bytes = 0;
            for content in answer.contents {
                let read = match content {
                    McpContents::TextResourceContents {
                        uri,
                        mime_type,
                        text,
                        ..
                    } => {
                        bytes += text.len();
                        with_type(ResourceContents::text(uri, text), mime_type)
                    }
                    McpContents::BlobResourceContents {
                        uri,
                        mime_type,
                        blob,
                        ..
                    } => {
                        bytes += blob.len();
                        let decoded = BASE64.decode(blob.as_bytes()).map_err(|_| {
                            ResourceError::failed(
                                read.uri(),
                                format!("the MCP server `{server}` sent a blob that is not base64"),
                            )
                        })?;
                        with_type(ResourceContents::blob(uri, decoded), mime_type)
                    }
                    _ => continue,
                };
                if bytes > self.max_bytes {
                    return Err(ResourceError::failed(
                        read.uri(),
                        format!(
                            "the MCP server `{server}` sent more than the mount's limit of {} bytes",
                            self.max_bytes
                        ),
                    ));
                }
                contents.push(read);
            }
            Ok(contents)
        })
    }
}

fn with_type(contents: ResourceContents, mime_type: Option<String>) -> ResourceContents {
    match mime_type {
        Some(mime_type) => contents.with_mime_type(mime_type),
        None => contents,
    }
}

/// One of a mounted server's prompts.
struct RemotePrompt {
    connection: Arc<Connection>,
    name: String,
    description: String,
    arguments: Vec<PromptArgument>,
    max_bytes: usize,
}

impl<Ctx: Send + Sync + 'static> Prompt<Ctx> for RemotePrompt {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn arguments(&self) -> Vec<PromptArgument> {
        self.arguments.clone()
    }

    fn get<'a>(
        &'a self,
        _ctx: &'a ToolContext<Ctx>,
        arguments: &'a PromptArguments,
    ) -> BoxFuture<'a, Result<Vec<PromptMessage>, PromptError>> {
        Box::pin(async move {
            let server = &self.connection.server;
            let failed = |message: String| PromptError::Failed {
                prompt: self.name.clone(),
                message,
            };
            let link = self.connection.link().map_err(failed)?;
            let mut params = GetPromptRequestParams::new(self.name.clone());
            params.arguments = Some(
                arguments
                    .iter()
                    .map(|(name, value)| (name.clone(), Value::from(value.as_str())))
                    .collect::<Map<String, Value>>(),
            );
            let answer =
                link.peer.get_prompt(params).await.map_err(|error| {
                    failed(format!("the MCP server `{server}` failed: {error}"))
                })?;
            let answer = serde_json::to_value(answer).unwrap_or_default();
            if answer.to_string().len() > self.max_bytes {
                return Err(failed(format!(
                    "the MCP server `{server}` sent more than the mount's limit of {} bytes",
                    self.max_bytes
                )));
            }
            let messages = answer["messages"].as_array().cloned().unwrap_or_default();
            Ok(messages
                .iter()
                .map(|message| {
                    let role = match message["role"].as_str() {
                        Some("assistant") => Role::Assistant,
                        _ => Role::User,
                    };
                    PromptMessage::new(role, part_of_block(&message["content"]))
                })
                .collect())
        })
    }
}
