//! Tool definitions in each provider's request shape.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::tool_error::RegistryError;
use crate::provider::listing::Listing;
use crate::provider::{Provider, extras};
use crate::schema::dialect;
use crate::schema::dialect::Unfit;
use crate::schema::dialect::anthropic::AnthropicBudget;
use crate::tool::ToolInfo;

/// The tool list of a registry for one provider: the value of the request's
/// `tools` field (for MCP, of the `tools/list` result's `tools`), made once
/// and cached by the registry until a tool is added.
///
/// Serializes as [`Definitions::as_json`], so it can go into a request body
/// as it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Definitions {
    provider: Provider,
    tools: Value,
    not_strict: Vec<NotStrict>,
}

impl Definitions {
    /// The provider these are for.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The tool list as JSON, in the provider's exact shape (the value of
    /// the request's `tools`), in registration order.
    pub fn as_json(&self) -> &Value {
        &self.tools
    }

    /// The tools that strict mode was asked for but that go without it, and
    /// everything that stands in the way of each (a map with free keys, a
    /// tuple, a recursive type, a provider's limit...): see [`NotStrict`].
    /// Empty when every tool is strict, or strict mode was not asked for.
    /// Each is also logged once, as a `tracing` warning.
    pub fn not_strict(&self) -> &[NotStrict] {
        &self.not_strict
    }

    /// Each tool's definition counted in tokens of OpenAI's `o200k_base`
    /// encoding (GPT-4o's and later models'), in registration order: the
    /// tokens of the definition as compact JSON, as it goes into the
    /// request (for Gemini, each entry of `functionDeclarations`).
    ///
    /// What a provider bills is more: it wraps the definitions in a prompt
    /// template of its own (and Anthropic and Gemini tokenize with their own
    /// encodings), which adds a roughly constant amount per tool. The count
    /// compares tools, and one provider's definitions with another's.
    ///
    /// ```
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool]
    /// fn get_weather(
    ///     /// City name, e.g. "Paris".
    ///     city: String,
    /// ) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(GetWeather);
    /// let definitions = Provider::Mcp.definitions(&registry).unwrap();
    /// let counts = definitions.token_counts();
    /// assert_eq!(counts[0].name, "get_weather");
    /// assert!(counts[0].tokens > 0);
    /// assert_eq!(definitions.total_tokens(), counts[0].tokens);
    /// ```
    #[cfg(feature = "tokens")]
    pub fn token_counts(&self) -> Vec<ToolTokens> {
        let bpe = tiktoken_rs::o200k_base_singleton();
        self.entries()
            .iter()
            .map(|definition| {
                let name = definition
                    .get("name")
                    .or_else(|| definition.get("function").and_then(|f| f.get("name")))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let tokens = bpe.encode_ordinary(&definition.to_string()).len();
                ToolTokens { name, tokens }
            })
            .collect()
    }

    /// The sum of [`Definitions::token_counts`]: what the tools' definitions
    /// cost every request that sends them, in `o200k_base` tokens (without
    /// the brackets and commas of the list around them).
    #[cfg(feature = "tokens")]
    pub fn total_tokens(&self) -> usize {
        self.token_counts().iter().map(|tool| tool.tokens).sum()
    }

    /// One value per tool: the list itself, or for Gemini the
    /// `functionDeclarations` of its one entry.
    #[cfg(feature = "tokens")]
    fn entries(&self) -> &[Value] {
        let list = match self.provider {
            Provider::Gemini { .. } => self
                .tools
                .get(0)
                .and_then(|tool| tool.get("functionDeclarations")),
            _ => Some(&self.tools),
        };
        list.and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }
}

/// One tool's definition counted in `o200k_base` tokens: see
/// [`Definitions::token_counts`].
#[cfg(feature = "tokens")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolTokens {
    /// The tool's name.
    pub name: String,
    /// The tokens of its definition as compact JSON.
    pub tokens: usize,
}

impl Serialize for Definitions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.tools.serialize(serializer)
    }
}

/// A tool sent with `"strict": false` although strict mode was asked for,
/// with every part of its input schema that stands in the way, so that all
/// of them can be fixed in one go.
///
/// ```
/// use std::collections::HashMap;
///
/// use tool_core::provider::{Blocker, Provider};
/// use tool_core::{tool, ToolRegistry};
///
/// /// Count words and mark a spot.
/// #[tool]
/// fn count(
///     /// Counts so far, by word.
///     seen: HashMap<String, u32>,
///     /// Row and column.
///     spot: (u32, u32),
/// ) -> String {
///     format!("{} words, at {spot:?}", seen.len())
/// }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(Count);
/// let definitions = Provider::OpenAiChat { strict: true }.definitions(&registry).unwrap();
/// let [not_strict] = definitions.not_strict() else { panic!("one tool") };
/// assert_eq!(not_strict.tool, "count");
/// assert_eq!(
///     not_strict.blockers,
///     [
///         Blocker {
///             at: "/properties/seen".into(),
///             reason: "a map (`additionalProperties` is a schema): strict mode closes every object".into(),
///         },
///         Blocker {
///             at: "/properties/spot".into(),
///             reason: "a tuple (`prefixItems`) is outside strict mode's subset".into(),
///         },
///     ]
/// );
/// assert_eq!(
///     not_strict.to_string(),
///     "tool `count` is sent with `strict: false`: its input schema cannot be made strict \
///      (at `/properties/seen`: a map (`additionalProperties` is a schema): strict mode closes every object; \
///      at `/properties/spot`: a tuple (`prefixItems`) is outside strict mode's subset)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotStrict {
    /// The tool's name.
    pub tool: String,
    /// Everything that keeps its schema from strict mode, in the order
    /// found (never empty).
    pub blockers: Vec<Blocker>,
}

impl fmt::Display for NotStrict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool `{}` is sent with `strict: false`: its input schema cannot be made strict (",
            self.tool
        )?;
        for (index, blocker) in self.blockers.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{blocker}")?;
        }
        f.write_str(")")
    }
}

/// One thing that keeps a tool's input schema from strict mode: where it
/// is, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocker {
    /// The JSON Pointer of the subschema that stands in the way, in the
    /// schema as the provider's strict form writes it (references with a
    /// description beside them inlined); empty for the whole schema (the
    /// root, or a limit of the provider's).
    pub at: String,
    /// What stands in the way, and why the provider's strict mode refuses it.
    pub reason: String,
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "at `{}`: {}", self.at, self.reason)
        }
    }
}

impl From<Unfit> for Blocker {
    fn from(unfit: Unfit) -> Self {
        Blocker {
            at: unfit.at,
            reason: unfit.reason,
        }
    }
}

/// Builds a provider's definitions for the tools, in order.
pub(crate) fn build_definitions<'a>(
    provider: Provider,
    tools: impl IntoIterator<Item = ToolInfo<'a>>,
    listing: Listing,
) -> Result<Definitions, RegistryError> {
    let mut budget = AnthropicBudget::default();
    let mut list = Vec::new();
    let mut deferred = Vec::new();
    let mut not_strict = Vec::new();
    for tool in tools {
        deferred.push(listing.defers(tool.metadata.defer));
        let (definition, fallback) = definition_of(provider, &tool, &mut budget)?;
        if let Some(fallback) = fallback {
            tracing::warn!(provider = %provider, "{fallback}");
            not_strict.push(fallback);
        }
        list.push(definition);
    }
    listing.mark(provider, &mut list, &deferred)?;
    let tools = match provider {
        Provider::Gemini { .. } => json!([{ "functionDeclarations": list }]),
        _ => Value::Array(list),
    };
    Ok(Definitions {
        provider,
        tools,
        not_strict,
    })
}

/// One tool's definition for a provider, and why it is not strict when
/// strict mode was asked for and cannot be had.
pub(crate) fn definition_of(
    provider: Provider,
    tool: &ToolInfo<'_>,
    budget: &mut AnthropicBudget,
) -> Result<(Value, Option<NotStrict>), RegistryError> {
    provider
        .check_name(&tool.definition.name)
        .map_err(|reason| RegistryError::NameRejected {
            name: tool.definition.name.to_owned(),
            by: provider.api(),
            reason,
        })?;
    let rejected = |unfit: Vec<Unfit>| RegistryError::SchemaRejected {
        name: tool.definition.name.to_owned(),
        by: provider.api(),
        reason: unfit
            .iter()
            .map(Unfit::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    };
    let fallback = |unfit: Vec<Unfit>| NotStrict {
        tool: tool.definition.name.to_owned(),
        blockers: unfit.into_iter().map(Blocker::from).collect(),
    };
    let schema = &tool.definition.input_schema;
    let (parameters, strict, not_strict) = match provider {
        Provider::OpenAiChat { strict }
        | Provider::OpenAiResponses { strict }
        | Provider::Vllm { strict } => {
            let made = strict.then(|| dialect::openai_strict(schema));
            strictly(made, || dialect::json_schema(schema), fallback)
        }
        Provider::Groq => (dialect::json_schema(schema), false, None),
        Provider::Ollama => (dialect::ollama(schema).map_err(rejected)?, false, None),
        Provider::Anthropic { strict } => {
            let made = strict.then(|| dialect::anthropic::anthropic_strict(schema, budget));
            strictly(made, || dialect::json_schema(schema), fallback)
        }
        Provider::Gemini { openapi: false } => {
            (dialect::gemini(schema).map_err(rejected)?, false, None)
        }
        Provider::Gemini { openapi: true } => (
            dialect::gemini_openapi(schema).map_err(rejected)?,
            false,
            None,
        ),
        Provider::Mcp => (dialect::mcp_input(schema), false, None),
    };
    let root_type = parameters.get("type").and_then(Value::as_str);
    if !matches!(root_type, Some("object" | "OBJECT")) {
        return Err(rejected(vec![Unfit {
            at: String::new(),
            reason: "the arguments are not an object (every provider wants `\"type\": \"object\"` at the root)"
                .into(),
        }]));
    }
    let mut definition = shaped(provider, tool, parameters, strict);
    let mut not_strict = not_strict;
    extras::add(provider, tool, &mut definition, &mut not_strict);
    Ok((definition, not_strict))
}

/// A tool's definition in the provider's request shape, around its
/// parameters in the provider's dialect.
fn shaped(provider: Provider, tool: &ToolInfo<'_>, parameters: Value, strict: bool) -> Value {
    let (name, description) = (
        tool.definition.name.as_str(),
        tool.definition.description.as_str(),
    );
    match provider {
        Provider::OpenAiChat { .. } | Provider::Vllm { .. } => json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": parameters,
                "strict": strict,
            }
        }),
        // Neither documents `strict` for a tool: Groq's strict mode is its
        // structured outputs', and Ollama reads no such field.
        Provider::Groq | Provider::Ollama => json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": parameters,
            }
        }),
        Provider::OpenAiResponses { .. } => json!({
            "type": "function",
            "name": name,
            "description": description,
            "parameters": parameters,
            "strict": strict,
        }),
        Provider::Anthropic { strict: asked } => {
            let mut definition = json!({
                "name": name,
                "description": description,
                "input_schema": parameters,
            });
            if asked {
                definition["strict"] = Value::Bool(strict);
            }
            definition
        }
        // The OpenAPI form refuses an object without properties: a tool
        // without arguments leaves `parameters` out.
        Provider::Gemini { openapi: true } if parameters["properties"] == json!({}) => {
            json!({ "name": name, "description": description })
        }
        Provider::Gemini { openapi } => {
            let field = if openapi {
                "parameters"
            } else {
                "parametersJsonSchema"
            };
            json!({ "name": name, "description": description, field: parameters })
        }
        Provider::Mcp => mcp_tool(tool, parameters),
    }
}

/// The strict schema when it was asked for and can be had; the plain one,
/// and why, otherwise.
fn strictly(
    made: Option<Result<Value, Vec<Unfit>>>,
    plain: impl FnOnce() -> Value,
    fallback: impl FnOnce(Vec<Unfit>) -> NotStrict,
) -> (Value, bool, Option<NotStrict>) {
    match made {
        Some(Ok(schema)) => (schema, true, None),
        Some(Err(unfit)) => (plain(), false, Some(fallback(unfit))),
        None => (plain(), false, None),
    }
}

/// An MCP `Tool`: name, title, description, the schemas, the annotations.
fn mcp_tool(tool: &ToolInfo<'_>, input_schema: Value) -> Value {
    let metadata = tool.metadata;
    let mut definition = Map::new();
    definition.insert("name".into(), tool.definition.name.as_str().into());
    if let Some(title) = &metadata.title {
        definition.insert("title".into(), title.as_ref().into());
    }
    definition.insert(
        "description".into(),
        tool.definition.description.as_str().into(),
    );
    definition.insert("inputSchema".into(), input_schema);
    // MCP takes only object output schemas; a tool returning something else
    // is described by its text.
    if let Some(output) = tool.output_schema.map(dialect::mcp_output)
        && output.get("type").and_then(Value::as_str) == Some("object")
    {
        definition.insert("outputSchema".into(), output);
    }
    let mut annotations = Map::new();
    if let Some(title) = &metadata.title {
        annotations.insert("title".into(), title.as_ref().into());
    }
    // Only the hints that differ from MCP's defaults: a client reads an
    // absent hint as its default, and a list of 100 tools need not say
    // 400 times what goes without saying.
    let hints = [
        ("readOnlyHint", metadata.read_only, false),
        ("destructiveHint", metadata.destructive, true),
        ("idempotentHint", metadata.idempotent, false),
        ("openWorldHint", metadata.open_world, true),
    ];
    for (hint, value, mcp_default) in hints {
        if value != mcp_default {
            annotations.insert(hint.into(), value.into());
        }
    }
    if !annotations.is_empty() {
        definition.insert("annotations".into(), Value::Object(annotations));
    }
    Value::Object(definition)
}
