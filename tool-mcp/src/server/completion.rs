//! `completion/complete`: the values a prompt's argument or a resource
//! template's parameter may take, from the prompt or template itself.
//!
//! Source: MCP 2025-11-25, Server utilities, Completion
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion>):
//! at most 100 values.

use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference};
use tool_core::prompt::Prompts;
use tool_core::resource::{Resource, Resources};

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
