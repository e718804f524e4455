//! Tool definitions in each provider's request shape: each tool's from its
//! family, the list as a [`Listing`] asks, cached by the registry.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::error::tool_error::RegistryError;
use crate::provider::family::{Family, ListState};
use crate::provider::listing::SEARCH_TOOL;
use crate::provider::listing::{Listing, Search};
use crate::provider::not_strict::{Blocker, NotStrict};
use crate::provider::selector::Provider;
use crate::provider::tool_list::ToolList;
use crate::registry::tool_registry::ToolCheck;
use crate::tool::ToolInfo;
use crate::toolset::auto_defer::{AutoKey, Weighed};

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
    /// The automatic deferral they were listed with, if any.
    auto: Option<AutoKey>,
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

    /// Whether these are the definitions `listing` makes (a listing's key
    /// tells apart all but its automatic deferral's settings).
    pub(crate) fn listed_as(&self, listing: Listing) -> bool {
        match (listing.auto_asked(), &self.auto) {
            (None, None) => true,
            (Some(auto), Some(key)) => auto.is(key),
            _ => false,
        }
    }

    /// One value per tool: the list itself, or for Gemini the
    /// `functionDeclarations` of its one entry.
    #[cfg(feature = "tokens")]
    fn entries(&self) -> &[Value] {
        self.provider.family().each_definition(&self.tools)
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

/// Builds a provider's definitions for the tools, in order: each tool's
/// from its family, then listed as `listing` asks.
pub(crate) fn build_definitions<'a>(
    provider: Provider,
    tools: impl IntoIterator<Item = ToolInfo<'a>>,
    listing: Listing,
) -> Result<Definitions, RegistryError> {
    let family = provider.family();
    let mut state = ListState::default();
    let mut list = Vec::new();
    let mut not_strict = Vec::new();
    let tools: Vec<ToolInfo<'a>> = tools.into_iter().collect();
    let auto = listing.auto_asked();
    let deferred: Vec<bool> = match auto {
        Some(auto) => {
            let weighed: Vec<Weighed<'_>> = tools.iter().map(Weighed::of).collect();
            auto.waiting(&weighed, SEARCH_TOOL)
        }
        None => tools
            .iter()
            .map(|tool| listing.defers(tool.metadata.defer))
            .collect(),
    };
    for tool in tools {
        let (definition, fallback) = definition_of(family, &tool, &mut state)?;
        if let Some(fallback) = fallback {
            tracing::warn!(provider = %provider, "{fallback}");
            not_strict.push(fallback);
        }
        list.push(definition);
    }
    mark(listing, family, &mut list, &deferred)?;
    Ok(Definitions {
        provider,
        tools: family.tools_field(list),
        not_strict,
        auto: auto.map(|auto| auto.key()),
    })
}

/// One tool's definition for a family, and why it is not strict when
/// strict mode was asked for and cannot be had.
fn definition_of(
    family: &dyn Family,
    tool: &ToolInfo<'_>,
    state: &mut ListState,
) -> Result<(Value, Option<NotStrict>), RegistryError> {
    let name = &tool.definition.name;
    crate::tool::name::check_tool_name(name)
        .and_then(|()| family.check_name(name))
        .map_err(|reason| RegistryError::NameRejected {
            name: name.to_owned(),
            by: family.api(),
            reason,
        })?;
    let rejected = |blockers: Vec<Blocker>| RegistryError::SchemaRejected {
        name: name.to_owned(),
        by: family.api(),
        reason: blockers
            .iter()
            .map(Blocker::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    };
    let mut parameters = family.parameters(tool, state).map_err(rejected)?;
    let root_type = parameters.schema.get("type").and_then(Value::as_str);
    if !matches!(root_type, Some("object" | "OBJECT")) {
        return Err(rejected(vec![Blocker {
            at: String::new(),
            reason: "the arguments are not an object (every provider wants `\"type\": \"object\"` at the root)"
                .into(),
        }]));
    }
    let definition = family.definition(tool, &mut parameters);
    Ok((definition, parameters.not_strict))
}

/// Marks the definitions for the family: `defer_loading` on those that
/// wait (`deferred`, one flag per definition), the search's entry (first or
/// last, as the family's documentation lists it), and the cache breakpoint
/// on the last definition shown.
fn mark(
    listing: Listing,
    family: &dyn Family,
    list: &mut Vec<Value>,
    deferred: &[bool],
) -> Result<(), RegistryError> {
    let refused = |reason: String| RegistryError::Listing {
        by: family.api(),
        reason,
    };
    let search = listing.search_asked();
    let mut entry = match search {
        Some(search) => family.tool_search(search).map_err(refused)?,
        None => None,
    };
    let client = search == Some(Search::Client);
    let named = |tool: &Value| tool["name"] == SEARCH_TOOL;
    if client && !list.iter().any(named) {
        return Err(refused(format!(
            "`Search::Client` needs the registry's own search tool, `{SEARCH_TOOL}` (`tool_core::search::SearchTool`)"
        )));
    }
    for (definition, &waits) in list.iter_mut().zip(deferred) {
        // The search itself is never deferred.
        if waits && !(client && named(definition)) {
            definition["defer_loading"] = Value::Bool(true);
        }
    }
    if matches!(search, Some(Search::Native | Search::NativeRegex)) {
        // The provider searches: the registry's own search, there for
        // the providers without one, would offer the model a second.
        list.retain(|tool| !named(tool));
    }
    if client
        && let Some(at) = list.iter().position(named)
        && let Some(stands_for) = family.client_search(&list[at])
    {
        list.remove(at);
        entry = Some(stands_for);
    }
    if let Some(entry) = entry {
        if let Some(name) = entry.get("name").and_then(Value::as_str)
            && list.iter().any(|tool| tool["name"] == name)
        {
            return Err(refused(format!(
                "a tool is named `{name}`, as the tool search is"
            )));
        }
        if family.search_goes_first() {
            list.insert(0, entry);
        } else {
            list.push(entry);
        }
    }
    if listing.cache_asked()
        && let Some(breakpoint) = family.cache_breakpoint()
        && let Some(last) = list
            .iter_mut()
            .rev()
            .find(|definition| definition.get("defer_loading").is_none())
    {
        last["cache_control"] = breakpoint;
    }
    Ok(())
}

impl Provider {
    /// Every tool's definition in the provider's request shape, its schema
    /// in the provider's dialect: the value of the request's `tools` field.
    /// Made on first use and cached until a tool is added.
    ///
    /// An error when a tool's name or schema is one the provider rejects
    /// (a name starting with a digit for Gemini, a recursive type for
    /// Gemini's OpenAPI form, arguments that are not an object); name the
    /// providers up front with
    /// [`RegistryBuilder::check`](crate::registry::RegistryBuilder::check) to have
    /// that at registration instead. A tool that cannot be strict is not an
    /// error: see [`Definitions::not_strict`].
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::provider::Provider;
    /// use tool_core::{tool, ToolRegistry};
    ///
    /// /// Get the weather for a city.
    /// #[tool]
    /// fn get_weather(
    ///     /// The city.
    ///     city: String,
    ///     /// Days ahead, today when left out.
    ///     days: Option<u8>,
    /// ) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(GetWeather);
    /// let definitions = Provider::OpenAiChat { strict: true }.definitions(&registry).unwrap();
    /// assert_eq!(
    ///     definitions.as_json(),
    ///     &json!([{
    ///         "type": "function",
    ///         "function": {
    ///             "name": "get_weather",
    ///             "description": "Get the weather for a city.",
    ///             "parameters": {
    ///                 "type": "object",
    ///                 "properties": {
    ///                     "city": {"description": "The city.", "type": "string"},
    ///                     "days": {
    ///                         "description": "Days ahead, today when left out.",
    ///                         "type": ["integer", "null"],
    ///                         "minimum": 0,
    ///                         "maximum": 255
    ///                     }
    ///                 },
    ///                 "required": ["city", "days"],
    ///                 "additionalProperties": false
    ///             },
    ///             "strict": true
    ///         }
    ///     }])
    /// );
    /// ```
    pub fn definitions(self, tools: &impl ToolList) -> Result<Arc<Definitions>, RegistryError> {
        tools.definitions_for(self, Listing::new())
    }

    /// The tools' definitions as [`Provider::definitions`] makes them,
    /// listed as `listing` asks: with the provider's tool search and the
    /// tools that wait for it to find them, and a prompt cache breakpoint.
    /// Cached per listing as the plain definitions are.
    ///
    /// An error, besides those of [`Provider::definitions`], when the
    /// provider has no search of the kind asked for, or a tool has the
    /// search's name. See [`Listing`] for an example.
    pub fn definitions_with(
        self,
        tools: &impl ToolList,
        listing: Listing,
    ) -> Result<Arc<Definitions>, RegistryError> {
        tools.definitions_for(self, listing)
    }
}

/// A provider as a registry's [`ToolCheck`]: every tool must have a name it
/// accepts and a schema its dialect can say.
impl ToolCheck for Provider {
    fn check_all(
        &self,
        tools: &mut dyn Iterator<Item = ToolInfo<'_>>,
    ) -> Result<(), RegistryError> {
        build_definitions(*self, tools, Listing::new()).map(drop)
    }
}
