//! A whole response streamed as its provider streams it: for scripted
//! servers and tests, which answer `"stream": true` requests with what a
//! provider would send.

use serde_json::Value;

use crate::provider::selector::Provider;

impl Provider {
    /// `response`, a whole response of this provider, as the provider
    /// streams it (`"stream": true`): the server-sent events of OpenAI Chat
    /// Completions (Groq, vLLM), Responses, Anthropic and Gemini, or
    /// Ollama's JSON lines. Reading it back with
    /// [`Provider::stream_reader`] gives the same response. `None` when
    /// `response` is not the provider's whole response, or the provider
    /// does not stream (MCP).
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let provider = Provider::Anthropic { strict: false };
    /// let whole = json!({"role": "assistant", "stop_reason": "end_turn",
    ///     "content": [{"type": "text", "text": "It is sunny."}]});
    /// let streamed = provider.streamed(&whole).unwrap();
    /// assert!(streamed.starts_with("event: message_start\n"));
    /// let mut reader = provider.stream_reader();
    /// reader.feed(streamed.as_bytes()).unwrap();
    /// assert_eq!(reader.finish().unwrap(), whole);
    /// ```
    pub fn streamed(self, response: &Value) -> Option<String> {
        self.family().streamed(response)
    }
}
