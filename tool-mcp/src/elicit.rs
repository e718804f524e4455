//! Who answers the questions of a tool marked `asks` over MCP: the person
//! at the client, through elicitation (form mode), when the client can be
//! asked; otherwise no one, with the reason the tool (and its model)
//! reads. A task's tool runs on past its request: its questions are parked
//! in the registry, for the server's application to answer
//! ([`Questions::answer`](tool_core::registry::Questions::answer)).

use rmcp::RoleServer;
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{Peer, RequestContext};
use serde_json::Value;
use tool_core::context::ContextBuilder;
use tool_core::elicit::{Answer, Asker, ElicitError, Question};
use tool_core::{BoxFuture, ToolContext};

use crate::approval::can_elicit;

/// The context of a request's call of a tool that asks (`asks`), with who
/// answers its questions.
pub(crate) fn with_asker<Ctx>(
    asks: bool,
    request: &RequestContext<RoleServer>,
    ctx: ToolContext<Ctx>,
) -> ToolContext<Ctx> {
    if !asks {
        return ctx;
    }
    if can_elicit(request) {
        return ContextBuilder::from(ctx)
            .asker(QuestionsToClient {
                peer: request.peer.clone(),
            })
            .build();
    }
    let reason = if request.peer.peer_info().is_none()
        || request
            .protocol_version()
            .is_some_and(|version| !version.has_initialize())
    {
        "the MCP client is connected without a session (protocol 2026-07-28, or stateless \
         HTTP), so the server can send it no question"
    } else {
        "the MCP client does not take elicitation (it declared no `elicitation` form capability)"
    };
    ContextBuilder::from(ctx).no_one_to_ask(reason).build()
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
