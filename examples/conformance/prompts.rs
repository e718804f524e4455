//! The prompts the suite's scenarios get, and the tool that changes them.

use tool_core::elicit::ElicitError;
use tool_core::output::{Image, Media, Part};
use tool_core::prompt::{PromptMessage, Prompts};
use tool_core::{ToolContext, ToolRegistry, prompt, tool};

use crate::tools::{PNG, decoded};

use crate::server::Fixtures;

/// Every prompt of the suite's scenarios.
pub(crate) fn prompts() -> Prompts<Fixtures> {
    Prompts::new()
        .with(TestSimplePrompt)
        .with(TestPromptWithArguments)
        .with(TestPromptWithEmbeddedResource)
        .with(TestPromptWithImage)
        .with(TestInputRequiredResultPrompt)
}

/// A simple prompt without arguments
#[prompt]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with required arguments
#[prompt(complete = complete_arguments)]
fn test_prompt_with_arguments(
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// The values a client completing an argument of
/// `test_prompt_with_arguments` is offered.
fn complete_arguments(argument: &str, prefix: &str) -> Vec<String> {
    let values: &[&str] = match argument {
        "arg1" => &["paris", "park", "party"],
        _ => &[],
    };
    values
        .iter()
        .filter(|value| value.starts_with(prefix))
        .map(|value| (*value).to_owned())
        .collect()
}

/// A prompt with an embedded resource
#[prompt]
fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    #[serde(rename = "resourceUri")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Part::from(
            Media::new("text/plain", "Embedded resource content for testing.").named(resource_uri),
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with image content
#[prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Image::png(decoded(PNG))),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// What context a prompt should use.
#[derive(serde::Deserialize, schemars::JsonSchema, tool_core::elicit::Elicit)]
struct UseContext {
    /// The context.
    context: String,
}

// SEP-2322: not only tools ask.
/// A prompt that asks the user what context to use
#[prompt]
async fn test_input_required_result_prompt(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    let asked = ctx
        .elicit::<UseContext>("What context should the prompt use?")
        .key("user_context")
        .await?;
    let context = asked
        .accepted()
        .map_or_else(|| "none".to_owned(), |answer| answer.context);
    Ok(format!("Use this context: {context}"))
}

/// The tool of this file, added to `registry`.
pub(crate) fn with_prompt_change(registry: ToolRegistry<Fixtures>) -> ToolRegistry<Fixtures> {
    registry.with(TestTriggerPromptChange)
}

/// Adds a prompt, or takes it away again: every client listening for
/// changes of the prompt list is told.
#[tool]
async fn test_trigger_prompt_change(ctx: &ToolContext<Fixtures>) -> &'static str {
    let Some(server) = ctx.state().server.get() else {
        return "the prompts cannot change here";
    };
    if server.prompts().get("test_added_prompt").is_some() {
        server.replace_prompts(prompts()).await;
        "test_added_prompt removed"
    } else {
        server
            .replace_prompts(prompts().with(TestAddedPrompt))
            .await;
        "test_added_prompt added"
    }
}

/// A prompt that comes and goes
#[prompt]
fn test_added_prompt() -> &'static str {
    "here for now"
}
