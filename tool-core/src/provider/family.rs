//! What one provider family is: its definitions, its calls, its reply, its
//! stream. [`Provider`](crate::provider::Provider) selects a family and
//! delegates to it; each family's code lives in its own folder.

use std::any::Any;

use serde_json::Value;

use crate::output::result::ToolResult;
use crate::provider::call::ProviderCall;
use crate::provider::choice::ToolChoice;
use crate::provider::listing::Search;
use crate::provider::not_strict::{Blocker, NotStrict};
use crate::provider::stream::event::ReadStream;
use crate::schema::dialect::Unfit;
use crate::tool::ToolInfo;

/// One provider family: an API that calls tools, in one of its forms (strict
/// or not, a dialect among several). [`Provider`](crate::provider::Provider)
/// selects the families this crate ships; [`Provider::custom`] takes one of
/// your own, which then goes through the same entry points as the shipped
/// ones: [`Provider::definitions`] (cached by the registry under
/// [`Family::name`]), [`Provider::parse_calls`], [`Provider::respond`],
/// [`Provider::tool_choice`], [`Provider::stream_reader`].
///
/// A family says what is its own and nothing else: the registry checks
/// names, refuses arguments that are not an object, logs the tools that
/// go without strict mode, pairs each call with its result, refuses an
/// error body before [`Family::parse_calls`] sees it, and writes the
/// messages (`cannot read the tool calls of this {response_kind}: ..`).
///
/// [`Provider::custom`]: crate::provider::Provider::custom
/// [`Provider::definitions`]: crate::provider::Provider::definitions
/// [`Provider::parse_calls`]: crate::provider::Provider::parse_calls
/// [`Provider::respond`]: crate::provider::Provider::respond
/// [`Provider::tool_choice`]: crate::provider::Provider::tool_choice
/// [`Provider::stream_reader`]: crate::provider::Provider::stream_reader
///
/// A provider this crate does not ship, its calls as `{"calls": [{"ref",
/// "tool", "input"}]}` and its results as `{"ref", "output"}`:
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::{Value, json};
/// use tool_core::provider::{
///     Blocker, Family, ListState, Parameters, Provider, ProviderCall, ToolChoice,
/// };
/// use tool_core::registry::ToolInfo;
/// use tool_core::{tool, ToolContext, ToolRegistry, ToolResult};
///
/// struct Acme;
///
/// impl Family for Acme {
///     fn name(&self) -> &'static str { "acme" }
///     fn api(&self) -> &'static str { "Acme" }
///     fn response_kind(&self) -> &'static str { "Acme reply" }
///
///     fn parameters(
///         &self,
///         tool: &ToolInfo<'_>,
///         _: &mut ListState,
///     ) -> Result<Parameters, Vec<Blocker>> {
///         Ok(Parameters::plain(tool.definition.input_schema.clone()))
///     }
///
///     fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
///         json!({"tool": tool.definition.name, "input": parameters.schema.take()})
///     }
///
///     fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
///         let calls = response["calls"].as_array().ok_or("no `calls`")?;
///         let call = |c: &Value| {
///             let id = c["ref"].as_str().map(str::to_owned);
///             ProviderCall::new(id, c["tool"].as_str().unwrap_or_default(), c["input"].clone())
///         };
///         Ok(calls.iter().map(call).collect())
///     }
///
///     fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
///         Ok(vec![response.clone()])
///     }
///
///     fn format_results(
///         &self,
///         answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
///     ) -> Vec<Value> {
///         answered
///             .map(|(call, result)| json!({"ref": call.id(), "output": result.model_text()}))
///             .collect()
///     }
///
///     fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
///         match choice {
///             ToolChoice::Auto => Ok(None),
///             _ => Err("it always chooses for itself".into()),
///         }
///     }
/// }
///
/// static ACME: Acme = Acme;
///
/// /// Add two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(Add);
/// let acme = Provider::custom(&ACME);
/// assert_eq!(acme.definitions(&registry).unwrap().as_json()[0]["tool"], "add");
///
/// let response = json!({"calls": [{"ref": "r1", "tool": "add", "input": {"a": 1, "b": 2}}]});
/// let turn = acme.respond(&registry, &ToolContext::new(()), &response).await.unwrap();
/// assert_eq!(turn.reply(), [json!({"ref": "r1", "output": "3"})]);
/// # });
/// ```
pub trait Family: Send + Sync + 'static {
    /// The family's name, as [`Provider`](crate::provider::Provider)'s
    /// `Display` writes it (`openai-strict`, `gemini`...). The registry
    /// caches definitions by it: it must be the family's own.
    fn name(&self) -> &'static str;

    /// The API, for messages: `OpenAI Chat Completions`, `Gemini`...
    fn api(&self) -> &'static str;

    /// What [`Family::parse_calls`] reads, for messages: `OpenAI Chat
    /// Completions response`, `MCP tools/call request`...
    fn response_kind(&self) -> &'static str;

    /// Whether the family has a strict mode and it was asked for.
    fn is_strict(&self) -> bool {
        false
    }

    /// What more than the registry's own rule (`^[a-zA-Z0-9_-]{1,64}$`)
    /// the family asks of a tool's name; what is wrong with it otherwise.
    fn check_name(&self, name: &str) -> Result<(), &'static str> {
        let _ = name;
        Ok(())
    }

    /// The tool's input schema in the family's dialect of JSON Schema,
    /// strict when strict mode was asked for and can be had. `list` is kept
    /// across the tools of one list, for limits a request puts on all of
    /// them. An error, everything that stands in the way, when the dialect
    /// cannot say the schema at all: the tool is refused.
    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>>;

    /// The tool's definition in the family's request shape, around its
    /// `parameters` (whose root the registry has checked is an object:
    /// take the schema with `parameters.schema.take()`), with what else the
    /// tool tells the family (examples, who may call it...). An extra that
    /// takes strict mode away says so in `parameters.not_strict`.
    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value;

    /// The value of the request's `tools` made of the definitions, in
    /// order: the list itself, unless the family wraps it.
    fn tools_field(&self, definitions: Vec<Value>) -> Value {
        Value::Array(definitions)
    }

    /// One value per tool of [`Family::tools_field`]'s value, for counting
    /// each one's tokens.
    fn each_definition<'v>(&self, tools: &'v Value) -> &'v [Value] {
        tools.as_array().map_or(&[], Vec::as_slice)
    }

    /// The entry of the family's own tool search of the kind asked for
    /// (`None` when the search is the registry's own tool, listed as it
    /// is); why not, for a family that has none of that kind.
    fn tool_search(&self, search: Search) -> Result<Option<Value>, String> {
        Err(match search {
            Search::Client => format!(
                "{} loads no deferred tools: list those shown up front and those a search found with a view (`Select::all().up_front().names(turn.found())`)",
                self.api()
            ),
            _ => format!(
                "{} has no tool search of its own; show the model the tools a request needs with a view (`registry.view`)",
                self.api()
            ),
        })
    }

    /// Whether the search's entry is listed first (as Anthropic's
    /// documentation lists it) rather than last.
    fn search_goes_first(&self) -> bool {
        false
    }

    /// The entry that stands for the registry's own search tool (its
    /// definition given) when the family runs a search the application
    /// executes (OpenAI Responses' client `tool_search`); `None` lists the
    /// tool as it is.
    fn client_search(&self, search_tool: &Value) -> Option<Value> {
        let _ = search_tool;
        None
    }

    /// The prompt cache breakpoint set on the last definition shown up
    /// front, for a family that takes one (Anthropic's `cache_control`).
    fn cache_breakpoint(&self) -> Option<Value> {
        None
    }

    /// The tool calls a response holds, in its order; a message saying
    /// what is wrong when it is not the family's shape. A response without
    /// calls gives none.
    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String>;

    /// The model's own turn, as the conversation must carry it before the
    /// results.
    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String>;

    /// The model's texts in one item of its turn (as
    /// [`Family::model_turn`] gives it), added to `texts`; none by default.
    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        let _ = (item, texts);
    }

    /// The results of the calls, each with its call, in the shape and
    /// grouping the family takes them back.
    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value>;

    /// `choice` as the family takes it (`None` to leave the field out);
    /// what it takes instead, for a choice it does not.
    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String>;

    /// A reader of the family's streamed response; `None` for a family that
    /// does not stream.
    fn stream_reader(&self) -> Option<Box<dyn ReadStream>> {
        None
    }

    /// A whole response as the family streams it, for scripted servers and
    /// tests; `None` when it is not the family's whole response, or the
    /// family does not stream.
    fn streamed(&self, response: &Value) -> Option<String> {
        let _ = response;
        None
    }
}

/// A tool's input schema in a family's dialect: what
/// [`Family::parameters`] gives and [`Family::definition`] wraps.
///
/// ```
/// use serde_json::json;
/// use tool_core::provider::Parameters;
///
/// let mut parameters = Parameters::plain(json!({"type": "object"}));
/// assert!(!parameters.strict);
/// assert_eq!(parameters.schema.take(), json!({"type": "object"}));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Parameters {
    /// The schema, in the family's dialect.
    pub schema: Value,
    /// Whether it is in the family's strict form, to be sent as strict.
    pub strict: bool,
    /// Why it is not, when strict mode was asked for and cannot be had.
    pub not_strict: Option<NotStrict>,
}

impl Parameters {
    /// `schema` as it is, not strict.
    pub fn plain(schema: Value) -> Self {
        Self {
            schema,
            strict: false,
            not_strict: None,
        }
    }

    /// The dialect's schema, or everything that keeps the dialect from
    /// saying it.
    pub(crate) fn made(made: Result<Value, Vec<Unfit>>) -> Result<Self, Vec<Blocker>> {
        made.map(Self::plain)
            .map_err(|unfit| unfit.into_iter().map(Blocker::from).collect())
    }

    /// The strict schema of `tool` when it was asked for (`made`) and can
    /// be had; the `plain` one, and why, otherwise.
    pub(crate) fn strict_or(
        tool: &ToolInfo<'_>,
        made: Option<Result<Value, Vec<Unfit>>>,
        plain: impl FnOnce() -> Value,
    ) -> Self {
        match made {
            Some(Ok(schema)) => Self {
                strict: true,
                ..Self::plain(schema)
            },
            Some(Err(unfit)) => Self {
                not_strict: Some(NotStrict {
                    tool: tool.definition.name.to_owned(),
                    blockers: unfit.into_iter().map(Blocker::from).collect(),
                }),
                ..Self::plain(plain())
            },
            None => Self::plain(plain()),
        }
    }
}

/// What a family keeps across the tools of one list while
/// [`Family::parameters`] writes them: a value of the family's own type,
/// made on first use (Anthropic counts its strict tools' optional
/// parameters against a request's limits).
///
/// ```
/// use tool_core::provider::ListState;
///
/// let mut list = ListState::default();
/// list.with(|count: &mut usize| *count += 1);
/// assert_eq!(list.with(|count: &mut usize| *count), 1);
/// ```
#[derive(Default)]
pub struct ListState {
    kept: Option<Box<dyn Any + Send>>,
}

impl ListState {
    /// Runs `f` on the kept value of type `T` (its default, the first
    /// time); a value of another type kept before is dropped.
    pub fn with<T: Any + Send + Default, R>(&mut self, f: impl FnOnce(&mut T) -> R) -> R {
        let mut kept: Box<T> = self
            .kept
            .take()
            .and_then(|kept| kept.downcast::<T>().ok())
            .unwrap_or_default();
        let made = f(&mut kept);
        self.kept = Some(kept);
        made
    }
}

impl std::fmt::Debug for ListState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListState")
            .field("kept", &self.kept.is_some())
            .finish()
    }
}
