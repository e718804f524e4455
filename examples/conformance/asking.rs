//! The tools that ask the client things: the person (elicitation), its
//! model (sampling), its roots. Over a session (2025-11-25) each is a
//! request to the client; over 2026-07-28, an `input_required` round of
//! the call, answered by the client's next call.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::client::{ClientError, SampleRequest};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::observe::LogLevel;
use tool_core::registry::OnDuplicate;
use tool_core::{ToolContext, ToolRegistry, tool};

use crate::server::Fixtures;

/// The tools of this file, added to `registry`.
pub(crate) fn with_asking(registry: ToolRegistry<Fixtures>) -> ToolRegistry<Fixtures> {
    registry
        .with(TestSampling)
        .with(TestMissingCapability)
        .with(TestStreamingElicitation)
        .with(TestLoggingTool)
        .with(TestInputRequiredResultElicitation)
        .with(TestInputRequiredResultSampling)
        .with(TestInputRequiredResultListRoots)
        .with(TestInputRequiredResultRequestState)
        .with(TestInputRequiredResultMultipleInputs)
        .with(TestInputRequiredResultMultiRound)
        .with(TestInputRequiredResultTamperedState)
        .with(TestInputRequiredResultCapabilities)
        .with(TestCustomHeader)
        .with(TestReconnection)
        .with(TestTriggerToolChange)
}

/// Asks the client's model to answer a prompt.
#[tool(samples)]
async fn test_sampling(
    ctx: &ToolContext<Fixtures>,
    /// What to ask the model.
    prompt: String,
) -> Result<String, ClientError> {
    let sampled = ctx
        .sample(SampleRequest::new(prompt).max_tokens(100))
        .await?;
    Ok(format!(
        "LLM response: {}",
        sampled.as_text().unwrap_or_default()
    ))
}

/// Requires the sampling client capability.
#[tool(samples)]
async fn test_missing_capability(ctx: &ToolContext<Fixtures>) -> Result<String, ClientError> {
    let sampled = ctx
        .sample(SampleRequest::new("Say hello.").max_tokens(20))
        .await?;
    Ok(sampled.as_text().unwrap_or_default().to_owned())
}

/// A name.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Name {
    /// Your name.
    name: String,
}

/// Asks the user's name, as an `input_required` result over 2026-07-28.
#[tool(asks)]
async fn test_streaming_elicitation(ctx: &ToolContext<Fixtures>) -> Result<String, ElicitError> {
    ctx.progress(0, 1, "asking");
    Ok(greeting(
        ctx.elicit::<Name>("What is your name?")
            .key("user_name")
            .await?,
    ))
}

/// Writes a line to its log: a client of 2026-07-28 hears it only when it
/// asks for a level.
#[tool(read_only)]
fn test_logging_tool(ctx: &ToolContext<Fixtures>) -> &'static str {
    ctx.log(LogLevel::Info, "logLevel was requested");
    "Logging tool completed"
}

fn greeting(answer: Elicitation<Name>) -> String {
    match answer {
        Elicitation::Accept(Name { name }) => format!("Hello, {name}!"),
        Elicitation::Decline => "The user declined to give a name.".to_owned(),
        Elicitation::Cancel => "The user closed the question.".to_owned(),
    }
}

/// Asks the user's name (SEP-2322).
#[tool(asks)]
async fn test_input_required_result_elicitation(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    Ok(greeting(
        ctx.elicit::<Name>("What is your name?")
            .key("user_name")
            .await?,
    ))
}

/// Asks the client's model a question (SEP-2322).
#[tool(samples)]
async fn test_input_required_result_sampling(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ClientError> {
    let request = SampleRequest::new("What is the capital of France?")
        .max_tokens(100)
        .key("capital_question");
    let sampled = ctx.sample(request).await?;
    Ok(format!(
        "The model said: {}",
        sampled.as_text().unwrap_or_default()
    ))
}

/// Asks the client for its roots (SEP-2322).
#[tool(asks)]
async fn test_input_required_result_list_roots(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ClientError> {
    let roots = ctx.roots().await?;
    let uris: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
    Ok(format!("Roots: {}", uris.join(", ")))
}

/// A yes or a no.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Confirm {
    /// Whether to go on.
    ok: bool,
}

/// Asks for a confirmation, carried in the request state (SEP-2322).
#[tool(asks)]
async fn test_input_required_result_request_state(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    confirmed(ctx).await
}

async fn confirmed(ctx: &ToolContext<Fixtures>) -> Result<String, ElicitError> {
    Ok(
        match ctx
            .elicit::<Confirm>("Please confirm")
            .key("confirm")
            .await?
        {
            Elicitation::Accept(Confirm { ok: true }) => "state-ok".to_owned(),
            _ => "not confirmed".to_owned(),
        },
    )
}

/// Asks the person, the model and the roots at once (SEP-2322).
#[tool(asks, samples)]
async fn test_input_required_result_multiple_inputs(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, String> {
    let name = ctx.elicit::<Name>("What is your name?").key("user_name");
    let greeting = ctx.sample(
        SampleRequest::new("Say a greeting.")
            .max_tokens(50)
            .key("greeting"),
    );
    let (name, greeting, roots) = tokio::join!(name.into_future(), greeting, ctx.roots());
    let name = name.map_err(|error| error.to_string())?;
    let greeting = greeting.map_err(|error| error.to_string())?;
    let roots = roots.map_err(|error| error.to_string())?;
    Ok(format!(
        "{} {} ({} roots)",
        self::greeting(name),
        greeting.as_text().unwrap_or_default(),
        roots.len()
    ))
}

/// A colour.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Colour {
    /// Your favourite colour.
    color: String,
}

/// Asks twice, one question a round (SEP-2322).
#[tool(asks)]
async fn test_input_required_result_multi_round(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    let name = greeting(
        ctx.elicit::<Name>("What is your name?")
            .key("step1")
            .await?,
    );
    let colour = match ctx
        .elicit::<Colour>("What is your favourite colour?")
        .key("step2")
        .await?
    {
        Elicitation::Accept(Colour { color }) => color,
        _ => "none".to_owned(),
    };
    Ok(format!("{name} Your colour is {colour}."))
}

/// Asks for a confirmation; a state altered on the way back is refused
/// (SEP-2322).
#[tool(asks)]
async fn test_input_required_result_tampered_state(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    confirmed(ctx).await
}

/// Asks only what the client takes: the person when it takes
/// elicitation, its model when it takes sampling (SEP-2322).
#[tool(asks)]
async fn test_input_required_result_capabilities(ctx: &ToolContext<Fixtures>) -> String {
    let name = ctx.elicit::<Name>("What is your name?").key("user_name");
    let greeting = ctx.sample(
        SampleRequest::new("Generate a greeting")
            .max_tokens(50)
            .key("greeting"),
    );
    // A question the client does not take fails at once; the other is
    // asked.
    let (name, greeting) = tokio::join!(name.into_future(), greeting);
    format!(
        "Capability-aware flow complete: name {}, greeting {}",
        if name.is_ok() { "given" } else { "not asked" },
        if greeting.is_ok() {
            "given"
        } else {
            "not asked"
        }
    )
}

/// Echoes a value its client mirrors into the `Mcp-Param-Value` header
/// (SEP-2243): the server checks that the two agree.
#[tool(read_only)]
fn test_custom_header(
    /// The value.
    #[schemars(extend("x-mcp-header" = "Value"))]
    value: String,
) -> String {
    format!("Received: {value}")
}

/// Answers after a moment: a client whose stream closes meanwhile takes
/// its answer up again where it stopped.
#[tool(read_only)]
async fn test_reconnection() -> &'static str {
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    "Reconnection test completed"
}

/// Adds a tool, or takes it away again: every client listening for
/// changes of the tool list is told.
#[tool]
fn test_trigger_tool_change(ctx: &ToolContext<Fixtures>) -> &'static str {
    let Some(tools) = ctx.state().tools.get() else {
        return "the tools cannot change here";
    };
    if tools.remove("test_added_tool") {
        "test_added_tool removed"
    } else {
        let _ = tools.insert(TestAddedTool, OnDuplicate::Replace);
        "test_added_tool added"
    }
}

/// A tool that comes and goes.
#[tool(read_only)]
fn test_added_tool() -> &'static str {
    "here for now"
}
