//! The tools the suite's scenarios call, in the order it lists them: the
//! first takes no arguments, as `http-header-validation` calls the first
//! tool listed with `{}`.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::observe::LogLevel;
use tool_core::output::{Image, Media, Part};
use tool_core::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult, tool};

use crate::server::Fixtures;

/// A 1x1 PNG, red.
pub(crate) const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file of no samples.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

pub(crate) fn decoded(base64_text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(base64_text)
        .unwrap_or_default()
}

/// Every tool of the suite's scenarios.
pub(crate) fn registry() -> ToolRegistry<Fixtures> {
    let registry = ToolRegistry::new()
        .with(TestSimpleText)
        .with(TestImageContent)
        .with(TestAudioContent)
        .with(TestEmbeddedResource)
        .with(TestMultipleContentTypes)
        .with(TestToolWithLogging)
        .with(TestErrorHandling)
        .with(TestToolWithProgress)
        .with(TestElicitation)
        .with(TestElicitationSep1034Defaults)
        .with(TestElicitationSep1330Enums)
        .with(JsonSchema2020);
    let registry = crate::tasks::with_tasks(crate::asking::with_asking(registry));
    crate::prompts::with_prompt_change(registry)
}

/// Answers with a simple text.
#[tool(read_only)]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Answers with an image.
#[tool(read_only)]
fn test_image_content() -> Vec<Part> {
    vec![Image::png(decoded(PNG)).into()]
}

/// Answers with audio.
#[tool(read_only)]
fn test_audio_content() -> Vec<Part> {
    vec![Media::new("audio/wav", decoded(WAV)).into()]
}

/// Answers with an embedded resource.
#[tool(read_only)]
fn test_embedded_resource() -> Vec<Part> {
    vec![
        Media::new("text/plain", "This is an embedded resource content.")
            .named("test://embedded-resource")
            .into(),
    ]
}

/// Answers with text, an image and an embedded resource.
#[tool(read_only)]
fn test_multiple_content_types() -> Vec<Part> {
    vec![
        "Multiple content types test:".into(),
        Image::png(decoded(PNG)).into(),
        Media::new(
            "application/json",
            json!({"test": "data", "value": 123}).to_string(),
        )
        .named("test://mixed-content-resource")
        .into(),
    ]
}

/// Writes three lines to its log as it runs.
#[tool(read_only)]
async fn test_tool_with_logging(ctx: &ToolContext<Fixtures>) -> &'static str {
    for line in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ] {
        ctx.log(LogLevel::Info, line);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    "Logging test completed"
}

/// Fails, on purpose.
#[tool(read_only)]
fn test_error_handling() -> Result<&'static str, String> {
    Err("This tool intentionally returns an error for testing".to_owned())
}

/// Reports its progress three times.
#[tool(read_only)]
async fn test_tool_with_progress(ctx: &ToolContext<Fixtures>) -> &'static str {
    for done in [0, 50, 100] {
        ctx.progress(done, 100, format!("{done}% done"));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    "Progress test completed"
}

/// What `test_elicitation` asks for.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Contact {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user for their name and email.
#[tool(asks)]
async fn test_elicitation(
    ctx: &ToolContext<Fixtures>,
    /// What to ask.
    message: String,
) -> Result<String, ElicitError> {
    Ok(match ctx.elicit::<Contact>(message).await? {
        Elicitation::Accept(contact) => format!(
            "User provided: username={}, email={}",
            contact.username, contact.email
        ),
        Elicitation::Decline => "User declined".to_owned(),
        Elicitation::Cancel => "User cancelled".to_owned(),
    })
}

fn john_doe() -> String {
    "John Doe".to_owned()
}
fn thirty() -> i64 {
    30
}
fn ninety_five_and_a_half() -> f64 {
    95.5
}
fn yes() -> bool {
    true
}

/// A status, as `test_elicitation_sep1034_defaults` offers it.
#[derive(Deserialize, JsonSchema, Elicit, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

/// What `test_elicitation_sep1034_defaults` asks for: every kind of
/// field, with a default.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Defaults {
    /// Name.
    #[serde(default = "john_doe")]
    name: String,
    /// Age.
    #[serde(default = "thirty")]
    age: i64,
    /// Score.
    #[serde(default = "ninety_five_and_a_half")]
    score: f64,
    /// Status.
    #[serde(default)]
    status: Status,
    /// Verified.
    #[serde(default = "yes")]
    verified: bool,
}

/// Asks for fields that have defaults (SEP-1034).
#[tool(asks)]
async fn test_elicitation_sep1034_defaults(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    Ok(
        match ctx
            .elicit::<Defaults>("Please review and update the form fields with defaults")
            .await?
        {
            Elicitation::Accept(form) => format!(
                "Elicitation completed: action=accept, content={}",
                json!({"name": form.name, "age": form.age, "score": form.score, "status": form.status, "verified": form.verified})
            ),
            Elicitation::Decline => "Elicitation completed: action=decline".to_owned(),
            Elicitation::Cancel => "Elicitation completed: action=cancel".to_owned(),
        },
    )
}

/// One option among three, untitled.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "snake_case")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

/// One option among three, each with a title.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "snake_case")]
enum Titled {
    /// First Option
    Value1,
    /// Second Option
    Value2,
    /// Third Option
    Value3,
}

/// What `test_elicitation_sep1330_enums` asks for: each shape of enum.
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Enums {
    /// Pick one.
    #[serde(rename = "untitledSingle")]
    untitled_single: Untitled,
    /// Pick one.
    #[serde(rename = "titledSingle")]
    titled_single: Titled,
    /// Pick one, titled as MCP 2025-06-18 wrote titles.
    #[serde(rename = "legacyEnum")]
    #[schemars(extend(
        "enum" = ["opt1", "opt2", "opt3"],
        "enumNames" = ["Option One", "Option Two", "Option Three"]
    ))]
    legacy_enum: String,
    /// Pick many.
    #[serde(rename = "untitledMulti")]
    untitled_multi: Vec<Untitled>,
    /// Pick many.
    #[serde(rename = "titledMulti")]
    titled_multi: Vec<Titled>,
}

/// Asks with each shape of enum (SEP-1330).
#[tool(asks)]
async fn test_elicitation_sep1330_enums(
    ctx: &ToolContext<Fixtures>,
) -> Result<String, ElicitError> {
    Ok(
        match ctx
            .elicit::<Enums>("Please select options from the enum fields")
            .await?
        {
            Elicitation::Accept(_) => "Elicitation completed: action=accept".to_owned(),
            Elicitation::Decline => "Elicitation completed: action=decline".to_owned(),
            Elicitation::Cancel => "Elicitation completed: action=cancel".to_owned(),
        },
    )
}

/// A tool whose input schema is written by hand in JSON Schema 2020-12:
/// every keyword of it must reach the client.
struct JsonSchema2020;

impl Tool<Fixtures> for JsonSchema2020 {
    fn name(&self) -> &str {
        "json_schema_2020_12_tool"
    }

    fn description(&self) -> &str {
        "Tool with JSON Schema 2020-12 features"
    }

    fn input_schema(&self) -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        })
    }

    fn call<'a>(
        &'a self,
        _ctx: &'a ToolContext<Fixtures>,
        args: Value,
    ) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move { ToolResult::text(format!("Received: {args}")) })
    }
}
