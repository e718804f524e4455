//! The prompts a server serves (`prompts/list`, `prompts/get`), answered
//! from tool-core's [`Prompts`] in the context a tool call would run in.
//!
//! Sources: MCP 2025-11-25, Server features, Prompts
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/prompts>):
//! an unknown prompt or a missing required argument is -32602.

use rmcp::model::{
    self, GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};
use tool_core::prompt::{PromptArguments, PromptError, PromptMessage, Prompts};

use crate::asking::input_required::run_or_ask;
use crate::asking::{Asked, asking_context};
use crate::server::McpServer;

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
fn prompt_arguments(request: &GetPromptRequestParams) -> PromptArguments {
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
fn prompt_answer(
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

/// `prompts/get`: the prompt's messages, made in the request's context;
/// what it asks the client goes in the request's rounds in 2026-07-28.
pub(crate) async fn get<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    request: GetPromptRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<GetPromptResponse, ErrorData> {
    let asked = Asked {
        name: &request.name,
        arguments: request.arguments.as_ref(),
        state: request.request_state.as_deref(),
        responses: request.input_responses.as_ref(),
    };
    let (ctx, round) = asking_context(server, asked, context)?;
    let arguments = prompt_arguments(&request);
    let prompts = server.prompts();
    let got = prompts.messages(&ctx, &request.name, &arguments);
    match run_or_ask(round.as_deref(), &server.config.request_state, got).await? {
        Ok(got) => {
            let description = prompts
                .get(&request.name)
                .map(|prompt| prompt.description());
            prompt_answer(got, description).map(Into::into)
        }
        Err(input_required) => Ok(input_required.into()),
    }
}
