//! OpenAI Responses: flat function tools, `function_call` items in,
//! `function_call_output` items out; its hosted tool search, and the search
//! the application runs (`tool_search_call` with `execution: "client"`).

pub(crate) mod parse;
pub(crate) mod replay;
pub(crate) mod reply;
pub(crate) mod stream;

use serde_json::{Value, json};

use crate::output::result::ToolResult;
use crate::provider::call;
use crate::provider::call::ProviderCall;
use crate::provider::choice::ToolChoice;
use crate::provider::extras::callers;
use crate::provider::family::{Family, ListState, Parameters};
use crate::provider::listing::Search;
use crate::provider::not_strict::Blocker;
use crate::provider::openai_chat::dialect::openai_strict;
use crate::provider::stream::event::ReadStream;
use crate::schema::dialect::json_schema;
use crate::tool::ToolInfo;

/// OpenAI Responses, strict or not.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Responses {
    /// Strict mode, as for Chat Completions.
    pub(crate) strict: bool,
}

impl Family for Responses {
    fn name(&self) -> &'static str {
        if self.strict {
            "openai-responses"
        } else {
            "openai-responses-loose"
        }
    }

    fn api(&self) -> &'static str {
        "OpenAI Responses"
    }

    fn response_kind(&self) -> &'static str {
        "OpenAI Responses response"
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
        let made = self.strict.then(|| openai_strict(schema));
        Ok(Parameters::strict_or(tool, made, || json_schema(schema)))
    }

    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        let mut definition = json!({
            "type": "function",
            "name": tool.definition.name.as_str(),
            "description": tool.definition.description.as_str(),
            "parameters": parameters.schema.take(),
            "strict": parameters.strict,
        });
        if let Some(callers) = callers(tool, "direct", "programmatic") {
            definition["allowed_callers"] = callers;
        }
        definition
    }

    fn tool_search(&self, search: Search) -> Result<Option<Value>, String> {
        match search {
            // The search is one of the registry's tools: its entry is made
            // of it (`client_search`).
            Search::Client => Ok(None),
            Search::Native => Ok(Some(json!({"type": "tool_search"}))),
            Search::NativeRegex => {
                Err("its tool search takes no regular expressions; ask for `Search::Native`".into())
            }
        }
    }

    /// The search tool becomes the client-executed `tool_search` (OpenAI's
    /// tool search guide): its description and parameters.
    fn client_search(&self, search_tool: &Value) -> Option<Value> {
        Some(json!({
            "type": "tool_search",
            "execution": "client",
            "description": search_tool["description"],
            "parameters": search_tool["parameters"],
        }))
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        parse::parse_responses(response)
    }

    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
        parse::responses_turn(response)
    }

    /// A `message` item's `output_text` parts; the other items say nothing.
    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        if item["type"] == "message" {
            call::texts_in(item, "content", Some("output_text"), texts);
        }
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        reply::format_responses(answered)
    }

    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
        Ok(Some(match choice {
            ToolChoice::Auto => json!("auto"),
            ToolChoice::Required => json!("required"),
            ToolChoice::None => json!("none"),
            ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
            ToolChoice::Allowed { names, required } => {
                let tools: Vec<Value> = names
                    .iter()
                    .map(|name| json!({"type": "function", "name": name}))
                    .collect();
                let mode = if *required { "required" } else { "auto" };
                json!({"type": "allowed_tools", "mode": mode, "tools": tools})
            }
        }))
    }

    fn stream_reader(&self) -> Option<Box<dyn ReadStream>> {
        Some(Box::<stream::ResponsesStream>::default())
    }

    fn streamed(&self, response: &Value) -> Option<String> {
        replay::streamed(response)
    }
}
