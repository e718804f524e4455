//! A registry's settings, set as it is built ([`ToolRegistry::builder`]):
//! the approval hook, the observer, how a batch runs, the limits,
//! validation, the checks every tool must pass, and where pending calls
//! are kept.

use std::sync::Arc;
use std::time::Duration;

use crate::dispatch::pending::PendingCalls;
use crate::dispatch::pending::stored::StoredCalls;
use crate::dispatch::settings::Validation;
use crate::observe::observer::CallObserver;
use crate::registry::batch::Batch;
use crate::registry::tool_registry::ToolCheck;
use crate::registry::tool_registry::ToolRegistry;
use crate::store::Store;
use crate::tool::approval::ApprovalHook;

/// A [`ToolRegistry`] being set up: its settings, and tools added as
/// [`ToolRegistry::with`] adds them, in the order written;
/// [`build`](RegistryBuilder::build) gives the registry. A setting left
/// out keeps its default.
///
/// ```
/// use std::time::Duration;
/// use tool_core::registry::Batch;
/// use tool_core::{tool, ToolRegistry};
///
/// /// Add two numbers.
/// #[tool(concurrency_safe)]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let registry: ToolRegistry = ToolRegistry::builder()
///     .with(Add)
///     .batch(Batch::Parallel)
///     .default_timeout(Duration::from_secs(10))
///     .build();
/// assert_eq!(registry.tools().len(), 1);
/// ```
#[must_use = "a builder does nothing until `build` gives the registry"]
pub struct RegistryBuilder<Ctx = ()> {
    registry: ToolRegistry<Ctx>,
}

impl<Ctx> std::fmt::Debug for RegistryBuilder<Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryBuilder")
            .field("registry", &self.registry)
            .finish()
    }
}

/// A registry set up again: its tools and settings kept, any setting may
/// be changed before it is [built](RegistryBuilder::build) anew (an
/// observer added to a registry made elsewhere, say).
impl<Ctx> From<ToolRegistry<Ctx>> for RegistryBuilder<Ctx> {
    fn from(registry: ToolRegistry<Ctx>) -> Self {
        Self { registry }
    }
}

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// A registry to set up before it is used: its settings and tools,
    /// then [`build`](RegistryBuilder::build).
    pub fn builder() -> RegistryBuilder<Ctx> {
        RegistryBuilder {
            registry: ToolRegistry::new(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> RegistryBuilder<Ctx> {
    /// The registry, set up.
    pub fn build(self) -> ToolRegistry<Ctx> {
        self.registry
    }

    /// Adds a tool, as [`ToolRegistry::with`] does.
    ///
    /// # Panics
    ///
    /// When the name is taken or invalid, or a schema is not a JSON Schema:
    /// mistakes in the program, not in a model's input.
    #[track_caller]
    pub fn with<Kind, T: crate::registry::into_tool::IntoTool<Ctx, Kind>>(
        mut self,
        tool: T,
    ) -> Self {
        self.registry = self.registry.with(tool);
        self
    }

    /// Installs the hook that approves or denies calls of tools of tier
    /// [`Confirm`](crate::policy::ToolTier::Confirm), for callers whose context has
    /// no hook of its own ([`ContextBuilder::approval`](crate::context::ContextBuilder::approval)). Without either
    /// they are denied.
    pub fn approval<H: ApprovalHook<Ctx>>(mut self, hook: H) -> Self {
        self.registry.pipeline.approval = Some(Arc::new(hook));
        self
    }

    /// Installs the observer that sees every call start, report progress
    /// ([`ToolContext::progress`](crate::ToolContext::progress)) and finish.
    pub fn observer<O: CallObserver>(mut self, observer: O) -> Self {
        let observer = Arc::new(observer);
        self.registry.pipeline.progress = Some(Arc::clone(&observer) as _);
        self.registry.pipeline.observer = Some(observer);
        self
    }

    /// How [`ToolRegistry::call_all`] (and so
    /// [`Provider::respond`](crate::provider::Provider::respond)) runs the
    /// calls of a batch: [`Batch::Auto`] (the default) runs reads together
    /// and everything else one at a time, in the model's order;
    /// [`Batch::Parallel`] runs every call at once; [`Batch::Sequential`]
    /// one after another. The results are in the calls' order whatever the
    /// choice.
    ///
    /// ```
    /// use tool_core::registry::Batch;
    /// use tool_core::ToolRegistry;
    ///
    /// // Tools that each lock what they touch may all run at once.
    /// let registry: ToolRegistry = ToolRegistry::builder().batch(Batch::Parallel).build();
    /// # let _ = registry;
    /// ```
    pub fn batch(mut self, batch: Batch) -> Self {
        self.registry.batch = batch;
        self
    }

    /// The limit on one call's arguments, in bytes of compact JSON.
    /// Default: 1 MiB.
    pub fn max_argument_bytes(mut self, limit: usize) -> Self {
        self.registry.pipeline.settings.max_argument_bytes = limit;
        self
    }

    /// The limit on one media part of a result (an image, a recording, a
    /// document), in bytes before any encoding. A result with a part over
    /// it becomes an error result that says so
    /// ([`ToolError::MediaTooLarge`](crate::ToolError::MediaTooLarge)): providers refuse a whole request for
    /// one oversized block, which would end the conversation. Default:
    /// [`DEFAULT_MAX_MEDIA_BYTES`](crate::registry::DEFAULT_MAX_MEDIA_BYTES), 5 MiB.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::output::Image;
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    ///
    /// /// Take a screenshot.
    /// #[tool]
    /// fn screenshot() -> Image {
    ///     Image::png(vec![0; 2048])
    /// }
    ///
    /// let registry: ToolRegistry = ToolRegistry::builder().with(Screenshot).max_media_bytes(1024).build();
    /// let result = registry.call(&ToolContext::new(()), "screenshot", serde_json::json!({})).await;
    /// assert!(result.is_error());
    /// assert_eq!(
    ///     result.model_text(),
    ///     "tool `screenshot` returned image/png of 2048 bytes, over the limit of 1024 bytes for one media part, so its result was withheld"
    /// );
    /// # });
    /// ```
    pub fn max_media_bytes(mut self, limit: usize) -> Self {
        self.registry.pipeline.settings.max_media_bytes = limit;
        self
    }

    /// The time a call may run when its tool sets no `timeout`. Default: 30
    /// seconds.
    pub fn default_timeout(mut self, timeout: Duration) -> Self {
        self.registry.pipeline.settings.default_timeout = timeout;
        self
    }

    /// The time a deferred result may take to be delivered. Default: 10
    /// minutes.
    pub fn pending_timeout(mut self, timeout: Duration) -> Self {
        self.registry.pipeline.settings.pending_timeout = timeout;
        self
    }

    /// Keeps the registry's pending calls (those of `long_running` tools,
    /// whose results come later) in `store` rather than in this process:
    /// with a store other processes share (`tool_redis::RedisStore`), a
    /// call made in one process can be delivered to and waited on in any,
    /// and a [`Turn`](crate::provider::Turn) paused in one can be resumed
    /// in another. Each call is a record that expires once its time
    /// limits have passed; the store keeps nothing longer.
    ///
    /// Set it before the registry makes its first call: calls pending
    /// until then stay where they were.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::store::{MemoryStore, Store};
    /// use tool_core::{tool, ToolContext, ToolRegistry, ToolResult};
    ///
    /// /// Ask the user to pick a file; the client shows the dialog.
    /// #[tool(long_running)]
    /// fn pick_file() -> ToolResult {
    ///     ToolResult::deferred()
    /// }
    ///
    /// let store = MemoryStore::new();
    /// let registry = ToolRegistry::builder().with(PickFile).store(store.clone()).build();
    /// let pending = registry.call(&ToolContext::new(()), "pick_file", serde_json::json!({})).await;
    /// let id = pending.pending_call_id().unwrap().to_owned();
    /// assert!(store.get(&format!("call:{id}")).await.unwrap().is_some(), "recorded");
    ///
    /// // Another registry on the same store (another process, with Redis)
    /// // delivers the result and takes it.
    /// let elsewhere = ToolRegistry::<()>::builder().store(store).build();
    /// elsewhere.pending().deliver(&id, ToolResult::text("notes.txt")).await.unwrap();
    /// assert_eq!(elsewhere.pending().wait(&id).await.unwrap().model_text(), "notes.txt");
    /// # });
    /// ```
    pub fn store(mut self, store: impl Store) -> Self {
        let store: Arc<dyn Store> = Arc::new(store);
        self.registry.pipeline.pending =
            Arc::new(PendingCalls::Stored(Arc::new(StoredCalls::new(store))));
        self
    }

    /// Which calls' arguments are checked against the tool's input schema
    /// before they are read. Default: [`Validation::Auto`].
    ///
    /// ```
    /// use tool_core::ToolRegistry;
    /// use tool_core::registry::Validation;
    ///
    /// // Every call checked, even where the parameter types imply it.
    /// let registry = ToolRegistry::<()>::builder().validation(Validation::Always).build();
    /// ```
    pub fn validation(mut self, validation: Validation) -> Self {
        self.registry.pipeline.settings.validation = validation;
        self
    }

    /// A rule every tool must pass to be registered, those registered and
    /// those to come: a provider the registry serves (every
    /// [`Provider`](crate::provider::Provider) is one: its name rules and
    /// its schema dialect), or several (`[Provider::Gemini { .. },
    /// Provider::Mcp]`). A tool a provider would reject is then refused at
    /// registration rather than found out at request time.
    ///
    /// # Panics
    ///
    /// When a tool already registered fails the check, as
    /// [`ToolRegistry::with`] panics; later registrations return the error.
    ///
    /// ```
    /// use tool_core::provider::Provider;
    /// use tool_core::registry::RegistryError;
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Look up the first hit.
    /// #[tool(name = "1st_hit")]
    /// fn first_hit(query: String) -> String { query }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::builder().check([Provider::Gemini { openapi: false }]).build();
    /// assert_eq!(
    ///     registry.register(FirstHit).unwrap_err().to_string(),
    ///     "tool name `1st_hit` is rejected by Gemini: Gemini wants it to start with a letter or `_`"
    /// );
    /// ```
    #[track_caller]
    pub fn check(mut self, check: impl ToolCheck) -> Self {
        if let Err(error) = check.check_all(&mut self.registry.tools()) {
            panic!("{error}");
        }
        self.registry.checks.push(Arc::new(check));
        self
    }
}
