//! Ollama's chat (`/api/chat`; its `/v1/chat/completions` answers are read
//! too): OpenAI Chat's tool shape and messages with Ollama's differences
//! (`server.rs`), a dialect of the fields its server reads, its own
//! stream of JSON lines, and no `tool_choice`.

pub(crate) mod dialect;
#[cfg(test)]
mod dialect_tests;
pub(crate) mod replay;
pub(crate) mod server;
pub(crate) mod stream;

use serde_json::{Value, json};

use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::choice::ToolChoice;
use crate::provider::family::{Family, ListState, Parameters};
use crate::provider::not_strict::Blocker;
use crate::provider::ollama::server::OLLAMA_SERVER;
use crate::provider::openai_chat::{chat_texts, parse, reply};
use crate::provider::stream::event::ReadStream;
use crate::tool::ToolInfo;

/// Ollama (`ollama`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ollama;

impl Family for Ollama {
    fn name(&self) -> &'static str {
        "ollama"
    }

    fn api(&self) -> &'static str {
        "Ollama"
    }

    fn response_kind(&self) -> &'static str {
        "Ollama chat response"
    }

    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        _list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>> {
        Parameters::made(dialect::ollama(&tool.definition.input_schema))
    }

    /// OpenAI Chat's shape without `strict`, which Ollama reads no such
    /// field of.
    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        json!({
            "type": "function",
            "function": {
                "name": tool.definition.name.as_str(),
                "description": tool.definition.description.as_str(),
                "parameters": parameters.schema.take(),
            }
        })
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        parse::parse_chat(&OLLAMA_SERVER, response)
    }

    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
        parse::chat_turn(&OLLAMA_SERVER, response)
    }

    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        chat_texts(item, texts);
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        reply::format_chat(&OLLAMA_SERVER, answered)
    }

    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
        match choice {
            ToolChoice::Auto => Ok(None),
            ToolChoice::None => {
                Err("it takes no `tool_choice`; send no tools for a turn without calls".to_owned())
            }
            _ => Err("it takes no `tool_choice`".to_owned()),
        }
    }

    fn stream_reader(&self) -> Option<Box<dyn ReadStream>> {
        Some(Box::new(stream::OllamaStream::Lines(Box::default())))
    }

    fn streamed(&self, response: &Value) -> Option<String> {
        replay::streamed(response)
    }
}
