//! One turn of an agent loop: the tool calls of a response run, their
//! results in the provider's shape, and the calls whose results the
//! application delivers later.

use std::collections::HashMap;
use std::future::Future;

use futures_util::future::join_all;
use serde_json::Value;

use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::selector::ParseError;
use crate::provider::selector::Provider;
use crate::registry::batch::{ToolCall, run_batch};
use crate::registry::tool_registry::ToolRegistry;
use crate::tool::context::ToolContext;
use crate::toolset::view::View;

/// A provider's response with its tool calls run: what
/// [`Provider::respond`] returns.
///
/// A call of a `long_running` tool (one the client runs, or work that
/// finishes in the background) has no result yet: the turn
/// [`is_waiting`](Turn::is_waiting), [`waiting`](Turn::waiting) lists those
/// calls with the provider's ids and the arguments, and the
/// [`reply`](Turn::reply) holds only the other calls' results. Once the
/// application has delivered the results
/// ([`Pending::deliver`](crate::registry::Pending::deliver)),
/// [`resume`](Turn::resume) takes them in, and the reply holds every
/// result, in the provider's shape and the calls' order.
#[derive(Debug)]
pub struct Turn {
    pub(super) provider: Provider,
    pub(super) calls: Vec<ProviderCall>,
    pub(super) results: Vec<ToolResult>,
    pub(super) model_turn: Vec<Value>,
    pub(super) reply: Vec<Value>,
    pub(super) text: Option<String>,
}

/// A call of a turn whose result waits on the application: see
/// [`Turn::waiting`].
#[derive(Clone, Copy, Debug)]
pub struct Waiting<'a> {
    call: &'a ProviderCall,
    call_id: &'a str,
    decision: bool,
}

impl<'a> Waiting<'a> {
    /// The call as the provider sent it: its id, the tool's name and the
    /// arguments, for the application (or the client) that runs it.
    pub fn call(&self) -> &'a ProviderCall {
        self.call
    }

    /// The registry's id of the call, under which its result is delivered
    /// ([`Pending::deliver`](crate::registry::Pending::deliver)).
    pub fn call_id(&self) -> &'a str {
        self.call_id
    }

    /// Whether the call waits for a person's decision on whether it runs
    /// ([`Approval::Park`](crate::policy::Approval::Park)), to be given
    /// with [`Approvals::decide`](crate::registry::Approvals::decide), rather
    /// than for a result delivered with
    /// [`Pending::deliver`](crate::registry::Pending::deliver).
    pub fn awaits_decision(&self) -> bool {
        self.decision
    }
}

impl Turn {
    /// Whether the model called no tool: its answer is final.
    pub fn is_done(&self) -> bool {
        self.calls.is_empty()
    }

    /// The calls, in the response's order.
    pub fn calls(&self) -> &[ProviderCall] {
        &self.calls
    }

    /// Their results, in the same order, with the typed errors.
    pub fn results(&self) -> &[ToolResult] {
        &self.results
    }

    /// The model's own turn, to append before the results (see
    /// [`Provider::model_turn`]).
    pub fn model_turn(&self) -> &[Value] {
        &self.model_turn
    }

    /// The results in the provider's shape, to append after the model's
    /// turn (see [`Provider::format_results`]).
    pub fn reply(&self) -> &[Value] {
        &self.reply
    }

    /// The model's text in the response: its answer when the turn
    /// [`is_done`](Turn::is_done), or what it said beside its calls (see
    /// [`Provider::text`]).
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Appends the model's turn, then the results (none when the turn is
    /// done), to a conversation: the request's `messages`, `input` or
    /// `contents`. Append a turn that [`is_waiting`](Turn::is_waiting) once
    /// it is [resumed](Turn::resume): every provider wants an answer to each
    /// call before the model speaks again.
    pub fn append_to(&self, conversation: &mut Vec<Value>) {
        conversation.extend(self.model_turn.iter().cloned());
        conversation.extend(self.reply.iter().cloned());
    }

    /// The tools this turn's results point the model to
    /// ([`Part::Tool`](crate::output::media::Part::Tool)), in order, once each: what a
    /// search tool found. To show them to the model from its next turn,
    /// list them beside the others
    /// ([`Select::names`](crate::toolset::Select::names)).
    pub fn found(&self) -> Vec<&str> {
        let mut found: Vec<&str> = Vec::new();
        for result in &self.results {
            for part in result.as_parts().into_iter().flatten() {
                if let crate::output::media::Part::Tool(tool) = part
                    && !found.contains(&tool.name())
                {
                    found.push(tool.name());
                }
            }
        }
        found
    }

    /// Whether some calls wait on the application for their results.
    pub fn is_waiting(&self) -> bool {
        self.results.iter().any(ToolResult::is_pending)
    }

    /// The calls whose results wait on the application, in the response's
    /// order: for each, the provider's call (id, tool, arguments) and the
    /// registry's id to deliver its result under.
    pub fn waiting(&self) -> impl Iterator<Item = Waiting<'_>> {
        self.calls
            .iter()
            .zip(&self.results)
            .filter_map(|(call, result)| {
                let call_id = result.pending_call_id()?;
                Some(Waiting {
                    call,
                    call_id,
                    decision: result.awaits_decision(),
                })
            })
    }

    /// Waits for the results of the calls that wait (delivered by the
    /// application, or produced by a tool running in the background), and
    /// makes the reply whole: every call's result, in the provider's shape
    /// and the calls' order, under the ids the provider issued. A result
    /// that does not come in time is an error result
    /// ([`RegistryBuilder::pending_timeout`](crate::registry::RegistryBuilder::pending_timeout)).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolContext, ToolRegistry, ToolResult};
    ///
    /// /// Ask the user to pick a file; the client shows the dialog.
    /// #[tool(long_running)]
    /// fn pick_file() -> ToolResult {
    ///     ToolResult::deferred()
    /// }
    ///
    /// let registry = ToolRegistry::new().with(PickFile);
    /// let response = json!({"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "pick_file", "input": {}}
    /// ]});
    /// let mut turn = Provider::Anthropic { strict: false }
    ///     .respond(&registry, &ToolContext::new(()), &response)
    ///     .await
    ///     .unwrap();
    /// assert!(turn.is_waiting());
    /// assert!(turn.reply().is_empty());
    ///
    /// for waiting in turn.waiting() {
    ///     assert_eq!(waiting.call().id(), Some("toolu_1"));
    ///     registry.pending().deliver(waiting.call_id(), ToolResult::text("notes.txt")).await.unwrap();
    /// }
    /// turn.resume(&registry).await;
    /// assert_eq!(
    ///     turn.reply(),
    ///     [json!({"role": "user", "content": [
    ///         {"type": "tool_result", "tool_use_id": "toolu_1", "content": "notes.txt"}
    ///     ]})]
    /// );
    /// # });
    /// ```
    pub async fn resume<Ctx: Send + Sync + 'static>(&mut self, registry: &ToolRegistry<Ctx>) {
        let mut ids: Vec<(&str, &str)> =
            self.waiting().map(|w| (w.call_id, w.call.name())).collect();
        if ids.is_empty() {
            return;
        }
        // The same call twice in a response is one pending call: its result
        // is taken once and answers both.
        ids.sort_unstable();
        ids.dedup_by_key(|(id, _)| *id);
        let pending = registry.pending();
        let finals = join_all(ids.iter().map(|(id, tool)| pending.wait_for(id, tool))).await;
        let finals: HashMap<String, Option<ToolResult>> = ids
            .into_iter()
            .map(|(id, _)| id.to_owned())
            .zip(finals)
            .collect();
        for (call, result) in self.calls.iter().zip(&mut self.results) {
            let Some(id) = result.pending_call_id() else {
                continue;
            };
            *result = match finals.get(id) {
                Some(Some(done)) => done.clone(),
                // Taken by someone else who waited on the call.
                _ => ToolError::Execution {
                    tool: call.name().to_owned(),
                    message: format!(
                        "the result of call `{id}` is no longer kept (it was taken elsewhere, or its record expired) and cannot be given here; call the tool again if it is still needed"
                    )
                    .into(),
                }
                .into(),
            };
        }
        self.reply = self.provider.format_results(&self.calls, &self.results);
    }
}

impl Provider {
    /// Runs every tool call in a provider's response and returns the results
    /// in the provider's shape: one turn of an agent loop.
    ///
    /// The calls run as [`ToolRegistry::call_all`] runs them: by default
    /// ([`Batch::Auto`](crate::registry::Batch::Auto)), calls of `read_only` or
    /// `concurrency_safe` tools together and any other call alone, in the
    /// model's order; see [`RegistryBuilder::batch`](crate::registry::RegistryBuilder::batch). Each goes through
    /// the whole pipeline of [`ToolRegistry::call`]: a bad
    /// argument, an unknown tool or a failing tool is an error result the
    /// model reads in the reply. Only a response that is not the provider's
    /// shape is an `Err`. A call of a `long_running` tool is not answered:
    /// the turn lists it in [`Turn::waiting`] until the application
    /// delivers its result and [`Turn::resume`] takes it in.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool]
    /// async fn get_weather(city: String) -> String {
    ///     format!("15 degrees in {city}")
    /// }
    ///
    /// let registry = ToolRegistry::new().with(GetWeather);
    /// let response = json!({"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    /// ]});
    /// let turn = Provider::Anthropic { strict: false }
    ///     .respond(&registry, &ToolContext::new(()), &response)
    ///     .await
    ///     .unwrap();
    /// assert_eq!(
    ///     turn.reply(),
    ///     [json!({"role": "user", "content": [
    ///         {"type": "tool_result", "tool_use_id": "toolu_1", "content": "15 degrees in Paris"}
    ///     ]})]
    /// );
    /// # });
    /// ```
    pub async fn respond<Ctx: Send + Sync + 'static>(
        self,
        registry: &ToolRegistry<Ctx>,
        ctx: &ToolContext<Ctx>,
        response: &Value,
    ) -> Result<Turn, ParseError> {
        let calls = self.parse_calls(response)?;
        let model_turn = self.model_turn(response)?;
        let results = registry
            .call_all(ctx, calls.iter().map(ProviderCall::to_tool_call))
            .await;
        Ok(self.turn(calls, results, model_turn))
    }

    /// [`Provider::respond`] with the tools of a view alone: a call of a
    /// tool the view does not show (one a search has not found yet, say)
    /// is an unknown tool's, whose message lists the tools shown, as if
    /// the others were not there.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    /// use tool_core::toolset::Select;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool(defer)]
    /// fn get_weather(city: String) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> String {
    ///     "hello".into()
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(GetWeather).with(Hello);
    /// let shown = registry.view(Select::all().up_front());
    /// let response = json!({"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    /// ]});
    /// let turn = Provider::Anthropic { strict: false }
    ///     .respond_in(&shown, &ToolContext::new(()), &response)
    ///     .await
    ///     .unwrap();
    /// assert_eq!(
    ///     turn.results()[0].model_text(),
    ///     "unknown tool `get_weather`. Available tools: `hello`."
    /// );
    /// # });
    /// ```
    pub async fn respond_in<Ctx: Send + Sync + 'static>(
        self,
        view: &View<'_, Ctx>,
        ctx: &ToolContext<Ctx>,
        response: &Value,
    ) -> Result<Turn, ParseError> {
        let calls = self.parse_calls(response)?;
        let model_turn = self.model_turn(response)?;
        let results = view
            .call_all(ctx, calls.iter().map(ProviderCall::to_tool_call))
            .await;
        Ok(self.turn(calls, results, model_turn))
    }

    /// [`Provider::respond`], each call made by `run` rather than by the
    /// registry alone, under the registry's batch rules
    /// ([`RegistryBuilder::batch`](crate::registry::RegistryBuilder::batch)):
    /// for an application that wraps each call (as a durable step of a
    /// workflow engine, say) yet runs the turn as `respond` does. `run` is
    /// given each call's place in the response and the call (with the
    /// provider's id), and gives its result, most often from
    /// [`ToolRegistry::call`]; the reply is made of those results.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool]
    /// async fn get_weather(city: String) -> String {
    ///     format!("15 degrees in {city}")
    /// }
    ///
    /// let registry = ToolRegistry::new().with(GetWeather);
    /// let ctx = ToolContext::new(());
    /// let response = json!({"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    /// ]});
    /// let turn = Provider::Anthropic { strict: false }
    ///     .respond_with(&registry, &response, |at, call| {
    ///         let (registry, ctx) = (&registry, &ctx);
    ///         async move {
    ///             assert_eq!((at, call.id.as_deref()), (0, Some("toolu_1")));
    ///             registry.call(ctx, &call.name, call.arguments).await
    ///         }
    ///     })
    ///     .await
    ///     .unwrap();
    /// assert_eq!(turn.results()[0].model_text(), "15 degrees in Paris");
    /// # });
    /// ```
    ///
    /// # Errors
    ///
    /// A response that is not the provider's shape, as `respond`.
    pub async fn respond_with<Ctx: Send + Sync + 'static, F>(
        self,
        registry: &ToolRegistry<Ctx>,
        response: &Value,
        run: impl Fn(usize, ToolCall) -> F,
    ) -> Result<Turn, ParseError>
    where
        F: Future<Output = ToolResult>,
    {
        let calls = self.parse_calls(response)?;
        let model_turn = self.model_turn(response)?;
        let results = run_batch(
            registry.batch(),
            calls.iter().map(ProviderCall::to_tool_call).enumerate(),
            |(_, call)| registry.may_overlap(&call.name),
            |(at, call)| run(at, call),
        )
        .await;
        Ok(self.turn(calls, results, model_turn))
    }

    /// The turn of `calls`, answered with `results`.
    pub(crate) fn turn(
        self,
        calls: Vec<ProviderCall>,
        results: Vec<ToolResult>,
        model_turn: Vec<Value>,
    ) -> Turn {
        let reply = self.format_ready(&calls, &results);
        let text = self.text_of_turn(&model_turn);
        Turn {
            provider: self,
            calls,
            results,
            model_turn,
            reply,
            text,
        }
    }
}

impl Provider {
    /// The reply to the calls whose results are in: a pending call is not
    /// answered, since its answer is still to come.
    fn format_ready(self, calls: &[ProviderCall], results: &[ToolResult]) -> Vec<Value> {
        if !results.iter().any(ToolResult::is_pending) {
            return self.format_results(calls, results);
        }
        let (calls, results): (Vec<ProviderCall>, Vec<ToolResult>) = calls
            .iter()
            .zip(results)
            .filter(|(_, result)| !result.is_pending())
            .map(|(call, result)| (call.clone(), result.clone()))
            .unzip();
        self.format_results(&calls, &results)
    }
}
