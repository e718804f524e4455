//! Who approves a `Confirm` tool's call over MCP: the person at the client,
//! asked through elicitation when the client can be asked; otherwise the
//! approval hook set on the server, or else the registry's; with none of
//! them, a denial that says what the server's developer has to set.

use std::fmt::Write as _;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ElicitRequestParams, ElicitationAction, ElicitationSchema};
use rmcp::service::{Peer, RequestContext};
use tool_core::context::ContextBuilder;
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, ToolTier};
use tool_core::{ToolContext, ToolRegistry};

use crate::asking::input_required::{Round, RoundApproval};
use crate::server::McpServer;

/// The most of the arguments shown to the person asked, in characters.
const SHOWN_ARGUMENTS: usize = 2_000;

/// The context a call runs in, with the approver of this request when the
/// tool (of tier `tier`, `None` for a name that is no tool's) asks for one.
pub(crate) fn with_approver<Ctx: Send + Sync + 'static>(
    server: &McpServer<Ctx>,
    registry: &ToolRegistry<Ctx>,
    tier: Option<ToolTier>,
    (request, round): (&RequestContext<RoleServer>, Option<&Arc<Round>>),
    ctx: ToolContext<Ctx>,
) -> ToolContext<Ctx> {
    if tier != Some(ToolTier::Confirm) {
        return ctx;
    }
    // 2026-07-28: the person is asked in the call's round.
    if let Some(round) = round
        && round.takes_elicitation()
    {
        return ContextBuilder::from(ctx)
            .approval(RoundApproval(Arc::clone(round)))
            .build();
    }
    if can_elicit(request) {
        return ContextBuilder::from(ctx)
            .approval(ApprovalFromClient {
                peer: request.peer.clone(),
            })
            .build();
    }
    match (&server.approval, registry.approvals().has_hook()) {
        (Some(install), _) => install(ctx),
        (None, true) => ctx,
        (None, false) => ContextBuilder::from(ctx).approval(NoOneToAsk).build(),
    }
}

/// Whether the client can be asked a question now: it declared form
/// elicitation, and its protocol lets a server send requests (2026-07-28
/// forbids them).
pub(crate) fn can_elicit(request: &RequestContext<RoleServer>) -> bool {
    // A session begun with `initialize`: the 2026-07-28 lifecycle keeps no
    // peer info.
    request.peer.peer_info().is_some()
        && request
            .protocol_version()
            .is_none_or(|version| version.has_initialize())
        && request.client_capabilities().is_some_and(|capabilities| {
            capabilities
                .elicitation
                // A capability that names no mode means form.
                .is_some_and(|modes| modes.form.is_some() || modes.url.is_none())
        })
}

/// Asks the person at the client, through MCP elicitation, whether the call
/// may run: accepting approves, declining or dismissing denies.
struct ApprovalFromClient {
    peer: Peer<RoleServer>,
}

impl<Ctx: Send + Sync> ApprovalHook<Ctx> for ApprovalFromClient {
    async fn approve(&self, request: &ApprovalRequest<'_, Ctx>) -> Approval {
        let question = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: approval_question(request.tool, request.arguments),
            // Nothing to fill in: the answer is the action.
            requested_schema: ElicitationSchema::new(Default::default()),
        };
        match self.peer.create_elicitation(question).await {
            Ok(answer) => match answer.action {
                ElicitationAction::Accept => Approval::Approve,
                ElicitationAction::Decline => {
                    Approval::deny("the person at the client declined it")
                }
                // Cancel, and any answer added later: not a yes.
                _ => Approval::deny("the person at the client dismissed the question"),
            },
            Err(error) => {
                tracing::warn!(tool = request.tool, %error, "asking the MCP client for approval failed");
                Approval::deny("the person at the client could not be asked")
            }
        }
    }
}

/// What the person is asked: the tool, and its arguments as JSON, bounded.
pub(crate) fn approval_question(tool: &str, arguments: &serde_json::Value) -> String {
    let mut shown = serde_json::to_string_pretty(arguments).unwrap_or_default();
    if let Some((cut, _)) = shown.char_indices().nth(SHOWN_ARGUMENTS) {
        shown.truncate(cut);
        shown.push('…');
    }
    let mut message = format!("Allow the tool `{tool}` to run");
    if arguments
        .as_object()
        .is_some_and(|object| !object.is_empty())
    {
        let _ = write!(message, " with these arguments?\n{shown}");
    } else {
        message.push('?');
    }
    message
}

/// Denies, saying what the server's developer has to set.
struct NoOneToAsk;

/// The reason a `Confirm` call is denied when nothing can approve it.
pub(crate) const NO_ONE_TO_ASK: &str = "it needs approval (tier `Confirm`), and this MCP server can ask no one: the client does not take elicitation, and the server has no approval hook (set one with `McpServer::with_approval`); do not call it again";

impl<Ctx: Send + Sync> ApprovalHook<Ctx> for NoOneToAsk {
    async fn approve(&self, _: &ApprovalRequest<'_, Ctx>) -> Approval {
        Approval::deny(NO_ONE_TO_ASK)
    }
}

/// Says once, as the server starts, which of its tools some or all callers
/// can never run, and why.
pub(crate) fn warn_unrunnable<Ctx: Send + Sync + 'static>(server: &McpServer<Ctx>) {
    for (tool, why) in unrunnable(server) {
        tracing::warn!(tool, "{why}");
    }
}

/// Each tool some or all callers can never run, and why.
fn unrunnable<Ctx: Send + Sync + 'static>(server: &McpServer<Ctx>) -> Vec<(String, String)> {
    let registry = server.registry();
    let hooked = server.approval.is_some() || registry.approvals().has_hook();
    let mut found = Vec::new();
    for tool in registry.tools() {
        if tool.metadata.tier == ToolTier::Confirm && !hooked {
            found.push((
                tool.definition.name.to_owned(),
                format!(
                    "tool `{}` is of tier `Confirm`, and neither the server nor the registry has an approval hook: it runs only for clients that take MCP elicitation (set one with `McpServer::with_approval`)",
                    tool.definition.name
                ),
            ));
        }
        if server.config.verifier.is_none()
            && let Some(fixed) = server.fixed_context()
            && let Some(scope) = tool
                .metadata
                .scopes
                .iter()
                .find(|scope| !fixed.has_scope(scope))
        {
            found.push((
                tool.definition.name.to_owned(),
                format!(
                    "tool `{}` requires the scope `{scope}`, which the server's context does not grant and no bearer token can: no caller can run it, and it is not listed",
                    tool.definition.name
                ),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tool_core::policy::ApproveAll;
    use tool_core::registry::RegistryBuilder;
    use tool_core::{ToolContext, ToolRegistry, tool};

    use super::{SHOWN_ARGUMENTS, approval_question as question, unrunnable};
    use crate::{BearerTokens, McpServer};

    #[test]
    fn the_person_is_asked_about_the_tool_and_its_arguments_bounded() {
        assert_eq!(
            question("delete_note", &json!({"id": 7})),
            "Allow the tool `delete_note` to run with these arguments?\n{\n  \"id\": 7\n}"
        );
        assert_eq!(
            question("empty_trash", &json!({})),
            "Allow the tool `empty_trash` to run?"
        );
        let long = question("save", &json!({"text": "x".repeat(5_000)}));
        assert!(long.ends_with('…'), "{long}");
        assert!(
            long.chars().count() < SHOWN_ARGUMENTS + 80,
            "{}",
            long.chars().count()
        );
    }

    /// Delete a note.
    #[tool(tier = Confirm)]
    fn delete_note(id: u32) -> String {
        format!("deleted {id}")
    }

    /// Read a note.
    #[tool(read_only, scopes = ["notes:read"])]
    fn read_note(id: u32) -> String {
        format!("note {id}")
    }

    /// Add.
    #[tool(read_only)]
    fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    #[test]
    fn the_server_names_at_start_each_tool_that_some_callers_can_never_run() {
        let registry = || {
            ToolRegistry::new()
                .with(DeleteNote)
                .with(ReadNote)
                .with(Add)
        };
        let server = McpServer::new(registry(), ToolContext::new(()));
        assert_eq!(
            unrunnable(&server),
            [
                (
                    "delete_note".to_owned(),
                    "tool `delete_note` is of tier `Confirm`, and neither the server nor the registry has an approval hook: it runs only for clients that take MCP elicitation (set one with `McpServer::with_approval`)".to_owned()
                ),
                (
                    "read_note".to_owned(),
                    "tool `read_note` requires the scope `notes:read`, which the server's context does not grant and no bearer token can: no caller can run it, and it is not listed".to_owned()
                ),
            ]
        );
        // A hook, and tokens that may grant the scope: nothing to say.
        let server = McpServer::new(registry(), ToolContext::new(()))
            .with_approval(ApproveAll)
            .with_config(
                crate::McpConfig::new()
                    .with_bearer_auth(BearerTokens::new().with_token("t", ["notes:read"])),
            );
        assert_eq!(unrunnable(&server), []);
        let server = McpServer::new(
            RegistryBuilder::from(registry())
                .approval(ApproveAll)
                .build(),
            ToolContext::builder(()).scopes(["notes:read"]).build(),
        );
        assert_eq!(unrunnable(&server), []);
    }
}
