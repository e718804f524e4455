//! The set of tools an agent offers, and the one entry point that runs them.

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::dispatch::access::allowed;
use crate::dispatch::entry::Entry;
use crate::dispatch::pipeline::Pipeline;
use crate::dispatch::runner::Registration;
use crate::dispatch::settings::Settings;
use crate::error::tool_error::{RegistryError, ToolError};
use crate::output::result::ToolResult;
use crate::registry::batch::ToolCall;
use crate::registry::batch::{Batch, run_batch};
use crate::registry::into_tool::IntoTool;
use crate::tool::ToolDefinition;
use crate::tool::ToolInfo;
use crate::tool::context::ToolContext;
use crate::tool::name::check_tool_name;

/// What [`ToolRegistry::insert`] does when the name is taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnDuplicate {
    /// Refuse with [`RegistryError::DuplicateName`]. The default.
    #[default]
    Error,
    /// Keep the tool already registered and drop the new one.
    Keep,
    /// Put the new tool in the old one's place (same position in
    /// [`ToolRegistry::names`]).
    Replace,
}

/// What [`ToolRegistry::insert`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inserted {
    /// The name was free; the tool was added.
    Added,
    /// The name was taken; the old tool stays.
    Kept,
    /// The name was taken; the new tool replaced the old one.
    Replaced,
}

/// The tools an agent offers, by name, in registration order, and the one
/// entry point that runs them: [`ToolRegistry::call`].
///
/// Typed tools (from `#[tool]` or [`TypedTool`](crate::TypedTool)) and untyped ones ([`Tool`](crate::Tool))
/// sit side by side. Each tool's definition, schema and compiled validator
/// are made once, at registration.
///
/// `Ctx` is the application's state that every call sees through its
/// [`ToolContext`](crate::ToolContext); tools that need none live in a
/// `ToolRegistry<()>`, the default. A tool written without a context
/// parameter fits a registry of any `Ctx`, so name the type where nothing
/// else does: `ToolRegistry::<App>::new()`, or `let registry: ToolRegistry =
/// ...` for `()`.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::{tool, ToolContext, ToolRegistry};
///
/// /// Add two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// let registry = ToolRegistry::new().with(Add);
/// let ctx = ToolContext::new(());
/// let result = registry.call(&ctx, "add", json!({"a": 2, "b": 3})).await;
/// assert_eq!(result.model_text(), "5");
///
/// let unknown = registry.call(&ctx, "sub", json!({})).await;
/// assert!(unknown.is_error());
/// assert_eq!(unknown.model_text(), "unknown tool `sub`. Available tools: `add`.");
/// # });
/// ```
pub struct ToolRegistry<Ctx = ()> {
    pub(crate) entries: Vec<Entry<Ctx>>,
    pub(crate) definitions: Vec<Arc<ToolDefinition>>,
    pub(crate) index: HashMap<Box<str>, usize, BuildHasherDefault<NameHasher>>,
    /// The tools taken out of the list and out of reach until enabled
    /// again ([`ToolRegistry::disable`]), in the order they were disabled.
    pub(crate) disabled: Vec<(Entry<Ctx>, Arc<ToolDefinition>)>,
    pub(crate) pipeline: Pipeline<Ctx>,
    /// The rules every tool is checked against when it is added.
    pub(crate) checks: Vec<Arc<dyn ToolCheck>>,
    /// How [`ToolRegistry::call_all`] runs a batch.
    pub(crate) batch: Batch,
    pub(crate) cached: Cached,
}

/// FNV-1a over a tool's name: the names are the registry's own, short and
/// few, so a keyed hash buys nothing on the path every call takes.
#[derive(Default)]
pub(crate) struct NameHasher(u64);

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl<Ctx> ToolRegistry<Ctx> {
    /// An empty registry: arguments up to 1 MiB, validated; calls limited to
    /// 30 seconds unless their tool says otherwise; no approval hook (so
    /// tools of tier `Confirm` are denied), no observer; batches run as
    /// [`Batch::Auto`] says.
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
            definitions: Vec::new(),
            index: HashMap::default(),
            disabled: Vec::new(),
            pipeline: Pipeline::new(Settings::DEFAULT),
            checks: Vec::new(),
            batch: Batch::Auto,
            cached: Cached::default(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Adds a tool, builder style: a `#[tool]` (`.with(GetWeather)`), a
    /// [`TypedTool`](crate::TypedTool) or a [`Tool`](crate::Tool).
    ///
    /// # Panics
    ///
    /// When the name is taken or invalid, or a schema is not a JSON Schema:
    /// mistakes in the program, not in a model's input.
    /// [`ToolRegistry::register`] returns them as errors instead.
    #[must_use]
    #[track_caller]
    pub fn with<Kind, T: IntoTool<Ctx, Kind>>(mut self, tool: T) -> Self {
        self.add_or_panic(tool.into_registration());
        self
    }

    #[track_caller]
    fn add_or_panic(&mut self, tool: Registration<Ctx>) {
        if let Err(error) = self.add(tool, OnDuplicate::Error) {
            panic!("{error}");
        }
    }

    /// Adds a tool; a taken name is an error.
    pub fn register<Kind, T: IntoTool<Ctx, Kind>>(&mut self, tool: T) -> Result<(), RegistryError> {
        self.add(tool.into_registration(), OnDuplicate::Error)
            .map(drop)
    }

    /// Adds a tool, with the caller's choice of what happens when the name is
    /// taken.
    ///
    /// ```
    /// use tool_core::registry::{Inserted, OnDuplicate, RegistryError};
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    /// assert_eq!(
    ///     registry.insert(Hello, OnDuplicate::Error),
    ///     Err(RegistryError::DuplicateName { name: "hello".into() })
    /// );
    /// assert_eq!(registry.insert(Hello, OnDuplicate::Keep), Ok(Inserted::Kept));
    /// assert_eq!(registry.insert(Hello, OnDuplicate::Replace), Ok(Inserted::Replaced));
    /// assert_eq!(registry.tools().len(), 1);
    /// ```
    pub fn insert<Kind, T: IntoTool<Ctx, Kind>>(
        &mut self,
        tool: T,
        on_duplicate: OnDuplicate,
    ) -> Result<Inserted, RegistryError> {
        self.add(tool.into_registration(), on_duplicate)
    }

    fn add(
        &mut self,
        tool: Registration<Ctx>,
        on_duplicate: OnDuplicate,
    ) -> Result<Inserted, RegistryError> {
        let name = &*tool.name;
        check_tool_name(name).map_err(|reason| RegistryError::InvalidName {
            name: name.to_owned(),
            reason,
        })?;
        let existing = self.index.get(name).copied();
        if self.is_disabled(name) && on_duplicate != OnDuplicate::Keep {
            // Its place is in the disabled list: replaced there or refused.
            return self.replace_disabled(tool, on_duplicate);
        }
        match (existing, on_duplicate) {
            (Some(_), OnDuplicate::Error) => {
                return Err(RegistryError::DuplicateName {
                    name: name.to_owned(),
                });
            }
            (Some(_), OnDuplicate::Keep) => return Ok(Inserted::Kept),
            _ => {}
        }
        let (entry, definition) = Entry::new(tool)?;
        self.place(entry, definition, existing)
    }

    /// Puts a tool made for this registry or another in its place: the
    /// end, or `existing`'s, once it passes the registry's checks.
    pub(crate) fn place(
        &mut self,
        entry: Entry<Ctx>,
        definition: Arc<ToolDefinition>,
        existing: Option<usize>,
    ) -> Result<Inserted, RegistryError> {
        self.check(&entry, &definition)?;
        self.cached.clear();
        match existing {
            Some(at) => {
                self.entries[at] = entry;
                self.definitions[at] = definition;
                Ok(Inserted::Replaced)
            }
            None => {
                self.index
                    .insert(definition.name.as_str().into(), self.entries.len());
                self.entries.push(entry);
                self.definitions.push(definition);
                Ok(Inserted::Added)
            }
        }
    }

    /// The registry's checks of one tool, the first that fails the error.
    pub(crate) fn check(
        &self,
        entry: &Entry<Ctx>,
        definition: &ToolDefinition,
    ) -> Result<(), RegistryError> {
        self.checks
            .iter()
            .try_for_each(|check| check.check_all(&mut std::iter::once(entry.info(definition))))
    }

    pub(crate) fn entry(&self, name: &str) -> Option<&Entry<Ctx>> {
        self.position(name).map(|at| &self.entries[at])
    }

    /// Where the tool of that name is, in `entries` and `definitions`.
    fn position(&self, name: &str) -> Option<usize> {
        // A few names are found faster by looking than by hashing.
        if self.entries.len() <= 8 {
            return self.entries.iter().position(|entry| *entry.name == *name);
        }
        self.index.get(name).copied()
    }

    /// Whether a tool of that name is registered.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The names, in registration order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.definitions.iter().map(|d| d.name.as_str())
    }

    /// Every tool's [`ToolDefinition`](crate::registry::ToolDefinition),
    /// in registration order, as made at registration: the part of each
    /// tool's [`ToolInfo`](crate::registry::ToolInfo) that any provider's
    /// definition is made from. A `#[tool]`'s is made once per process and
    /// shared by every registry that holds it. A provider's own
    /// definitions of the tools are
    /// [`Provider::definitions`](crate::provider::Provider::definitions).
    pub fn tool_definitions(&self) -> &[Arc<ToolDefinition>] {
        &self.definitions
    }

    /// Runs the tool called `name` on the model's arguments.
    ///
    /// Never fails as Rust and never panics: every failure is an error
    /// result the model can read and act on, with the typed [`ToolError`]
    /// kept for the application. In order:
    ///
    /// 1. an unknown name: the tools that exist and the closest match;
    /// 2. the raw arguments: an object, or a string holding one (OpenAI);
    ///    `null` or `""` for none; over the size limit, not JSON or not an
    ///    object is an error. A `null` for an optional argument whose schema
    ///    does not take `null` is read as the argument left out (OpenAI's
    ///    strict mode makes models send them), also for a field with
    ///    `#[serde(default)]`;
    /// 3. validation against the tool's input schema, every violation with
    ///    its JSON path (unless turned off with
    ///    [`RegistryBuilder::validation`](crate::registry::RegistryBuilder::validation));
    /// 4. deserialization into the tool's input: the tool never runs on
    ///    arguments that do not fit;
    /// 5. policy: the tool's availability, the scopes it requires, and for
    ///    a [`Confirm`](crate::policy::ToolTier::Confirm) tool the approval hook's decision;
    /// 6. execution under the tool's timeout (the registry's when it has
    ///    none), cancelling the call's token when it runs out; a panic is
    ///    an error result. A plain (not `async`) function runs to its end
    ///    on the calling task: no timeout can stop work that never waits,
    ///    so give slow work an `async` tool (or `spawn_blocking`). A tool
    ///    that is not `concurrency_safe` runs one call at a time. A
    ///    `long_running` tool returns a pending result at once and runs on;
    ///    see [`Pending::wait`](crate::registry::Pending::wait);
    /// 7. the output: text or JSON, plus structured content when the tool
    ///    declares an output schema (checked against it).
    ///
    /// Each call has an id of its own ([`ToolContext::call_id`]), seen by
    /// the tool in its context, by the observer's start and finish events,
    /// and in the `tool_call` tracing span; see
    /// [`ContextBuilder::conversation`](crate::context::ContextBuilder::conversation) for when a call asked for again
    /// is the same call.
    ///
    /// Runs on a Tokio runtime with its timer enabled.
    pub async fn call(&self, ctx: &ToolContext<Ctx>, name: &str, args: Value) -> ToolResult {
        // The error of an unknown name boxed, to keep the call's future small.
        let found = self
            .position(name)
            .map(|at| self.found(at))
            .ok_or_else(|| Box::new(self.unknown_tool(ctx, name)));
        self.pipeline.call(ctx, name, found, args).await
    }

    /// The tool at `at` as the pipeline takes it: its entry and the
    /// schema its calls are checked against.
    #[inline]
    pub(crate) fn found(&self, at: usize) -> (&Entry<Ctx>, &Value) {
        (&self.entries[at], &self.definitions[at].input_schema)
    }

    /// Runs a batch of calls and returns their results in the order of
    /// `calls`, each call through the whole pipeline of
    /// [`ToolRegistry::call`].
    ///
    /// How the calls share time is the registry's [`Batch`]
    /// ([`RegistryBuilder::batch`](crate::registry::RegistryBuilder::batch)). By default ([`Batch::Auto`]),
    /// consecutive calls of tools marked `read_only` or `concurrency_safe`
    /// run concurrently, and any other call runs alone, after every call
    /// before it has finished and before any call after it starts: a read
    /// the model asked for after a write sees the write. A tool that is not
    /// `concurrency_safe` runs one call at a time whatever the choice, so
    /// its calls in a group wait for each other.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::registry::ToolCall;
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    ///
    /// /// Add two numbers.
    /// #[tool(read_only)]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let registry: ToolRegistry = ToolRegistry::new().with(Add);
    /// let results = registry
    ///     .call_all(&ToolContext::new(()), [
    ///         ToolCall::new("add", json!({"a": 1, "b": 2})),
    ///         ToolCall::new("sub", json!({})),
    ///     ])
    ///     .await;
    /// assert_eq!(results[0].model_text(), "3");
    /// assert!(results[1].is_error());
    /// # });
    /// ```
    pub async fn call_all(
        &self,
        ctx: &ToolContext<Ctx>,
        calls: impl IntoIterator<Item = ToolCall>,
    ) -> Vec<ToolResult> {
        run_batch(
            self.batch,
            calls,
            |call| self.may_overlap(&call.name),
            |call| async move {
                let ctx = call.context_in(ctx);
                self.call(&ctx, &call.name, call.arguments).await
            },
        )
        .await
    }

    /// Whether [`Batch::Auto`] may run a call of `name` beside others: its
    /// tool changes nothing, or says its calls may overlap. A name that is
    /// no tool's fails at once without running anything.
    pub(crate) fn may_overlap(&self, name: &str) -> bool {
        self.may_overlap_entry(name)
    }

    /// How the registry runs the calls of one turn.
    pub(crate) fn batch(&self) -> Batch {
        self.batch
    }

    /// The most argument text a call may send.
    pub(crate) fn max_argument_bytes(&self) -> usize {
        self.pipeline.settings.max_argument_bytes
    }

    fn may_overlap_entry(&self, name: &str) -> bool {
        self.entry(name).is_none_or(Entry::may_overlap)
    }

    /// The error of a name that is no tool's: the closest of the tools the
    /// caller may call, and all of them (not the others, which it is not
    /// shown either).
    fn unknown_tool(&self, ctx: &ToolContext<Ctx>, name: &str) -> ToolError {
        if self.is_disabled(name) {
            return ToolError::Unavailable {
                tool: name.to_owned(),
                reason: "it is disabled; do not call it again".to_owned(),
            };
        }
        let shown: Vec<&str> = self
            .entries
            .iter()
            .filter(|entry| allowed(entry, ctx))
            .map(|entry| &*entry.name)
            .collect();
        unknown(name, shown)
    }

    /// Every tool as the registry knows it, in registration order: its
    /// definition, output schema and metadata.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = ToolInfo<'_>> {
        self.entries
            .iter()
            .zip(&self.definitions)
            .map(|(entry, definition)| entry.info(definition))
    }

    /// The tool of that name as the registry knows it.
    pub fn info(&self, name: &str) -> Option<ToolInfo<'_>> {
        let at = *self.index.get(name)?;
        Some(self.entries[at].info(&self.definitions[at]))
    }

    /// The time a call of the tool `name` may run: its own
    /// [`timeout`](crate::ToolMetadata::timeout), else the registry's
    /// [default](crate::registry::RegistryBuilder::default_timeout).
    /// `None` for a name no tool has.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Wait a little.
    /// #[tool(timeout = "5s")]
    /// async fn nap() -> String {
    ///     "rested".into()
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::builder()
    ///     .with(Nap)
    ///     .default_timeout(Duration::from_secs(90))
    ///     .build();
    /// assert_eq!(registry.timeout("nap"), Some(Duration::from_secs(5)));
    /// assert_eq!(registry.timeout("nothing"), None);
    /// ```
    pub fn timeout(&self, name: &str) -> Option<std::time::Duration> {
        let info = self.info(name)?;
        Some(
            info.metadata
                .timeout
                .unwrap_or(self.pipeline.settings.default_timeout),
        )
    }

    /// A value made from the tools (a provider's definitions, say) on first
    /// use and kept, under `key`, until a tool is added or replaced.
    pub(crate) fn cached<V, E>(
        &self,
        key: CacheKey,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<Arc<V>, E>
    where
        V: Any + Send + Sync,
    {
        self.cached.get_or_make(key, make)
    }
}

impl<Ctx> Default for ToolRegistry<Ctx> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Ctx> fmt::Debug for ToolRegistry<Ctx> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry")
            .field(
                "tools",
                &self.definitions.iter().map(|d| &d.name).collect::<Vec<_>>(),
            )
            .field("settings", &self.pipeline.settings)
            .field("approval_hook", &self.pipeline.approval.is_some())
            .field("observer", &self.pipeline.observer.is_some())
            .field("batch", &self.batch)
            .finish()
    }
}

/// A rule every tool must pass to be added to a registry
/// ([`RegistryBuilder::check`](crate::registry::RegistryBuilder::check)): a provider that must accept it, say.
pub trait ToolCheck: Send + Sync + 'static {
    /// Checks the tools together (a provider may limit how many of a kind
    /// one request can hold); the first that fails is the error.
    fn check_all(&self, tools: &mut dyn Iterator<Item = ToolInfo<'_>>)
    -> Result<(), RegistryError>;
}

/// Every check of the list.
impl<T: ToolCheck, const N: usize> ToolCheck for [T; N] {
    fn check_all(
        &self,
        tools: &mut dyn Iterator<Item = ToolInfo<'_>>,
    ) -> Result<(), RegistryError> {
        let tools: Vec<ToolInfo<'_>> = tools.collect();
        self.iter()
            .try_for_each(|check| check.check_all(&mut tools.iter().copied()))
    }
}

/// Values made from a registry's tools, each under its key, until a tool
/// is added or replaced.
#[derive(Default)]
pub(crate) struct Cached(Mutex<Vec<(CacheKey, Arc<dyn Any + Send + Sync>)>>);

/// What a cached value is: its kind (a provider's name, say), and which of
/// its kind (a [`Listing`](crate::provider::Listing)'s key).
pub(crate) type CacheKey = (&'static str, u8);

impl Cached {
    pub(crate) fn get_or_make<V: Any + Send + Sync, E>(
        &self,
        key: CacheKey,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<Arc<V>, E> {
        let mut made = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let found = made
            .iter()
            .find(|(at, _)| *at == key)
            .and_then(|(_, value)| Arc::clone(value).downcast::<V>().ok());
        if let Some(value) = found {
            return Ok(value);
        }
        let value = Arc::new(make()?);
        made.retain(|(at, _)| *at != key);
        made.push((key, Arc::clone(&value) as Arc<dyn Any + Send + Sync>));
        Ok(value)
    }

    pub(crate) fn clear(&mut self) {
        self.0
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }
}

/// The error of a name that is none of the tools `shown`: they, and the
/// closest of them.
pub(crate) fn unknown(name: &str, shown: Vec<&str>) -> ToolError {
    let suggestion = shown
        .iter()
        .copied()
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.len() / 3).max(2))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.to_owned());
    ToolError::UnknownTool {
        name: name.to_owned(),
        suggestion,
        available: shown.into_iter().map(str::to_owned).collect(),
    }
}
