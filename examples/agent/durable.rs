//! `--restate`: each turn of the loop run as tool-restate's `TurnWorkflow`
//! on a `restate-server` of the example's own, instead of in the loop's
//! process. The model's response is posted to the workflow's `run`, keyed
//! `<conversation>-<turn>`; the calls that need a person's approval are
//! decided through the workflow's `approve` handler, as a client anywhere
//! else would decide them; and the turn the workflow answers with is the
//! one the loop appends to its conversation.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_core::ToolRegistry;
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, ToolTier};
use tool_core::provider::{Provider, Turn};
use tool_core::registry::RegistryBuilder;
use tool_restate::TurnWorkflow;

use super::http::{chain, error_message};
use super::node::Node;
use super::{Endpoint, Error, quickstart, streaming};

/// The workflow's name: turns are `POST <ingress>/Turn/<key>/run`.
const WORKFLOW: &str = "Turn";

/// The turns of one conversation, on Restate.
#[derive(Debug)]
pub(crate) struct Turns {
    node: Node,
    http: reqwest::Client,
    /// The first part of each turn's key.
    conversation: String,
    /// Turns started so far.
    started: AtomicUsize,
    /// The person's say on a call that waits for one.
    decide: fn(&Value) -> Approval,
}

/// The workflow's hook: every call of a `Confirm` tool waits, parked on a
/// durable promise, for a decision through the `approve` handler.
struct AskLater;

impl ApprovalHook<quickstart::App> for AskLater {
    async fn approve(&self, _: &ApprovalRequest<'_, quickstart::App>) -> Approval {
        Approval::Park
    }
}

impl Turns {
    /// Starts Restate with the quickstart's tools served as the turn's
    /// workflow (their calls printed as they start and end, as the loop
    /// prints them, when `endpoint` prints), for the conversation the
    /// loop is about to have. Its calls of `Confirm` tools are decided by
    /// the quickstart's rule, given from the loop through `approve`.
    pub(crate) async fn start(endpoint: &Endpoint) -> Result<Turns, Error> {
        let tools = RegistryBuilder::from(quickstart::registry()).approval(AskLater);
        let tools = if endpoint.print {
            tools.observer(streaming::PrintCalls)
        } else {
            tools
        };
        let workflow = TurnWorkflow::new(tools.build(), |_| quickstart::context()).name(WORKFLOW);
        let node = Node::start(workflow).await?;
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(endpoint.timeout)
            .build()
            .map_err(|error| Error::Client(chain(&error)))?;
        Ok(Turns {
            node,
            http,
            conversation: format!("agent-{}", std::process::id()),
            started: AtomicUsize::new(0),
            decide: quickstart::small_amounts_only,
        })
    }

    /// Where each turn runs, for the line the example prints.
    pub(crate) fn url(&self) -> String {
        format!(
            "{}/{WORKFLOW}/{}-<n>/run",
            self.node.ingress, self.conversation
        )
    }

    /// The turn of `response` run as the workflow: started, its calls of
    /// `Confirm` tools decided, then waited for.
    pub(crate) async fn run<Ctx: Send + Sync + 'static>(
        &self,
        provider: Provider,
        response: &Value,
        registry: &ToolRegistry<Ctx>,
    ) -> Result<Turn, Error> {
        let calls = provider.parse_calls(response)?;
        let n = self.started.fetch_add(1, Ordering::SeqCst) + 1;
        let turn = format!("{}/{WORKFLOW}/{}-{n}", self.node.ingress, self.conversation);
        let input = json!({"provider": provider.name(), "response": response});
        self.send(&format!("{turn}/run/send"), Some(&input)).await?;
        // The decisions may come before the calls ask for them: the
        // workflow keeps each until its call does.
        for (at, call) in calls.iter().enumerate() {
            let confirm = registry
                .info(call.name())
                .is_some_and(|info| info.metadata.tier == ToolTier::Confirm);
            if !confirm {
                continue;
            }
            // The workflow knows a call by the provider's id for it, or
            // by its place in the response.
            let id = call.id().map_or_else(|| format!("#{at}"), str::to_owned);
            let decision = match (self.decide)(&object(call.arguments())) {
                Approval::Approve => json!({"call": id, "approve": true}),
                Approval::Deny { reason } => {
                    json!({"call": id, "approve": false, "reason": reason})
                }
                // Left for someone else to decide.
                _ => continue,
            };
            self.send(&format!("{turn}/approve"), Some(&decision))
                .await?;
        }
        let attach = format!(
            "{}/restate/workflow/{WORKFLOW}/{}-{n}/attach",
            self.node.ingress, self.conversation
        );
        let body = self.send(&attach, None).await?;
        serde_json::from_slice(&body).map_err(|error| Error::NotJson {
            url: attach,
            message: format!("not a turn: {error}"),
        })
    }

    /// Posts `body` to `url` (or gets it, with none): the answer's body,
    /// or the error the ingress answered with.
    async fn send(&self, url: &str, body: Option<&Value>) -> Result<Vec<u8>, Error> {
        let request = match body {
            Some(body) => self.http.post(url).json(body),
            None => self.http.get(url),
        };
        let failed = |error: reqwest::Error| Error::Send {
            url: url.to_owned(),
            message: chain(&error.without_url()),
        };
        let reply = request.send().await.map_err(failed)?;
        let status = reply.status();
        let bytes = reply.bytes().await.map_err(failed)?;
        if !status.is_success() {
            return Err(Error::Status {
                url: url.to_owned(),
                status: status.to_string(),
                message: error_message(&bytes),
            });
        }
        Ok(bytes.to_vec())
    }
}

/// The arguments as an object, as the approval hook reads them: OpenAI
/// sends them as a JSON string.
fn object(arguments: &Value) -> Value {
    match arguments {
        Value::String(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        other => other.clone(),
    }
}
