//! A turn's stored form: what a process writes when a turn waits (on the
//! client, a person, a long tool) and another reads to finish it, giving
//! the reply an unbroken turn would.

use std::borrow::Cow;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::dispatch::pending::parked::awaits_decision;
use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::selector::Provider;
use crate::provider::turn::Turn;
use crate::store::{Store, StoreError, When};

/// The form's version: a reader refuses a form it does not know.
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    v: u32,
    provider: Cow<'a, str>,
    calls: Vec<StoredCall<'a>>,
    results: Cow<'a, [ToolResult]>,
    model_turn: Cow<'a, [Value]>,
    reply: Cow<'a, [Value]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<Cow<'a, str>>,
}

#[derive(Serialize, Deserialize)]
struct StoredCall<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<Cow<'a, str>>,
    name: Cow<'a, str>,
    arguments: Cow<'a, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    thought_signature: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    request_id: Option<Cow<'a, Value>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    search: bool,
}

/// A turn is written whole: its provider (by [name](Provider::name)), the
/// calls as the provider sent them (ids, Gemini's thought signatures, MCP's
/// request ids), their results so far (the waiting ones pending, under
/// the registry's call ids), the model's turn, the reply so far and the
/// text; versioned, so that a later version of this crate reads what an
/// earlier one wrote.
impl Serialize for Turn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Stored {
            v: VERSION,
            provider: Cow::Borrowed(self.provider.name()),
            calls: self
                .calls
                .iter()
                .map(|call| StoredCall {
                    id: call.id.as_deref().map(Cow::Borrowed),
                    name: Cow::Borrowed(&call.name),
                    arguments: Cow::Borrowed(&call.arguments),
                    thought_signature: call.thought_signature.as_deref().map(Cow::Borrowed),
                    request_id: call.request_id.as_ref().map(Cow::Borrowed),
                    search: call.search,
                })
                .collect(),
            results: Cow::Borrowed(&self.results),
            model_turn: Cow::Borrowed(&self.model_turn),
            reply: Cow::Borrowed(&self.reply),
            text: self.text.as_deref().map(Cow::Borrowed),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Turn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let stored = Stored::deserialize(deserializer)?;
        if stored.v != VERSION {
            return Err(D::Error::custom(format!(
                "a stored turn of version {}, which this version of tool-core (which writes {VERSION}) cannot read",
                stored.v
            )));
        }
        let provider: Provider = stored.provider.parse().map_err(D::Error::custom)?;
        if stored.calls.len() != stored.results.len() {
            return Err(D::Error::custom(format!(
                "a stored turn with {} calls and {} results",
                stored.calls.len(),
                stored.results.len()
            )));
        }
        let calls = stored
            .calls
            .into_iter()
            .map(|call| ProviderCall {
                id: call.id.map(Cow::into_owned),
                name: call.name.into_owned(),
                arguments: call.arguments.into_owned(),
                text: None,
                thought_signature: call.thought_signature.map(Cow::into_owned),
                request_id: call.request_id.map(Cow::into_owned),
                search: call.search,
            })
            .collect();
        Ok(Turn {
            provider,
            calls,
            results: stored.results.into_owned(),
            model_turn: stored.model_turn.into_owned(),
            reply: stored.reply.into_owned(),
            text: stored.text.map(Cow::into_owned),
        })
    }
}

impl Turn {
    /// Writes the turn to `store` under `key` (your conversation's id,
    /// say), kept for `ttl`: to finish it in another process, or in this
    /// one after a restart, with [`Turn::load`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::time::Duration;
    /// use serde_json::json;
    /// use tool_core::provider::{Provider, Turn};
    /// use tool_core::store::MemoryStore;
    /// use tool_core::{tool, ToolContext, ToolRegistry, ToolResult};
    ///
    /// /// Ask the user to pick a file; the client shows the dialog.
    /// #[tool(long_running)]
    /// fn pick_file() -> ToolResult {
    ///     ToolResult::deferred()
    /// }
    ///
    /// // One process, with a store every process shares (Redis, in real use).
    /// let store = MemoryStore::new();
    /// let registry = ToolRegistry::builder().with(PickFile).store(store.clone()).build();
    /// let response = json!({"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "pick_file", "input": {}}
    /// ]});
    /// let turn = Provider::Anthropic { strict: false }
    ///     .respond(&registry, &ToolContext::new(()), &response)
    ///     .await
    ///     .unwrap();
    /// turn.save(&store, "conversation:42", Duration::from_secs(3600)).await.unwrap();
    ///
    /// // Another process: the client's answer arrives there.
    /// let elsewhere: ToolRegistry = ToolRegistry::builder().with(PickFile).store(store.clone()).build();
    /// let mut turn = Turn::load(&store, "conversation:42").await.unwrap().unwrap();
    /// for waiting in turn.waiting() {
    ///     elsewhere.pending().deliver(waiting.call_id(), ToolResult::text("notes.txt")).await.unwrap();
    /// }
    /// turn.resume(&elsewhere).await;
    /// assert_eq!(
    ///     turn.reply(),
    ///     [json!({"role": "user", "content": [
    ///         {"type": "tool_result", "tool_use_id": "toolu_1", "content": "notes.txt"}
    ///     ]})]
    /// );
    /// # });
    /// ```
    pub async fn save(
        &self,
        store: &(impl Store + ?Sized),
        key: &str,
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(self).map_err(|error| StoreError::Refused {
            store: store.kind().to_owned(),
            key: key.to_owned(),
            message: error.to_string(),
        })?;
        store.put(key, bytes, ttl, When::Always).await?;
        Ok(())
    }

    /// Reads the turn [saved](Turn::save) under `key`: `None` if there is
    /// none (never saved, or expired).
    ///
    /// A call that waited for a person's decision when the turn was saved
    /// and has been decided since (in any process sharing the registry's
    /// store, which is `store` here) no longer
    /// [awaits a decision](crate::provider::Waiting::awaits_decision): it
    /// waits for its result, which [`resume`](Turn::resume) takes.
    pub async fn load(
        store: &(impl Store + ?Sized),
        key: &str,
    ) -> Result<Option<Turn>, StoreError> {
        let Some(bytes) = store.get(key).await? else {
            return Ok(None);
        };
        let mut turn: Turn =
            serde_json::from_slice(&bytes).map_err(|error| StoreError::Refused {
                store: store.kind().to_owned(),
                key: key.to_owned(),
                message: format!("the record is not a stored turn: {error}"),
            })?;
        for (call, result) in turn.calls.iter().zip(&mut turn.results) {
            if !result.awaits_decision() {
                continue;
            }
            let Some(id) = result.pending_call_id() else {
                continue;
            };
            if awaits_decision(store, id).await? == Some(false) {
                *result = ToolResult::pending(call.name(), id);
            }
        }
        Ok(Some(turn))
    }
}
