//! What a server offers besides tools: its resources (`resources/list`,
//! `resources/templates/list`, `resources/read`, and which URIs it serves,
//! for a subscription), its prompts (`prompts/list`, `prompts/get`),
//! and the completion of a prompt's arguments and a template's
//! parameters (`completion/complete`), each answered from tool-core's
//! [`Resources`] and [`Prompts`], in the context a tool call would run in.
//!
//! Sources: MCP 2025-11-25, Server features, Resources and Prompts, and
//! Utilities, Completion
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/resources>):
//! a resource not found is -32002 with its `uri` in `data` (which rmcp
//! makes -32602 for 2026-07-28, SEP-2164); an unknown prompt or a missing
//! required argument is -32602; at most 100 completion values.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use rmcp::ErrorData;
use rmcp::model::{
    self, CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptRequestParams,
    GetPromptResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ReadResourceRequestParams, ReadResourceResult, Reference,
};
use serde_json::{Value, json};
use tool_core::prompt::{PromptArguments, PromptError, PromptMessage, Prompts};
use tool_core::resource::{Resource, ResourceContents, ResourceError, Resources, UriTemplate};

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

/// Reads a URI.
pub(crate) fn read_answer(
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

/// Every prompt, with its arguments.
pub(crate) fn list_prompts<Ctx: 'static>(prompts: &Prompts<Ctx>) -> ListPromptsResult {
    ListPromptsResult::with_all_items(
        prompts
            .iter()
            .map(|prompt| {
                let arguments: Vec<model::PromptArgument> = prompt
                    .arguments()
                    .into_iter()
                    .map(|argument| {
                        let mut listed = model::PromptArgument::new(argument.name);
                        listed.description = argument.description;
                        listed.required = Some(argument.required);
                        listed
                    })
                    .collect();
                model::Prompt::new(
                    prompt.name(),
                    Some(prompt.description()),
                    (!arguments.is_empty()).then_some(arguments),
                )
            })
            .collect(),
    )
}

/// A `prompts/get`'s arguments, as strings: MCP sends strings; any other
/// JSON value is taken as its text.
pub(crate) fn prompt_arguments(request: &GetPromptRequestParams) -> PromptArguments {
    request
        .arguments
        .iter()
        .flatten()
        .map(|(name, value)| {
            let text = match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            (name.clone(), text)
        })
        .collect()
}

/// The answer to `prompts/get`.
pub(crate) fn prompt_answer(
    got: Result<Vec<PromptMessage>, PromptError>,
    description: Option<&str>,
) -> Result<GetPromptResult, ErrorData> {
    let messages = match got {
        Ok(messages) => messages,
        Err(error @ PromptError::Failed { .. }) => {
            return Err(ErrorData::internal_error(error.to_string(), None));
        }
        Err(error) => return Err(ErrorData::invalid_params(error.to_string(), None)),
    };
    let messages = messages
        .iter()
        .map(|message| {
            serde_json::from_value::<model::PromptMessage>(json!({
                "role": message.role().as_str(),
                "content": message.content(),
            }))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| {
            ErrorData::internal_error(format!("a prompt message MCP cannot take: {error}"), None)
        })?;
    let result = GetPromptResult::new(messages);
    Ok(match description {
        Some(description) => result.with_description(description),
        None => result,
    })
}

/// The values a prompt's argument or a template's parameter may take.
pub(crate) fn complete<Ctx: 'static>(
    resources: &Resources<Ctx>,
    prompts: &Prompts<Ctx>,
    request: &CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let argument = &request.argument;
    let values = match &request.r#ref {
        Reference::Prompt(prompt) => prompts
            .get(&prompt.name)
            .map(|prompt| prompt.complete(&argument.name, &argument.value)),
        Reference::Resource(template) => resources
            .get(&template.uri)
            .map(|resource: &dyn Resource<Ctx>| resource.complete(&argument.name, &argument.value)),
        _ => None,
    };
    let Some(mut values) = values else {
        return Err(ErrorData::invalid_params(
            "no such prompt or resource template to complete",
            None,
        ));
    };
    let total = values.len();
    values.truncate(CompletionInfo::MAX_VALUES);
    let mut info =
        CompletionInfo::new(values).map_err(|error| ErrorData::internal_error(error, None))?;
    info.total = u32::try_from(total).ok();
    info.has_more = Some(total > CompletionInfo::MAX_VALUES);
    Ok(CompleteResult::new(info))
}

/// Whether `resources` serves `uri`: a resource of that URI, or a
/// template it fits (which may still find nothing there when read).
pub(crate) fn serves<Ctx: 'static>(resources: &Resources<Ctx>, uri: &str) -> bool {
    resources.fixed().any(|resource| resource.uri() == uri)
        || resources.templates().any(|resource| {
            UriTemplate::parse(resource.uri()).is_ok_and(|template| template.matches(uri).is_some())
        })
}
