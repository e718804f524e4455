//! One turn of an agent loop: the tool calls of a response run, their
//! results in the provider's shape.

use serde_json::Value;

use crate::provider::{ParseError, Provider, ProviderCall};
use crate::{ToolContext, ToolRegistry, ToolResult};

/// A provider's response with its tool calls run: what
/// [`Provider::respond`] returns.
#[derive(Debug)]
pub struct Turn {
    calls: Vec<ProviderCall>,
    results: Vec<ToolResult>,
    model_turn: Vec<Value>,
    reply: Vec<Value>,
    text: Option<String>,
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
    /// `contents`.
    pub fn append_to(&self, conversation: &mut Vec<Value>) {
        conversation.extend(self.model_turn.iter().cloned());
        conversation.extend(self.reply.iter().cloned());
    }
}

impl Provider {
    /// Runs every tool call in a provider's response and returns the results
    /// in the provider's shape: one turn of an agent loop.
    ///
    /// The calls run as [`ToolRegistry::call_all`] runs them: by default
    /// ([`Batch::Auto`](crate::Batch::Auto)), calls of `read_only` or
    /// `concurrency_safe` tools together and any other call alone, in the
    /// model's order; see [`ToolRegistry::with_batch`]. Each goes through
    /// the whole pipeline of [`ToolRegistry::call`]: a bad
    /// argument, an unknown tool or a failing tool is an error result the
    /// model reads in the reply. Only a response that is not the provider's
    /// shape is an `Err`.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool(tier = Observe)]
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
        let reply = self.format_results(&calls, &results);
        let text = self.text_of_turn(&model_turn);
        Ok(Turn {
            calls,
            results,
            model_turn,
            reply,
            text,
        })
    }
}
