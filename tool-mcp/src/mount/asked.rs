//! What a mounted server asks of the client during a call, answered
//! through the call's own context: a question put to the person behind it
//! ([`ToolContext::elicit_form`], as a local tool's question is), and,
//! where the mount takes them, a request of the client's model
//! ([`ToolContext::sample`]) or of its roots ([`ToolContext::roots`]).
//! The answer is MCP's result, as JSON, whichever way it goes back: a
//! response over a session, an entry of `inputResponses` over
//! 2026-07-28.

// rmcp marks sampling and roots deprecated (SEP-2577, which moves them in
// a later revision); 2025-11-25 and 2026-07-28 both have them.
#![allow(deprecated)]

use rmcp::ErrorData as McpError;
use rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, InputRequest,
};
use serde_json::{Value, json};
use tool_core::ToolContext;
use tool_core::client::{ClientError, SampleRequest};
use tool_core::elicit::{ElicitError, Elicitation};
use tool_core::prompt::{PromptMessage, Role};

use crate::asking::client_requests::part_of_block;

/// What the mount takes of a server besides its questions to the person,
/// which it always takes ([`Mount::sampling`](super::Mount::sampling),
/// [`Mount::roots`](super::Mount::roots)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Takes {
    pub(crate) sampling: bool,
    pub(crate) roots: bool,
}

/// A request a server makes of the client.
pub(crate) enum ServerAsks {
    Elicit(ElicitRequestParams),
    Sample(CreateMessageRequestParams),
    Roots,
}

impl ServerAsks {
    /// The request an entry of `inputRequests` makes, if it is one the
    /// mount knows.
    pub(crate) fn of_input(request: InputRequest) -> Option<Self> {
        match request {
            InputRequest::Elicitation(request) => Some(Self::Elicit(request.params)),
            InputRequest::CreateMessage(request) => Some(Self::Sample(request.params)),
            InputRequest::ListRoots(_) => Some(Self::Roots),
            _ => None,
        }
    }
}

/// Answers `request` through `ctx`: MCP's result as JSON, or why there is
/// none, for the server.
pub(crate) async fn answer<Ctx: Send + Sync>(
    ctx: &ToolContext<Ctx>,
    takes: Takes,
    request: ServerAsks,
) -> Result<Value, McpError> {
    match request {
        ServerAsks::Elicit(params) => {
            let answer = put(ctx, params).await?;
            Ok(serde_json::to_value(answer).unwrap_or_default())
        }
        ServerAsks::Sample(_) if !takes.sampling => Err(not_taken("sampling")),
        ServerAsks::Sample(params) => {
            let sampled = ctx
                .sample(sample_request(&params))
                .await
                .map_err(|error| refused(&error))?;
            let content = serde_json::to_value(&sampled.content).unwrap_or_default();
            let result = json!({
                "model": sampled.model,
                "role": sampled.role.as_str(),
                "content": content,
                "stopReason": sampled.stop_reason,
            });
            // Read back as rmcp's model, so that what goes is MCP's.
            let result: CreateMessageResult = serde_json::from_value(result).map_err(|error| {
                McpError::internal_error(
                    format!("the client's model answered what MCP cannot carry: {error}"),
                    None,
                )
            })?;
            Ok(serde_json::to_value(result).unwrap_or_default())
        }
        ServerAsks::Roots if !takes.roots => Err(not_taken("roots")),
        ServerAsks::Roots => {
            let roots = ctx.roots().await.map_err(|error| refused(&error))?;
            let roots: Vec<Value> = roots
                .into_iter()
                .map(|root| match root.name {
                    Some(name) => json!({"uri": root.uri, "name": name}),
                    None => json!({"uri": root.uri}),
                })
                .collect();
            Ok(json!({ "roots": roots }))
        }
    }
}

/// What a server asks of the client's model, as a registry's sampling
/// request: each message's content read as a result's block is.
fn sample_request(params: &CreateMessageRequestParams) -> SampleRequest {
    let messages = params.messages.iter().map(|message| {
        let message = serde_json::to_value(message).unwrap_or_default();
        let role = match message["role"].as_str() {
            Some("assistant") => Role::Assistant,
            _ => Role::User,
        };
        PromptMessage::new(role, part_of_block(&message["content"]))
    });
    let mut request = SampleRequest::conversation(messages).max_tokens(params.max_tokens);
    if let Some(system) = &params.system_prompt {
        request = request.system(system.clone());
    }
    request
}

/// Puts the server's question to the person behind `ctx`'s call: the
/// answer as MCP's elicitation result, or why none can come.
async fn put<Ctx: Send + Sync>(
    ctx: &ToolContext<Ctx>,
    params: ElicitRequestParams,
) -> Result<ElicitResult, McpError> {
    let (message, schema) = match params {
        ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => (
            message,
            serde_json::to_value(requested_schema).unwrap_or(Value::Null),
        ),
        // The person is asked in forms only; a link to follow is for a
        // client that shows one, which the mount does not say it is.
        _ => {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        }
    };
    match ctx.elicit_form(message, schema).await {
        Ok(Elicitation::Accept(content)) => {
            Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
        }
        Ok(Elicitation::Decline) => Ok(ElicitResult::new(ElicitationAction::Decline)),
        Ok(Elicitation::Cancel) => Ok(ElicitResult::new(ElicitationAction::Cancel)),
        Err(error) => Err(unanswered(&error)),
    }
}

/// Why no answer came, for the server.
fn unanswered(error: &ElicitError) -> McpError {
    McpError::internal_error(error.to_string(), None)
}

/// Why the client gave no answer, for the server.
fn refused(error: &ClientError) -> McpError {
    McpError::internal_error(error.to_string(), None)
}

/// What a server asking what the mount does not take is answered.
fn not_taken(capability: &str) -> McpError {
    McpError::invalid_request(
        format!(
            "this client does not take {capability} (it declared no `{capability}` capability)"
        ),
        None,
    )
}
