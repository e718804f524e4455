//! Anthropic Messages: `input_schema`, `tool_use` blocks in, one user
//! message of `tool_result` blocks out (with `is_error`); strict tool use,
//! its tool search and prompt cache breakpoints, and the extras a tool
//! tells it (examples, eager input streaming, programmatic callers).

pub(crate) mod dialect;
#[cfg(test)]
mod dialect_tests;
pub(crate) mod messages;
pub(crate) mod replay;
pub(crate) mod stream;

use serde_json::{Value, json};

use crate::output::result::ToolResult;
use crate::provider::call;
use crate::provider::call::ProviderCall;
use crate::provider::choice::{NO_SUBSET, ToolChoice};
use crate::provider::extras::callers;
use crate::provider::family::{Family, ListState, Parameters};
use crate::provider::listing::Search;
use crate::provider::not_strict::{Blocker, NotStrict};
use crate::provider::stream::event::ReadStream;
use crate::schema::dialect::json_schema;
use crate::tool::ToolInfo;

/// The code execution tool whose sandbox calls a tool programmatically,
/// as Anthropic names it in `allowed_callers`.
const ANTHROPIC_CODE: &str = "code_execution_20260120";

/// Anthropic Messages, with strict tool use or without.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Anthropic {
    /// Strict tool use: every object closed; optional properties stay
    /// optional.
    pub(crate) strict: bool,
}

impl Family for Anthropic {
    fn name(&self) -> &'static str {
        if self.strict {
            "anthropic-strict"
        } else {
            "anthropic"
        }
    }

    fn api(&self) -> &'static str {
        "Anthropic Messages"
    }

    fn response_kind(&self) -> &'static str {
        "Anthropic Messages response"
    }

    fn is_strict(&self) -> bool {
        self.strict
    }

    /// Strict tool use has limits across the strict tools of a request:
    /// their budget is kept in `list`.
    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>> {
        let schema = &tool.definition.input_schema;
        let made = self.strict.then(|| {
            list.with(|budget: &mut dialect::AnthropicBudget| {
                dialect::anthropic_strict(schema, budget)
            })
        });
        Ok(Parameters::strict_or(tool, made, || json_schema(schema)))
    }

    /// The definition, with the tool's extras where Anthropic takes them; a
    /// strict tool that code may call is made loose, since programmatic
    /// calling takes no strict tools, and `not_strict` says so.
    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        let mut definition = json!({
            "name": tool.definition.name.as_str(),
            "description": tool.definition.description.as_str(),
            "input_schema": parameters.schema.take(),
        });
        if self.strict {
            definition["strict"] = Value::Bool(parameters.strict);
        }
        let metadata = tool.metadata;
        if !metadata.input_examples.is_empty() {
            // Read when the tool was registered: JSON, and its schema's.
            let examples = metadata
                .input_examples
                .iter()
                .filter_map(|example| serde_json::from_str(example).ok())
                .collect();
            definition["input_examples"] = Value::Array(examples);
        }
        if metadata.eager_input_streaming {
            definition["eager_input_streaming"] = Value::Bool(true);
        }
        if let Some(callers) = callers(tool, "direct", ANTHROPIC_CODE) {
            definition["allowed_callers"] = callers;
            if definition.get("strict") == Some(&Value::Bool(true)) {
                definition["strict"] = Value::Bool(false);
                let blocker = Blocker {
                    at: String::new(),
                    reason: "code may call it (`allowed_callers`), and programmatic tool calling takes no strict tools".into(),
                };
                parameters
                    .not_strict
                    .get_or_insert_with(|| NotStrict {
                        tool: tool.definition.name.clone(),
                        blockers: Vec::new(),
                    })
                    .blockers
                    .push(blocker);
            }
        }
        definition
    }

    fn tool_search(&self, search: Search) -> Result<Option<Value>, String> {
        Ok(match search {
            // The search is one of the registry's tools, listed as it is.
            Search::Client => None,
            Search::Native => Some(json!({
                "type": "tool_search_tool_bm25_20251119",
                "name": "tool_search_tool_bm25",
            })),
            Search::NativeRegex => Some(json!({
                "type": "tool_search_tool_regex_20251119",
                "name": "tool_search_tool_regex",
            })),
        })
    }

    fn search_goes_first(&self) -> bool {
        true
    }

    fn cache_breakpoint(&self) -> Option<Value> {
        Some(json!({"type": "ephemeral"}))
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        messages::parse(response)
    }

    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
        messages::turn(response)
    }

    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        call::texts_in(item, "content", Some("text"), texts);
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        messages::format(answered)
    }

    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
        Ok(Some(match choice {
            ToolChoice::Auto => json!({"type": "auto"}),
            ToolChoice::Required => json!({"type": "any"}),
            ToolChoice::None => json!({"type": "none"}),
            ToolChoice::Tool(name) => json!({"type": "tool", "name": name}),
            ToolChoice::Allowed { .. } => return Err(NO_SUBSET.to_owned()),
        }))
    }

    fn stream_reader(&self) -> Option<Box<dyn ReadStream>> {
        Some(Box::<stream::AnthropicStream>::default())
    }

    fn streamed(&self, response: &Value) -> Option<String> {
        replay::streamed(response)
    }
}
