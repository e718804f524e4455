//! The prompts the suite's scenarios get.

use tool_core::output::{Image, Media, Part};
use tool_core::prompt::{
    Prompt, PromptArgument, PromptArguments, PromptError, PromptMessage, Prompts,
};
use tool_core::{BoxFuture, ToolContext};

use crate::tools::{PNG, decoded};

/// Every prompt of the suite's scenarios.
pub(crate) fn prompts() -> Prompts {
    Prompts::new()
        .with(Simple)
        .with(WithArguments)
        .with(WithEmbeddedResource)
        .with(WithImage)
        .with(AsksFirst)
}

type Messages<'a> = BoxFuture<'a, Result<Vec<PromptMessage>, PromptError>>;

/// A prompt of one message.
struct Simple;

impl Prompt for Simple {
    fn name(&self) -> &str {
        "test_simple_prompt"
    }

    fn description(&self) -> &str {
        "A simple prompt without arguments"
    }

    fn get<'a>(&'a self, _: &'a ToolContext, _: &'a PromptArguments) -> Messages<'a> {
        Box::pin(async {
            Ok(vec![PromptMessage::user(
                "This is a simple prompt for testing.",
            )])
        })
    }
}

/// A prompt of two arguments.
struct WithArguments;

impl Prompt for WithArguments {
    fn name(&self) -> &str {
        "test_prompt_with_arguments"
    }

    fn description(&self) -> &str {
        "A prompt with required arguments"
    }

    fn arguments(&self) -> Vec<PromptArgument> {
        vec![
            PromptArgument::required("arg1", "First test argument"),
            PromptArgument::required("arg2", "Second test argument"),
        ]
    }

    fn get<'a>(&'a self, _: &'a ToolContext, arguments: &'a PromptArguments) -> Messages<'a> {
        Box::pin(async move {
            Ok(vec![PromptMessage::user(format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                arguments["arg1"], arguments["arg2"]
            ))])
        })
    }

    fn complete(&self, argument: &str, prefix: &str) -> Vec<String> {
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
}

/// A prompt that embeds a resource.
struct WithEmbeddedResource;

impl Prompt for WithEmbeddedResource {
    fn name(&self) -> &str {
        "test_prompt_with_embedded_resource"
    }

    fn description(&self) -> &str {
        "A prompt with an embedded resource"
    }

    fn arguments(&self) -> Vec<PromptArgument> {
        vec![PromptArgument::required(
            "resourceUri",
            "URI of the resource to embed",
        )]
    }

    fn get<'a>(&'a self, _: &'a ToolContext, arguments: &'a PromptArguments) -> Messages<'a> {
        Box::pin(async move {
            let uri = &arguments["resourceUri"];
            Ok(vec![
                PromptMessage::user(Part::from(
                    Media::new("text/plain", "Embedded resource content for testing.")
                        .named(uri.as_str()),
                )),
                PromptMessage::user("Please process the embedded resource above."),
            ])
        })
    }
}

/// A prompt with an image.
struct WithImage;

impl Prompt for WithImage {
    fn name(&self) -> &str {
        "test_prompt_with_image"
    }

    fn description(&self) -> &str {
        "A prompt with image content"
    }

    fn get<'a>(&'a self, _: &'a ToolContext, _: &'a PromptArguments) -> Messages<'a> {
        Box::pin(async {
            Ok(vec![
                PromptMessage::user(Image::png(decoded(PNG))),
                PromptMessage::user("Please analyze the image above."),
            ])
        })
    }
}

/// What context a prompt should use.
#[derive(serde::Deserialize, schemars::JsonSchema, tool_core::elicit::Elicit)]
struct UseContext {
    /// The context.
    context: String,
}

/// A prompt that asks the user first (SEP-2322: not only tools ask).
struct AsksFirst;

impl Prompt for AsksFirst {
    fn name(&self) -> &str {
        "test_input_required_result_prompt"
    }

    fn description(&self) -> &str {
        "A prompt that asks the user what context to use"
    }

    fn get<'a>(&'a self, ctx: &'a ToolContext, _: &'a PromptArguments) -> Messages<'a> {
        Box::pin(async move {
            let asked = ctx
                .elicit::<UseContext>("What context should the prompt use?")
                .key("user_context")
                .await
                .map_err(|error| PromptError::Failed {
                    prompt: self.name().to_owned(),
                    message: error.to_string(),
                })?;
            let context = asked
                .accepted()
                .map_or_else(|| "none".to_owned(), |answer| answer.context);
            Ok(vec![PromptMessage::user(format!(
                "Use this context: {context}"
            ))])
        })
    }
}
