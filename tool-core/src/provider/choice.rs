//! What the model may or must call, in each provider's request shape: the
//! request's `tool_choice` (Gemini's `toolConfig`).

use serde_json::{Value, json};

use crate::provider::Provider;

/// What the model may or must call in its next turn.
///
/// [`Provider::tool_choice`] writes it as the provider takes it; an
/// allowed subset keeps the full list of tools in the request (and in its
/// prompt cache) while the model may call only the subset.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::{Provider, ToolChoice};
///
/// let subset = ToolChoice::allowed(["get_weather", "get_time"]);
/// assert_eq!(
///     Provider::OpenAiResponses { strict: true }.tool_choice(&subset).unwrap(),
///     Some(json!({
///         "type": "allowed_tools",
///         "mode": "auto",
///         "tools": [
///             {"type": "function", "name": "get_weather"},
///             {"type": "function", "name": "get_time"}
///         ]
///     }))
/// );
/// assert_eq!(
///     Provider::Gemini { openapi: false }.tool_choice(&subset.required()).unwrap(),
///     Some(json!({"functionCallingConfig": {
///         "mode": "ANY", "allowedFunctionNames": ["get_weather", "get_time"]
///     }}))
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolChoice {
    /// The model decides whether to call a tool: every provider's default
    /// when tools are sent.
    Auto,
    /// The model must call a tool, any of them.
    Required,
    /// The model may call none.
    None,
    /// The model must call this tool.
    Tool(String),
    /// The model may call only these tools (must call one of them when
    /// `required`); the others stay in the request.
    Allowed {
        /// The tools it may call.
        names: Vec<String>,
        /// Whether it must call one.
        required: bool,
    },
}

impl ToolChoice {
    /// The model must call the tool `name`.
    pub fn tool(name: impl Into<String>) -> Self {
        ToolChoice::Tool(name.into())
    }

    /// The model may call only the tools `names`, or none.
    pub fn allowed<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Self {
        ToolChoice::Allowed {
            names: names.into_iter().map(Into::into).collect(),
            required: false,
        }
    }

    /// An allowed subset the model must call one of; any other choice as
    /// it is.
    #[must_use]
    pub fn required(self) -> Self {
        match self {
            ToolChoice::Allowed { names, .. } => ToolChoice::Allowed {
                names,
                required: true,
            },
            other => other,
        }
    }
}

/// A [`ToolChoice`] a provider does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{by} takes no such tool choice: {reason}")]
pub struct ChoiceError {
    /// The provider, as its API is called.
    pub by: &'static str,
    /// What it takes instead.
    pub reason: String,
}

impl Provider {
    /// `choice` as the provider takes it: the value of the request's
    /// `tool_choice` (for Gemini, of `toolConfig`), or `None` where the
    /// provider's default says it and the field is best left out (Ollama,
    /// which takes no `tool_choice`, for [`ToolChoice::Auto`]).
    ///
    /// An error for a choice the provider's documentation does not offer:
    /// an allowed subset for Anthropic, Groq, vLLM or Ollama (show the
    /// subset with a view instead), any choice but `Auto` for Ollama, any
    /// for MCP, where the client's model chooses.
    pub fn tool_choice(self, choice: &ToolChoice) -> Result<Option<Value>, ChoiceError> {
        let refused = |reason: &str| ChoiceError {
            by: self.api(),
            reason: reason.to_owned(),
        };
        let no_subset = "it has no allowed subset; show the model only those tools, with a view";
        let mode = |required: bool| if required { "required" } else { "auto" };
        Ok(Some(match self {
            Provider::OpenAiChat { .. } | Provider::Groq | Provider::Vllm { .. } => match choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::Required => json!("required"),
                ToolChoice::None => json!("none"),
                ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
                ToolChoice::Allowed { names, required } => {
                    if !matches!(self, Provider::OpenAiChat { .. }) {
                        return Err(refused(no_subset));
                    }
                    let tools: Vec<Value> = names
                        .iter()
                        .map(|name| json!({"type": "function", "function": {"name": name}}))
                        .collect();
                    json!({"type": "allowed_tools", "allowed_tools": {"mode": mode(*required), "tools": tools}})
                }
            },
            Provider::OpenAiResponses { .. } => match choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::Required => json!("required"),
                ToolChoice::None => json!("none"),
                ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
                ToolChoice::Allowed { names, required } => {
                    let tools: Vec<Value> = names
                        .iter()
                        .map(|name| json!({"type": "function", "name": name}))
                        .collect();
                    json!({"type": "allowed_tools", "mode": mode(*required), "tools": tools})
                }
            },
            Provider::Anthropic { .. } => match choice {
                ToolChoice::Auto => json!({"type": "auto"}),
                ToolChoice::Required => json!({"type": "any"}),
                ToolChoice::None => json!({"type": "none"}),
                ToolChoice::Tool(name) => json!({"type": "tool", "name": name}),
                ToolChoice::Allowed { .. } => return Err(refused(no_subset)),
            },
            Provider::Gemini { .. } => {
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
                json!({"functionCallingConfig": config})
            }
            Provider::Ollama => {
                return match choice {
                    ToolChoice::Auto => Ok(None),
                    ToolChoice::None => Err(refused(
                        "it takes no `tool_choice`; send no tools for a turn without calls",
                    )),
                    _ => Err(refused("it takes no `tool_choice`")),
                };
            }
            Provider::Mcp => {
                return Err(refused(
                    "the client's model chooses; a server offers tools, it does not pick among them",
                ));
            }
        }))
    }
}
