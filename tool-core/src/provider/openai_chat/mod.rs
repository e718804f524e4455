//! OpenAI Chat Completions, and the servers that speak it with differences
//! of their own: each look-alike is one file here ([`groq`], [`vllm`]), a
//! [`Chat`] that says how it differs from OpenAI's own.

pub(crate) mod dialect;
#[cfg(test)]
mod dialect_tests;
pub(crate) mod groq;
pub(crate) mod parse;
pub(crate) mod replay;
pub(crate) mod reply;
pub(crate) mod server;
pub(crate) mod stream;
pub(crate) mod vllm;

use serde_json::{Value, json};

use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::choice::{NO_SUBSET, ToolChoice};
use crate::provider::family::{Family, ListState, Parameters};
use crate::provider::not_strict::Blocker;
use crate::provider::openai_chat::server::{ChatServer, OPENAI_SERVER};
use crate::provider::stream::event::ReadStream;
use crate::schema::dialect::json_schema;
use crate::tool::ToolInfo;

/// A member of the OpenAI Chat family: its names, how its definitions and
/// tool choice differ from OpenAI's, and how its messages do
/// ([`ChatServer`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chat {
    /// The name `Provider` reads and writes.
    pub(crate) name: &'static str,
    /// The API, for messages.
    pub(crate) api: &'static str,
    /// What a response is called, for messages.
    pub(crate) response_kind: &'static str,
    /// Strict mode asked for: OpenAI's strict form of each schema.
    pub(crate) strict: bool,
    /// Whether a definition says `strict` (OpenAI and vLLM do; Groq's
    /// strict mode is its structured outputs', which take no tools).
    pub(crate) says_strict: bool,
    /// Whether `tool_choice` takes an allowed subset (OpenAI's own only).
    pub(crate) allowed_subset: bool,
    /// How its messages differ from OpenAI's.
    pub(crate) server: ChatServer,
}

/// OpenAI Chat Completions (`openai`).
pub(crate) const OPENAI: Chat = Chat {
    name: "openai",
    api: "OpenAI Chat Completions",
    response_kind: "OpenAI Chat Completions response",
    strict: false,
    says_strict: true,
    allowed_subset: true,
    server: OPENAI_SERVER,
};

/// OpenAI Chat Completions in strict mode (`openai-strict`).
pub(crate) const OPENAI_STRICT: Chat = Chat {
    name: "openai-strict",
    strict: true,
    ..OPENAI
};

impl Family for Chat {
    fn name(&self) -> &'static str {
        self.name
    }

    fn api(&self) -> &'static str {
        self.api
    }

    fn response_kind(&self) -> &'static str {
        self.response_kind
    }

    fn is_strict(&self) -> bool {
        self.strict
    }

    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        _list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>> {
        let schema = &tool.definition.input_schema;
        let made = self.strict.then(|| dialect::openai_strict(schema));
        Ok(Parameters::strict_or(tool, made, || json_schema(schema)))
    }

    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        let mut function = json!({
            "name": tool.definition.name.as_str(),
            "description": tool.definition.description.as_str(),
            "parameters": parameters.schema.take(),
        });
        if self.says_strict {
            function["strict"] = parameters.strict.into();
        }
        json!({"type": "function", "function": function})
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        parse::parse_chat(&self.server, response)
    }

    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
        parse::chat_turn(&self.server, response)
    }

    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        chat_texts(item, texts);
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        reply::format_chat(&self.server, answered)
    }

    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
        let function = |name: &str| json!({"type": "function", "function": {"name": name}});
        Ok(Some(match choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::Required => json!("required"),
            ToolChoice::None => json!("none"),
            ToolChoice::Tool(name) => function(name),
            ToolChoice::Allowed { names, required } => {
                if !self.allowed_subset {
                    return Err(NO_SUBSET.to_owned());
                }
                let tools: Vec<Value> = names.iter().map(|name| function(name)).collect();
                let mode = if *required { "required" } else { "auto" };
                json!({"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": tools}})
            }
        }))
    }

    fn stream_reader(&self) -> Option<Box<dyn ReadStream>> {
        Some(Box::new(stream::ChatStream::new(self.server)))
    }

    fn streamed(&self, response: &Value) -> Option<String> {
        replay::streamed(response)
    }
}

/// The text of a Chat message, the model's turn: its `content`, when it
/// says something (Ollama sends `""` beside its calls: no text).
pub(crate) fn chat_texts<'t>(item: &'t Value, texts: &mut Vec<&'t str>) {
    let content = item.get("content").and_then(Value::as_str);
    texts.extend(content.filter(|text| !text.is_empty()));
}
