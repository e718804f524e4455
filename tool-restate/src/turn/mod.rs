//! A turn of an agent loop as a Restate workflow: the tool calls of a
//! model's response run under the registry's batch rules, each a durable
//! step, and a call parked for approval waits on a durable promise.

mod ask;
mod step;
mod wait;
mod workflow;

use std::future::Future;
use std::sync::Arc;

use restate_sdk::endpoint::Endpoint;
use restate_sdk::http_server::HttpServer;
use restate_sdk::service::ServiceDefinition;
use tokio::net::TcpListener;
use tool_core::{ToolContext, ToolRegistry};

use crate::definition::DefinitionError;
use crate::invocation::Invocation;
use crate::service::Served;

/// The name a workflow takes unless given another.
const DEFAULT_NAME: &str = "Turn";

/// One turn of an agent loop as a Restate workflow, keyed by the turn's
/// id: `POST <ingress>/Turn/<turn id>/run` with
/// `{"provider": "anthropic", "response": <the model's response>}` runs
/// the response's tool calls and answers with the turn, in
/// [`Turn`](tool_core::provider::Turn)'s stored form (read it back with
/// `serde_json::from_value::<Turn>`, then
/// [`reply`](tool_core::provider::Turn::reply) or
/// [`append_to`](tool_core::provider::Turn::append_to)).
///
/// - **The turn is [`Provider::respond`](tool_core::provider::Provider::respond)'s**:
///   the response parsed as the named provider's (any of them), the calls
///   run under the registry's [`Batch`](tool_core::registry::Batch) rules,
///   each through the registry's whole pipeline, the reply in the
///   provider's shape.
/// - **Each call is a durable step** (`ctx.run`): a worker killed and
///   started again replays the steps that finished, and runs no finished
///   tool again. A step cut short (the worker killed mid-call) runs again
///   with the same [`ToolContext::call_id`], the key for what the tool
///   does outside: within the workflow's key, which is the calls'
///   [conversation](tool_core::context::ContextBuilder::conversation), it
///   is made from the provider's id for the call (or its place in the
///   response), so it is the same on every attempt and never another
///   turn's.
/// - **A tool that must not run twice is not run again**: for a tool
///   neither [`idempotent`](tool_core::ToolMetadata::idempotent) nor
///   [`read_only`](tool_core::ToolMetadata::read_only), the workflow
///   records that the call begins before it runs; an attempt that finds
///   it begun without a result (the worker killed mid-call) does not run
///   it, and its result is the error that says so ("... was lost: the
///   worker running it stopped before its result was recorded ..."), for
///   the model to read, as tool-core's own lost calls end.
/// - **Steps are recorded in the same order on every attempt**, as
///   Restate's journal needs: calls of one step (tools that may run
///   again and need no approval) run beside each other as the batch rules
///   allow; a call of more steps (a `Confirm` tool, or one that must not
///   run twice) makes the calls after it wait for its end.
/// - **A call the approval hook parks** ([`Approval::Park`](tool_core::policy::Approval::Park))
///   waits on a durable promise of the workflow, across any number of
///   restarts of the worker and of Restate, until someone calls
///   `POST <ingress>/Turn/<turn id>/approve` with
///   `{"call": "<provider's call id>", "approve": true, "arguments": {..}}`
///   (for a call the provider gave no id, as Gemini often does, its place
///   in the response: `"#0"`, `"#1"`, ...)
///   (the arguments edited, or left out to run it as the model asked) or
///   `{"call": "..", "approve": false, "reason": ".."}`. The call then runs
///   (the hook not asked again) or is denied, and the turn goes on.
/// - **A tool that asks the person** (an [`asks`](tool_core::ToolMetadata::asks)
///   tool calling `ctx.elicit` or `ctx.elicit_form`, [`tool_core::elicit`])
///   is stopped when it asks (the workflow answers its questions, not an
///   asker the context function names), its step journaled with
///   the question, and the question listed by
///   `POST <ingress>/Turn/<turn id>/questions` (`[{"id": "toolu_1#1",
///   "call": "toolu_1", "tool": .., "message": .., "schema": .., "key":
///   ..}]`) while the workflow waits on a durable promise, across any
///   number of restarts, until someone calls
///   `POST <ingress>/Turn/<turn id>/answer` with `{"call": "<provider's
///   call id>", "answer": {"action": "accept", "content": {..}}}` (or
///   `"decline"`, `"cancel"`, as MCP elicitation answers). The tool is
///   then **run again from its start**, in a step of its own, with every
///   answer given so far: its first question is answered at once with the
///   first answer, and so on, until it ends or asks another (an answer
///   that does not fit the question is asked again, saying why, as
///   `ctx.elicit` does: the next question of the call). So a tool
///   that asks should ask before it does anything outside, or key what it
///   does by [`ToolContext::call_id`] (the same in every run of the
///   call), and ask its questions in the same order each run. A
///   question's own time limit does not apply: the promise waits until
///   answered, or the invocation is cancelled.
/// - **A cancelled invocation stops the turn**: the running tool's token
///   is cancelled (see the [crate's documentation](crate)), and its
///   result says so ("the call to tool `x` was cancelled while it ran:
///   ..."); the calls not yet started are refused as tool-core refuses a
///   cancelled caller's ("the call to tool `x` was cancelled before it
///   started; the tool did not run"), a call waiting on a promise ends
///   ("... was cancelled before it ended ..."), and the turn ends with
///   them, for the model to read.
/// - **A call whose result comes later** (a `long_running` tool's, which
///   the client runs) waits likewise, until someone calls
///   `POST <ingress>/Turn/<turn id>/deliver` with
///   `{"call": "<provider's call id>", "result": "<text>"}` (or a
///   [`ToolResult`](tool_core::ToolResult) in its stored form).
///
/// ```no_run
/// use tokio::net::TcpListener;
/// use restate_sdk::endpoint::Endpoint;
/// use restate_sdk::http_server::HttpServer;
/// use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
/// use tool_core::{ToolContext, ToolRegistry, tool};
/// use tool_restate::{RestateService, TurnWorkflow};
///
/// /// Send money to an account.
/// #[tool(tier = Confirm)]
/// fn transfer(to: String, cents: u64) -> String {
///     format!("sent {cents} cents to {to}")
/// }
///
/// /// Leaves every decision to a person.
/// struct AskLater;
///
/// impl ApprovalHook<()> for AskLater {
///     async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
///         Approval::Park
///     }
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let registry = std::sync::Arc::new(
///     ToolRegistry::builder().with(Transfer).approval(AskLater).build(),
/// );
/// let tools = RestateService::new(registry.clone(), |_| ToolContext::new(()));
/// let turns = TurnWorkflow::new(registry, |_| ToolContext::new(()));
/// let endpoint = Endpoint::builder()
///     .bind(tools.definition()?)
///     .bind(turns.definition()?)
///     .build();
/// // Register http://127.0.0.1:9080 with Restate's admin API, then
/// // `POST <ingress>/Turn/<turn id>/run`.
/// let listener = TcpListener::bind("127.0.0.1:9080").await?;
/// HttpServer::new(endpoint)
///     .serve_with_cancel(listener, std::future::pending::<()>())
///     .await;
/// # Ok(()) }
/// ```
pub struct TurnWorkflow<Ctx> {
    served: Served<Ctx>,
}

impl<Ctx: Send + Sync + 'static> std::fmt::Debug for TurnWorkflow<Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.served.debug("TurnWorkflow", f)
    }
}

impl<Ctx: Send + Sync + 'static> TurnWorkflow<Ctx> {
    /// The workflow of turns calling `registry`'s tools, named `Turn`;
    /// `context` makes each call's [`ToolContext`] (told of the workflow's
    /// invocation and the tool called). The conversation and call id it
    /// sets are replaced: see the [type's documentation](TurnWorkflow).
    pub fn new(
        registry: impl Into<Arc<ToolRegistry<Ctx>>>,
        context: impl Fn(&Invocation<'_>) -> ToolContext<Ctx> + Send + Sync + 'static,
    ) -> Self {
        Self {
            served: Served::new(registry, context, DEFAULT_NAME),
        }
    }

    /// The same workflow under another name: its path on Restate's
    /// ingress is `/<name>/<turn id>/run`.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.served.name = name.into();
        self
    }

    /// The workflow as the Restate SDK binds it, to serve beside the
    /// tools' service ([`RestateService::definition`](crate::RestateService::definition))
    /// on one endpoint.
    ///
    /// # Errors
    ///
    /// When the name is not one Restate accepts.
    pub fn definition(&self) -> Result<ServiceDefinition, DefinitionError> {
        let Served {
            registry,
            context,
            name,
        } = &self.served;
        workflow::definition(name, registry, context)
    }

    /// Serves the workflow alone on `listener` (HTTP/2 without TLS, as
    /// Restate calls a deployment) until `shutdown` completes, then lets
    /// the invocations under way end (up to 10 seconds), as
    /// [`RestateService::serve`](crate::RestateService::serve) serves the
    /// tools. Register its address with Restate (`POST /deployments` on
    /// the admin API) for turns to run on it; to serve it beside the
    /// tools' service, bind both [`definition`](TurnWorkflow::definition)s
    /// to one endpoint instead.
    ///
    /// # Errors
    ///
    /// As [`definition`](TurnWorkflow::definition); nothing is served then.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), DefinitionError> {
        let endpoint = Endpoint::builder().bind(self.definition()?).build();
        HttpServer::new(endpoint)
            .serve_with_cancel(listener, shutdown)
            .await;
        Ok(())
    }
}
