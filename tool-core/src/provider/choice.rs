//! What the model may or must call, in each provider's request shape: the
//! request's `tool_choice` (Gemini's `toolConfig`).

/// What the model may or must call in its next turn.
///
/// [`Provider::tool_choice`](crate::provider::Provider::tool_choice) writes it as the provider takes it; an
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

/// Why a family without an allowed subset refuses one.
pub(crate) const NO_SUBSET: &str =
    "it has no allowed subset; show the model only those tools, with a view";

/// A [`ToolChoice`] a provider does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{by} takes no such tool choice: {reason}")]
pub struct ChoiceError {
    /// The provider, as its API is called.
    pub by: &'static str,
    /// What it takes instead.
    pub reason: String,
}
