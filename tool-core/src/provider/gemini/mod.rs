//! Google Gemini (`generateContent`): `functionDeclarations`,
//! `functionCall` parts in, `functionResponse` parts out; its two dialects,
//! `parametersJsonSchema` and the legacy OpenAPI `parameters`.

pub(crate) mod content;
pub(crate) mod dialect;
#[cfg(test)]
mod dialect_tests;
pub(crate) mod partial_args;
pub(crate) mod replay;
pub(crate) mod stream;

use serde_json::{Value, json};

use crate::output::result::ToolResult;
use crate::provider::call;
use crate::provider::call::ProviderCall;
use crate::provider::choice::ToolChoice;
use crate::provider::family::{Family, ListState, Parameters};
use crate::provider::not_strict::Blocker;
use crate::provider::stream::event::ReadStream;
use crate::tool::ToolInfo;

/// Gemini, in one of its two dialects.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gemini {
    /// The legacy `parameters` (a subset of OpenAPI 3.0, what the Live API
    /// takes) instead of `parametersJsonSchema`.
    pub(crate) openapi: bool,
}

impl Family for Gemini {
    fn name(&self) -> &'static str {
        if self.openapi {
            "gemini-openapi"
        } else {
            "gemini"
        }
    }

    fn api(&self) -> &'static str {
        "Gemini"
    }

    fn response_kind(&self) -> &'static str {
        "Gemini response"
    }

    fn check_name(&self, name: &str) -> Result<(), &'static str> {
        if !name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        {
            return Err("Gemini wants it to start with a letter or `_`");
        }
        Ok(())
    }

    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        _list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>> {
        let schema = &tool.definition.input_schema;
        Parameters::made(if self.openapi {
            dialect::gemini_openapi(schema)
        } else {
            dialect::gemini(schema)
        })
    }

    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        let (name, description) = (
            tool.definition.name.as_str(),
            tool.definition.description.as_str(),
        );
        // The OpenAPI form refuses an object without properties: a tool
        // without arguments leaves `parameters` out.
        if self.openapi && parameters.schema["properties"] == json!({}) {
            return json!({ "name": name, "description": description });
        }
        let field = if self.openapi {
            "parameters"
        } else {
            "parametersJsonSchema"
        };
        json!({ "name": name, "description": description, field: parameters.schema.take() })
    }

    fn tools_field(&self, definitions: Vec<Value>) -> Value {
        json!([{ "functionDeclarations": definitions }])
    }

    fn each_definition<'v>(&self, tools: &'v Value) -> &'v [Value] {
        tools
            .get(0)
            .and_then(|tool| tool.get("functionDeclarations"))
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        content::parse(response)
    }

    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
        content::turn(response)
    }

    /// Every part's text but the thoughts'.
    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        call::texts_in(item, "parts", None, texts);
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        content::format(answered)
    }

    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
        let config = match choice {
            ToolChoice::Auto => json!({"mode": "AUTO"}),
            ToolChoice::Required => json!({"mode": "ANY"}),
            ToolChoice::None => json!({"mode": "NONE"}),
            ToolChoice::Tool(name) => {
                json!({"mode": "ANY", "allowedFunctionNames": [name]})
            }
            // VALIDATED: calls or text, the calls among the names.
            ToolChoice::Allowed { names, required } => json!({
                "mode": if *required { "ANY" } else { "VALIDATED" },
                "allowedFunctionNames": names,
            }),
        };
        Ok(Some(json!({"functionCallingConfig": config})))
    }

    fn stream_reader(&self) -> Option<Box<dyn ReadStream>> {
        Some(Box::<stream::GeminiStream>::default())
    }

    fn streamed(&self, response: &Value) -> Option<String> {
        replay::streamed(response)
    }
}
