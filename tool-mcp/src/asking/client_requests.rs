//! What a tool asks of the MCP client besides the person's answers:
//! sampling (`sampling/createMessage`) and roots (`roots/list`). In a
//! session (2025-11-25 and before) they are requests to the client; in
//! 2026-07-28 they ride the call's `input_required` rounds
//! (`input_required.rs`). Both read and write them here.
//!
//! rmcp marks sampling and roots deprecated (SEP-2577, which moves them
//! elsewhere in a later revision); 2025-11-25 and 2026-07-28 both have
//! them.

#![allow(deprecated)]

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ListRootsResult,
};
use rmcp::service::{Peer, RequestContext};
use serde_json::{Value, json};
use tool_core::BoxFuture;
use tool_core::client::{ClientError, ClientRequests, Root, SampleRequest, Sampled};
use tool_core::output::Part;
use tool_core::prompt::Role;
use tool_core::provider::mcp::tool_result;

/// What the client declared it takes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Takes {
    pub(crate) elicitation: bool,
    pub(crate) sampling: bool,
    pub(crate) roots: bool,
}

impl Takes {
    /// What the request's client takes: its `initialize` capabilities, or
    /// its request's `_meta` (2026-07-28).
    pub(crate) fn of(request: &RequestContext<RoleServer>) -> Self {
        Self::from(request.client_capabilities().as_ref())
    }

    pub(crate) fn from(capabilities: Option<&ClientCapabilities>) -> Self {
        let Some(capabilities) = capabilities else {
            return Self::default();
        };
        Self {
            elicitation: capabilities
                .elicitation
                .as_ref()
                // A capability that names no mode means form.
                .is_some_and(|modes| modes.form.is_some() || modes.url.is_none()),
            sampling: capabilities.sampling.is_some(),
            roots: capabilities.roots.is_some(),
        }
    }
}

/// Why a client that did not declare `capability` cannot be asked.
pub(crate) fn not_taken(capability: &str) -> ClientError {
    ClientError::Unsupported {
        reason: format!(
            "the MCP client does not take {capability} (it declared no `{capability}` capability)"
        ),
    }
}

/// `sampling/createMessage`'s parameters for `request`.
pub(crate) fn sampling_params(
    request: &SampleRequest,
) -> Result<CreateMessageRequestParams, ClientError> {
    let messages: Vec<Value> = request
        .messages()
        .iter()
        .map(|message| json!({"role": message.role().as_str(), "content": message.content()}))
        .collect();
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens_or_default()});
    if let Some(system) = request.system_prompt() {
        params["systemPrompt"] = Value::from(system);
    }
    serde_json::from_value(params).map_err(|error| ClientError::Failed {
        message: format!("MCP cannot carry this sampling request: {error}"),
    })
}

/// The client's answer to `sampling/createMessage`, as JSON (a
/// `CreateMessageResult`).
pub(crate) fn sampled(answer: &Value) -> Option<Sampled> {
    let result: CreateMessageResult = serde_json::from_value(answer.clone()).ok()?;
    let message = serde_json::to_value(&result.message).ok()?;
    let role = match message["role"].as_str() {
        Some("user") => Role::User,
        _ => Role::Assistant,
    };
    let content = part_of_block(&message["content"]);
    let mut sampled = Sampled::text(result.model, "");
    sampled.content = content;
    sampled.role = role;
    sampled.stop_reason = result.stop_reason;
    Some(sampled)
}

/// A content block of MCP's as a part, as a tool result's block reads;
/// anything else (a list of blocks: an answer with tool calls) as its
/// JSON.
pub(crate) fn part_of_block(block: &Value) -> Part {
    if !block.is_object() {
        return Part::Json(block.clone());
    }
    match tool_result(&json!({"content": [block]})) {
        Ok(result) => match result.as_parts().and_then(|parts| parts.first()) {
            Some(part) => part.clone(),
            // One text block is a result of text, not of parts.
            None => Part::Text(result.model_text().into_owned()),
        },
        Err(_) => Part::Json(block.clone()),
    }
}

/// The client's answer to `roots/list`, as JSON (a `ListRootsResult`).
pub(crate) fn roots_of(answer: &Value) -> Option<Vec<Root>> {
    let result: ListRootsResult = serde_json::from_value(answer.clone()).ok()?;
    Some(
        result
            .roots
            .into_iter()
            .map(|root| Root {
                uri: root.uri,
                name: root.name,
            })
            .collect(),
    )
}

/// The client of a request in a session, asked directly.
pub(crate) struct SessionClient {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) takes: Takes,
}

impl ClientRequests for SessionClient {
    fn sample<'a>(
        &'a self,
        request: &'a SampleRequest,
    ) -> BoxFuture<'a, Result<Sampled, ClientError>> {
        Box::pin(async move {
            if !self.takes.sampling {
                return Err(not_taken("sampling"));
            }
            let params = sampling_params(request)?;
            let answer =
                self.peer
                    .create_message(params)
                    .await
                    .map_err(|error| ClientError::Failed {
                        message: format!("asking the MCP client failed: {error}"),
                    })?;
            let answer = serde_json::to_value(answer).unwrap_or_default();
            sampled(&answer).ok_or_else(|| ClientError::Failed {
                message: "the MCP client's answer is not a sampling result".to_owned(),
            })
        })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ClientError>> {
        Box::pin(async move {
            if !self.takes.roots {
                return Err(not_taken("roots"));
            }
            let answer = self
                .peer
                .list_roots()
                .await
                .map_err(|error| ClientError::Failed {
                    message: format!("asking the MCP client failed: {error}"),
                })?;
            let answer = serde_json::to_value(answer).unwrap_or_default();
            roots_of(&answer).ok_or_else(|| ClientError::Failed {
                message: "the MCP client's answer is not a list of roots".to_owned(),
            })
        })
    }
}
