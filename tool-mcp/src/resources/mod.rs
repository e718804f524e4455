//! The resources a server serves (`resources/list`,
//! `resources/templates/list`, `resources/read`), answered from
//! tool-core's [`Resources`] in the context a tool call would run in, and
//! which URIs it serves, for a subscription.
//!
//! Sources: MCP 2025-11-25, Server features, Resources
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/resources>):
//! a resource not found is -32002 with its `uri` in `data` (which rmcp
//! makes -32602 for 2026-07-28, SEP-2164).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use rmcp::model::{
    self, ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;
use tool_core::resource::{ResourceContents, ResourceError, Resources, UriTemplate};

use crate::asking::input_required::run_or_ask;
use crate::asking::{Asked, asking_context};
use crate::server::McpServer;

/// Every resource of one URI.
pub(crate) fn list_resources<Ctx: 'static>(resources: &Resources<Ctx>) -> ListResourcesResult {
    ListResourcesResult::with_all_items(
        resources
            .fixed()
            .map(|resource| {
                let mut listed = model::Resource::new(resource.uri(), resource.name())
                    .with_description(resource.description());
                listed.mime_type = resource.mime_type().map(str::to_owned);
                listed
            })
            .collect(),
    )
}

/// Every template.
pub(crate) fn list_templates<Ctx: 'static>(
    resources: &Resources<Ctx>,
) -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(
        resources
            .templates()
            .map(|resource| {
                let mut listed = model::ResourceTemplate::new(resource.uri(), resource.name());
                listed.description = Some(resource.description().to_owned());
                listed.mime_type = resource.mime_type().map(str::to_owned);
                listed
            })
            .collect(),
    )
}

/// `resources/read`: the URI read in the request's context; what the read
/// asks the client goes in the request's rounds in 2026-07-28.
pub(crate) async fn read<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: ReadResourceRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<ReadResourceResponse, ErrorData> {
    let asked = Asked {
        name: &request.uri,
        arguments: None,
        state: request.request_state.as_deref(),
        responses: request.input_responses.as_ref(),
    };
    let (ctx, round) = asking_context(server, asked, context)?;
    let resources = server.resources();
    let read = resources.read(&ctx, &request.uri);
    match run_or_ask(round.as_deref(), &server.config.request_state, read).await? {
        Ok(read) => read_answer(read, &request).map(Into::into),
        Err(input_required) => Ok(input_required.into()),
    }
}

/// Reads a URI.
fn read_answer(
    read: Result<Vec<ResourceContents>, ResourceError>,
    request: &ReadResourceRequestParams,
) -> Result<ReadResourceResult, ErrorData> {
    match read {
        Ok(contents) => Ok(ReadResourceResult::new(
            contents.iter().map(mcp_contents).collect(),
        )),
        Err(ResourceError::NotFound { uri }) => Err(ErrorData::resource_not_found(
            format!("no resource at `{uri}`"),
            Some(json!({"uri": uri})),
        )),
        Err(error) => Err(ErrorData::internal_error(
            error.to_string(),
            Some(json!({"uri": request.uri})),
        )),
    }
}

/// Contents as MCP's, bytes in base64.
fn mcp_contents(contents: &ResourceContents) -> model::ResourceContents {
    let mime_type = contents.mime_type().map(str::to_owned);
    match (contents.as_text(), contents.as_bytes()) {
        (Some(text), _) => model::ResourceContents::TextResourceContents {
            uri: contents.uri().to_owned(),
            mime_type,
            text: text.to_owned(),
            meta: None,
        },
        (None, bytes) => model::ResourceContents::BlobResourceContents {
            uri: contents.uri().to_owned(),
            mime_type,
            blob: bytes.map(|bytes| BASE64.encode(bytes)).unwrap_or_default(),
            meta: None,
        },
    }
}

/// Whether `resources` serves `uri`: a resource of that URI, or a
/// template it fits (which may still find nothing there when read).
pub(crate) fn serves<Ctx: 'static>(resources: &Resources<Ctx>, uri: &str) -> bool {
    resources.fixed().any(|resource| resource.uri() == uri)
        || resources.templates().any(|resource| {
            UriTemplate::parse(resource.uri()).is_ok_and(|template| template.matches(uri).is_some())
        })
}
