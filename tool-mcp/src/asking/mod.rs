//! Who answers the questions of a tool marked `asks` (or `samples`) over
//! MCP: the person at the client, through elicitation (form mode), and
//! the client's model and roots, when the client can be asked: in a
//! session, by requests to it; in 2026-07-28, in the call's
//! `input_required` rounds (`input_required.rs`). Otherwise no one, with
//! the reason the tool (and its model) reads. A task's tool runs on past its request: its questions are parked
//! in the registry, for the server's application to answer
//! ([`Questions::answer`](tool_core::registry::Questions::answer)).

pub(crate) mod approval;
pub(crate) mod client_requests;
pub(crate) mod input_required;
pub(crate) mod server_hook;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ElicitRequestParams, ElicitationAction,
    ElicitationSchema, InputResponses,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value};
use tool_core::context::ContextBuilder;
use tool_core::elicit::{Answer, Asker, ElicitError, Question};
use tool_core::{BoxFuture, ToolContext};

use crate::asking::approval::can_elicit;
use crate::asking::client_requests::{SessionClient, Takes};
use crate::asking::input_required::{Round, RoundAsker, RoundClient};
use crate::server::McpServer;
use crate::tasks::TaskOwner;

/// How a request's call of a tool that asks the client things is set up.
pub(crate) enum Asking<Ctx> {
    /// Its context, with who answers; and, in 2026-07-28, the round its
    /// questions go to.
    Ready(ToolContext<Ctx>, Option<Arc<Round>>),
    /// The tool samples and the client does not take sampling: refused
    /// before it runs, in 2026-07-28 as error -32021.
    NoSampling,
}

/// What a request that may ask the client things names: the tool,
/// prompt or resource, its arguments, and, retried in 2026-07-28, the
/// state and the client's responses.
pub(crate) struct Asked<'a> {
    pub(crate) name: &'a str,
    pub(crate) arguments: Option<&'a Map<String, Value>>,
    pub(crate) state: Option<&'a str>,
    pub(crate) responses: Option<&'a InputResponses>,
}

impl<'a> From<&'a CallToolRequestParams> for Asked<'a> {
    fn from(call: &'a CallToolRequestParams) -> Self {
        Self {
            name: &call.name,
            arguments: call.arguments.as_ref(),
            state: call.request_state.as_deref(),
            responses: call.input_responses.as_ref(),
        }
    }
}

/// The context of a request's call of a tool that asks (`asks`) or
/// samples (`samples`), or of a prompt or a resource, with who answers
/// its questions and requests.
pub(crate) fn with_asker<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    (asks, samples): (bool, bool),
    call: Asked<'_>,
    request: &RequestContext<RoleServer>,
    ctx: ToolContext<Ctx>,
) -> Result<Asking<Ctx>, ErrorData> {
    if !asks && !samples {
        return Ok(Asking::Ready(ctx, None));
    }
    let takes = Takes::of(request);
    if samples && !takes.sampling {
        return Ok(Asking::NoSampling);
    }
    if stateless(request) {
        let binding = binding(server, &call, request);
        let round = Arc::new(Round::open(
            &server.config.request_state,
            binding,
            takes,
            call.state,
            call.responses,
        )?);
        let ctx = ContextBuilder::from(ctx)
            .asker(RoundAsker(Arc::clone(&round)))
            .client(RoundClient(Arc::clone(&round)))
            .build();
        return Ok(Asking::Ready(ctx, Some(round)));
    }
    let ctx = ContextBuilder::from(ctx).client(SessionClient {
        peer: request.peer.clone(),
        takes,
    });
    if can_elicit(request) {
        let ctx = ctx
            .asker(QuestionsToClient {
                peer: request.peer.clone(),
            })
            .build();
        return Ok(Asking::Ready(ctx, None));
    }
    let reason = if request.peer.peer_info().is_none() {
        "the MCP client is connected without a session (stateless HTTP), so the server can \
         send it no question"
    } else {
        "the MCP client does not take elicitation (it declared no `elicitation` form capability)"
    };
    Ok(Asking::Ready(ctx.no_one_to_ask(reason).build(), None))
}

/// Whether the request is 2026-07-28's, outside any session: what it asks
/// goes in `input_required` rounds.
pub(crate) fn stateless(request: &RequestContext<RoleServer>) -> bool {
    request
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// What a round's state is bound to: the caller, the tool, and its
/// arguments (their keys in order, so that a client writing them in
/// another order is the same call).
fn binding<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    call: &Asked<'_>,
    request: &RequestContext<RoleServer>,
) -> Vec<u8> {
    let caller = TaskOwner::of(request, server.config.verifier.is_some()).key();
    let arguments = sorted(&Value::Object(call.arguments.cloned().unwrap_or_default()));
    format!("{caller}\0{}\0{arguments}", call.name).into_bytes()
}

/// `value` with every object's keys in order.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|key| (key.clone(), sorted(&map[key])))
                    .collect::<Map<String, Value>>(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Error -32021: the tool samples, and the client declared no sampling.
pub(crate) fn no_sampling(tool: &str) -> ErrorData {
    let mut required = ClientCapabilities::default();
    required.sampling = Some(Default::default());
    let mut error = ErrorData::missing_required_client_capability(required);
    error.message = format!(
        "tool `{tool}` asks the client's model (sampling), and this client declared no `sampling` capability"
    )
    .into();
    error
}

/// Puts each question to the person at the client: MCP elicitation in form
/// mode, with the question's schema as its `requestedSchema`.
struct QuestionsToClient {
    peer: Peer<RoleServer>,
}

impl Asker for QuestionsToClient {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, ElicitError>> {
        Box::pin(async move {
            let Value::Object(schema) = question.schema().clone() else {
                return Err(unsupported("its schema is not an object".to_owned()));
            };
            let requested_schema = ElicitationSchema::from_json_schema(schema)
                .map_err(|error| unsupported(format!("MCP cannot carry its schema: {error}")))?;
            let params = ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: question.message().to_owned(),
                requested_schema,
            };
            let answer = self
                .peer
                .create_elicitation(params)
                .await
                .map_err(|error| unsupported(format!("asking the MCP client failed: {error}")))?;
            Ok(match answer.action {
                // Every field left empty: an empty object.
                ElicitationAction::Accept => Answer::Accept(
                    answer
                        .content
                        .unwrap_or_else(|| Value::Object(Default::default())),
                ),
                ElicitationAction::Decline => Answer::Decline,
                // Cancel, and any action added later: no answer.
                _ => Answer::Cancel,
            })
        })
    }
}

fn unsupported(reason: String) -> ElicitError {
    ElicitError::Unsupported { reason }
}

/// The context a prompt is got or a resource read in: the request's,
/// with who answers what it asks the client, and the round its questions
/// go to in 2026-07-28.
pub(crate) fn asking_context<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    asked: Asked<'_>,
    context: &RequestContext<RoleServer>,
) -> Result<(ToolContext<Ctx>, Option<Arc<Round>>), ErrorData> {
    let ctx = server.context_for(context);
    match with_asker(server, (true, false), asked, context, ctx)? {
        Asking::Ready(ctx, round) => Ok((ctx, round)),
        // Only a tool that samples is refused before it runs.
        Asking::NoSampling => Err(ErrorData::internal_error("sampling refused", None)),
    }
}
