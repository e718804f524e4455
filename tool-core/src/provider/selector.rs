//! The selector: [`Provider`], the `Copy` value users name a provider by,
//! each of its variants one family (or one form of it), and its methods
//! handed to that family.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::output::result::ToolResult;
use crate::provider::anthropic::Anthropic;
use crate::provider::call::ProviderCall;
use crate::provider::choice::{ChoiceError, ToolChoice};
use crate::provider::family::Family;
use crate::provider::gemini::Gemini;
use crate::provider::mcp::Mcp;
use crate::provider::ollama::Ollama;
use crate::provider::openai_chat::{self, groq, vllm};
use crate::provider::openai_responses::Responses;

/// An API that calls tools, and the form of it a registry speaks.
///
/// Each has its tool definitions ([`Provider::definitions`]), its dialect
/// of JSON Schema, its way of sending tool calls
/// ([`Provider::parse_calls`]) and of taking results back
/// ([`Provider::format_results`]); [`Provider::respond`] does the three for
/// one turn of a conversation.
///
/// `strict` asks the provider to hold the model to the schema. A tool whose
/// schema cannot be made strict is sent with `"strict": false` (said
/// explicitly: OpenAI's Responses API would otherwise make it strict its own
/// way), and [`Definitions::not_strict`](crate::provider::Definitions::not_strict) says which and why.
///
/// Groq, Ollama and vLLM speak OpenAI Chat Completions, each with
/// differences of its own: they are the OpenAI Chat family, read and
/// answered by the same code, their differences as data (see each
/// variant).
///
/// The names, for [`FromStr`] and [`Display`](fmt::Display): `openai`,
/// `openai-strict`, `openai-responses` (strict), `openai-responses-loose`,
/// `anthropic`, `anthropic-strict`, `gemini`, `gemini-openapi`, `mcp`,
/// `groq`, `ollama`, `vllm`, `vllm-strict`.
///
/// ```
/// use tool_core::provider::Provider;
///
/// let provider: Provider = "openai-strict".parse().unwrap();
/// assert_eq!(provider, Provider::OpenAiChat { strict: true });
/// assert_eq!(provider.to_string(), "openai-strict");
/// assert!("openai-turbo".parse::<Provider>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions: `tools: [{"type": "function", "function":
    /// {..}}]`, arguments as a JSON string, one `tool` message per result.
    OpenAiChat {
        /// Strict mode: every object closed, every property required, the
        /// optional ones nullable.
        strict: bool,
    },
    /// OpenAI Responses: flat function tools, `function_call` items in,
    /// `function_call_output` items out.
    OpenAiResponses {
        /// Strict mode, as for Chat Completions.
        strict: bool,
    },
    /// Anthropic Messages: `input_schema`, `tool_use` blocks in, one user
    /// message of `tool_result` blocks out (with `is_error`).
    Anthropic {
        /// Strict tool use: every object closed; optional properties stay
        /// optional.
        strict: bool,
    },
    /// Google Gemini: `functionDeclarations`, `functionCall` parts in,
    /// `functionResponse` parts out. Gemini has no per-tool `strict`; to hold
    /// the model to the schemas, set `toolConfig.functionCallingConfig.mode`
    /// to `VALIDATED` in the request.
    Gemini {
        /// The legacy `parameters` (a subset of OpenAPI 3.0, what the Live
        /// API takes) instead of `parametersJsonSchema`.
        openapi: bool,
    },
    /// The Model Context Protocol: `tools/list` entries, `tools/call`
    /// requests in, JSON-RPC responses out.
    Mcp,
    /// Groq's Chat Completions (`https://api.groq.com/openai/v1`): OpenAI
    /// Chat's shapes, without `strict` (Groq's strict mode is for structured
    /// outputs, which do not combine with tool use); each result names its
    /// tool (`name`), as Groq's documentation sends it; the model's message
    /// goes back with only the fields Groq takes, since Groq refuses a
    /// request with any other.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
    ///     {"id": "call_d5wg", "type": "function",
    ///      "function": {"name": "get_weather", "arguments": "{\"location\": \"New York, NY\"}"}}
    /// ]}}]});
    /// let calls = Provider::Groq.parse_calls(&response).unwrap();
    /// assert_eq!(calls[0].id(), Some("call_d5wg"));
    /// ```
    Groq,
    /// Ollama's chat (`/api/chat`; its `/v1/chat/completions` answers are
    /// read too): OpenAI Chat's tool shape, without `strict`; the arguments
    /// come as an object, a call's `id` only from Ollama 0.12.10 on; each
    /// result names its tool (`tool_name`) and echoes the call's id when it
    /// had one. Ollama reads a tool's schema into fixed fields (`type`,
    /// `description`, `enum`, `items`, `anyOf`, `properties`, `required`)
    /// and drops the rest unseen: references are inlined and what the other
    /// keywords said goes into the description.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let response = json!({"model": "llama3.2", "message": {"role": "assistant", "content": "",
    ///     "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]}});
    /// let calls = Provider::Ollama.parse_calls(&response).unwrap();
    /// assert_eq!(calls[0].id(), None);
    /// assert_eq!(calls[0].arguments(), &json!({"city": "Tokyo"}));
    /// ```
    Ollama,
    /// vLLM's OpenAI-compatible server: OpenAI Chat's shapes, ids
    /// `chatcmpl-tool-...`; the definitions are
    /// [`Provider::OpenAiChat`]'s.
    ///
    /// ```
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool]
    /// fn get_weather(city: String) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(GetWeather);
    /// let vllm = Provider::Vllm { strict: true }.definitions(&registry).unwrap();
    /// let openai = Provider::OpenAiChat { strict: true }.definitions(&registry).unwrap();
    /// assert_eq!(vllm.as_json(), openai.as_json());
    /// assert_eq!(vllm.as_json()[0]["function"]["strict"], true);
    /// ```
    Vllm {
        /// Tools sent in OpenAI's strict form with `"strict": true`, which
        /// vLLM holds the model to when it chooses freely
        /// (`tool_choice: "auto"`); vLLM versions before per-tool `strict`
        /// accept the flag and ignore it.
        strict: bool,
    },
    /// A family of your own, for a provider this crate does not ship: see
    /// [`Provider::custom`].
    Custom(CustomFamily),
}

impl Provider {
    /// Every provider, in the order of their names above.
    pub const ALL: [Provider; 13] = [
        Provider::OpenAiChat { strict: false },
        Provider::OpenAiChat { strict: true },
        Provider::OpenAiResponses { strict: true },
        Provider::OpenAiResponses { strict: false },
        Provider::Anthropic { strict: false },
        Provider::Anthropic { strict: true },
        Provider::Gemini { openapi: false },
        Provider::Gemini { openapi: true },
        Provider::Mcp,
        Provider::Groq,
        Provider::Ollama,
        Provider::Vllm { strict: false },
        Provider::Vllm { strict: true },
    ];

    /// The family a provider is: where each of its methods goes. One line
    /// a provider.
    ///
    /// ```
    /// use tool_core::provider::Provider;
    ///
    /// let groq = Provider::Groq.family();
    /// assert_eq!((groq.name(), groq.api()), ("groq", "Groq"));
    /// ```
    pub fn family(self) -> &'static dyn Family {
        match self {
            Provider::OpenAiChat { strict: false } => &openai_chat::OPENAI,
            Provider::OpenAiChat { strict: true } => &openai_chat::OPENAI_STRICT,
            Provider::OpenAiResponses { strict: true } => &Responses { strict: true },
            Provider::OpenAiResponses { strict: false } => &Responses { strict: false },
            Provider::Anthropic { strict: false } => &Anthropic { strict: false },
            Provider::Anthropic { strict: true } => &Anthropic { strict: true },
            Provider::Gemini { openapi: false } => &Gemini { openapi: false },
            Provider::Gemini { openapi: true } => &Gemini { openapi: true },
            Provider::Mcp => &Mcp,
            Provider::Groq => &groq::GROQ,
            Provider::Ollama => &Ollama,
            Provider::Vllm { strict: false } => &vllm::VLLM,
            Provider::Vllm { strict: true } => &vllm::VLLM_STRICT,
            Provider::Custom(custom) => custom.0,
        }
    }

    /// A provider of a family of your own ([`Family`]): it goes through the
    /// same entry points as the families this crate ships (its definitions
    /// are cached by the registry under its [name](Family::name), which must
    /// be its own). [`FromStr`] knows only the shipped providers, so a
    /// [`Turn`](crate::provider::Turn) of it, once saved, is not loaded.
    /// See [`Family`] for a whole family and a turn.
    ///
    /// ```
    /// use tool_core::provider::Provider;
    ///
    /// // A family is usually a `static` of your own type; here, a shipped one.
    /// let groq = Provider::custom(Provider::Groq.family());
    /// assert_eq!(groq.to_string(), "groq");
    /// assert_eq!(groq.api(), "Groq");
    /// assert_ne!(groq, Provider::Groq);
    /// ```
    pub const fn custom(family: &'static dyn Family) -> Self {
        Provider::Custom(CustomFamily(family))
    }

    /// The provider's name, as [`FromStr`] reads it.
    pub fn name(self) -> &'static str {
        self.family().name()
    }

    /// The API, for messages: `OpenAI Chat Completions`, `Gemini`, ...
    pub fn api(self) -> &'static str {
        self.family().api()
    }

    /// What [`Provider::parse_calls`] reads, for messages: `OpenAI Chat
    /// Completions response`, `MCP tools/call request`, ...
    pub fn response_kind(self) -> &'static str {
        self.family().response_kind()
    }

    /// Whether the provider has a strict mode and it was asked for.
    pub fn is_strict(self) -> bool {
        self.family().is_strict()
    }

    /// Checks a tool name against the provider's rule; what is wrong with it
    /// otherwise. Every name a registry takes (`^[a-zA-Z0-9_-]{1,64}$`)
    /// passes OpenAI's, Anthropic's and MCP's rules, and Groq's (OpenAI's);
    /// Gemini also wants the first character to be a letter or `_`.
    pub fn check_name(self, name: &str) -> Result<(), &'static str> {
        crate::tool::name::check_tool_name(name)?;
        self.family().check_name(name)
    }

    /// The tool calls a response holds, in its order.
    ///
    /// Takes a whole response or the part that holds the calls: for OpenAI
    /// Chat (and Groq, vLLM) a completion or its `message`; for Ollama a
    /// chat response or its `message`; for Responses a response or its
    /// `output`; for Anthropic a message or its `content`; for Gemini a
    /// response or its `content`; for MCP a `tools/call` request (or a
    /// batch of them). A response without calls gives none.
    ///
    /// The arguments are kept as the model sent them (OpenAI's JSON string
    /// included): [`ToolRegistry::call`](crate::ToolRegistry::call) reads
    /// them, and malformed ones become an error result the model can act on.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let response = json!({"role": "assistant", "content": [
    ///     {"type": "text", "text": "Let me look."},
    ///     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    /// ]});
    /// let calls = Provider::Anthropic { strict: false }.parse_calls(&response).unwrap();
    /// assert_eq!(calls.len(), 1);
    /// assert_eq!(calls[0].id(), Some("toolu_1"));
    /// assert_eq!(calls[0].name(), "get_weather");
    /// assert_eq!(calls[0].arguments(), &json!({"city": "Paris"}));
    /// ```
    pub fn parse_calls(self, response: &Value) -> Result<Vec<ProviderCall>, ParseError> {
        self.not_an_error(response)?;
        self.family()
            .parse_calls(response)
            .map_err(|message| ParseError {
                provider: self,
                message,
            })
    }

    /// The model's own turn, as the conversation must carry it before the
    /// results: the assistant message (OpenAI Chat and its family; for Groq
    /// only the fields Groq takes back), every
    /// output item (Responses: reasoning items included, as reasoning
    /// models need them back), the model's content (Gemini: with its
    /// `thoughtSignature`s as they came). Nothing for MCP, whose client
    /// keeps its own conversation.
    pub fn model_turn(self, response: &Value) -> Result<Vec<Value>, ParseError> {
        self.not_an_error(response)?;
        self.family()
            .model_turn(response)
            .map_err(|message| ParseError {
                provider: self,
                message,
            })
    }

    /// The model's text in a response (its answer, or what it said beside
    /// its calls), the parts joined by newlines; `None` when it has none.
    /// Gemini's thoughts are left out.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    ///
    /// let response = json!({"choices": [{"message": {"role": "assistant", "content": "It is sunny."}}]});
    /// let text = Provider::OpenAiChat { strict: false }.text(&response);
    /// assert_eq!(text.as_deref(), Some("It is sunny."));
    /// ```
    pub fn text(self, response: &Value) -> Option<String> {
        self.text_of_turn(&self.model_turn(response).ok()?)
    }

    /// The text parts of a model's turn, as [`Provider::model_turn`] gives
    /// it, joined by newlines.
    pub(crate) fn text_of_turn(self, turn: &[Value]) -> Option<String> {
        let family = self.family();
        let mut texts: Vec<&str> = Vec::new();
        for item in turn {
            family.texts(item, &mut texts);
        }
        (!texts.is_empty()).then(|| {
            texts.join(
                "
",
            )
        })
    }

    /// An error body (an overloaded server, a refused key) is not a
    /// response without calls: the loop must not end as if the model had
    /// answered.
    fn not_an_error(self, response: &Value) -> Result<(), ParseError> {
        match response.get("error") {
            None | Some(Value::Null) => Ok(()),
            Some(error) => Err(ParseError {
                provider: self,
                message: format!("the provider answered with an error: {error}"),
            }),
        }
    }

    /// The results of `calls`, in the shape and grouping the provider takes
    /// them back, ready to append to the conversation after
    /// [`Provider::model_turn`]:
    ///
    /// - OpenAI Chat: one `{"role": "tool", "tool_call_id", "content"}`
    ///   message per call, in order (an error is text: Chat has no flag);
    ///   for Groq with the tool's `name`, for Ollama with its `tool_name`
    ///   and the `tool_call_id` only of a call that had an id; vLLM's are
    ///   OpenAI's;
    /// - OpenAI Responses: one `function_call_output` item per call;
    /// - Anthropic: one user message whose `tool_result` blocks come in the
    ///   calls' order, `is_error: true` on failures;
    /// - Gemini: one user content with a `functionResponse` part per call,
    ///   `{"output": ..}` or `{"error": ..}`, the call's `id` echoed;
    /// - MCP: one JSON-RPC response per request: the `CallToolResult`
    ///   (`isError`, and `structuredContent` when the tool declares an
    ///   output schema), or error -32602 for an unknown tool.
    ///
    /// A result made of [parts](crate::output::Part) goes in each provider's blocks:
    /// Anthropic `text`, `image` (JPEG, PNG, GIF, WebP) and `document` (PDF,
    /// plain text) blocks, URL sources for `http(s)` links; Responses
    /// `input_text`, `input_image` and `input_file` parts (data URLs, or the
    /// link's URL); Chat Completions, whose `tool` message takes text only,
    /// the media named in it and sent in one `user` message after the last
    /// `tool` message (`image_url`, `file`, WAV and MP3 as `input_audio`),
    /// each group headed ``Attached by tool `chart` (call `call_1`):``;
    /// Gemini 3 `inlineData` parts of the function response (PNG, JPEG,
    /// WebP, PDF, plain text), each named by a unique `displayName` that
    /// `response` refers to (`{"image_ref": {"$ref": "chart.png"}}`); MCP
    /// `text`, `image`, `audio`, embedded `resource` and `resource_link`
    /// blocks. A part a provider cannot carry is a text part saying what was
    /// left out.
    ///
    /// `results[i]` is the result of `calls[i]`; a call without a result
    /// (a shorter `results`) is answered as an error, since every provider
    /// wants an answer to each call.
    pub fn format_results(self, calls: &[ProviderCall], results: &[ToolResult]) -> Vec<Value> {
        let missing = ToolResult::error("no result was produced for this call");
        let mut pairs = calls
            .iter()
            .enumerate()
            .map(|(at, call)| (call, results.get(at).unwrap_or(&missing)));
        self.family().format_results(&mut pairs)
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A provider name that is none of [`Provider`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider `{0}`; the providers are {names}", names = Provider::ALL.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "))]
pub struct UnknownProvider(pub String);

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|provider| provider.name() == name)
            .ok_or_else(|| UnknownProvider(name.to_owned()))
    }
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
        self.family()
            .tool_choice(choice)
            .map_err(|reason| ChoiceError {
                by: self.api(),
                reason,
            })
    }
}

/// A family of your own, as [`Provider::Custom`] holds it: compared, hashed
/// and shown by its [name](Family::name).
///
/// ```
/// use tool_core::provider::Provider;
///
/// let a = Provider::custom(Provider::Mcp.family());
/// let b = Provider::custom(Provider::Mcp.family());
/// assert_eq!(a, b);
/// assert_eq!(format!("{a:?}"), r#"Custom(CustomFamily("mcp"))"#);
/// ```
#[derive(Clone, Copy)]
pub struct CustomFamily(&'static dyn Family);

impl PartialEq for CustomFamily {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name()
    }
}

impl Eq for CustomFamily {}

impl std::hash::Hash for CustomFamily {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name().hash(state);
    }
}

impl fmt::Debug for CustomFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CustomFamily").field(&self.0.name()).finish()
    }
}

/// A response that is not the provider's shape: the tool calls in it cannot
/// be told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the tool calls of this {}: {message}", provider.response_kind())]
pub struct ParseError {
    /// The provider the response was read as.
    pub provider: Provider,
    /// What was missing or of the wrong type.
    pub message: String,
}
