//! The set of tools an agent offers, and the one entry point that runs them.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::name::check_tool_name;
use crate::{
    RegistryError, Tool, ToolContext, ToolDefinition, ToolError, ToolResult, TypedTool,
    TypedToolAdapter,
};

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

/// The tools an agent offers, by name, in registration order.
///
/// Typed tools (from `#[tool]` or [`TypedTool`]) and untyped ones ([`Tool`])
/// sit side by side. Each tool's definition, schema included, is read once at
/// registration. [`ToolRegistry::call`] runs a call and turns every failure
/// the model caused into an error [`ToolResult`].
///
/// `Ctx` is the application's state that every call sees through its
/// [`ToolContext`]; tools that need none live in a `ToolRegistry<()>`, the
/// default. A tool written without a context parameter fits a registry of any
/// `Ctx`, so name the type where nothing else does:
/// `ToolRegistry::<App>::new()`, or `let registry: ToolRegistry = ...` for
/// `()`.
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
/// assert_eq!(unknown.model_text(), "unknown tool `sub`; available tools: `add`");
/// # });
/// ```
pub struct ToolRegistry<Ctx = ()> {
    tools: Vec<Arc<dyn Tool<Ctx>>>,
    definitions: Vec<ToolDefinition>,
    index: HashMap<String, usize>,
}

impl<Ctx> ToolRegistry<Ctx> {
    /// An empty registry.
    pub fn new() -> Self {
        Self {
            tools: Vec::new(),
            definitions: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Adds a typed tool, builder style.
    ///
    /// # Panics
    ///
    /// When the name is taken or invalid: both are mistakes in the program,
    /// not in a model's input. [`ToolRegistry::register`] returns them as
    /// errors instead.
    #[must_use]
    #[track_caller]
    pub fn with<T: TypedTool<Ctx>>(mut self, tool: T) -> Self {
        if let Err(error) = self.register(tool) {
            panic!("{error}");
        }
        self
    }

    /// Adds an untyped tool, builder style.
    ///
    /// # Panics
    ///
    /// As [`ToolRegistry::with`].
    #[must_use]
    #[track_caller]
    pub fn with_untyped<T: Tool<Ctx>>(mut self, tool: T) -> Self {
        if let Err(error) = self.register_untyped(tool) {
            panic!("{error}");
        }
        self
    }

    /// Adds a typed tool; a taken name is an error.
    pub fn register<T: TypedTool<Ctx>>(&mut self, tool: T) -> Result<(), RegistryError> {
        self.insert(Arc::new(TypedToolAdapter::new(tool)), OnDuplicate::Error)
            .map(drop)
    }

    /// Adds an untyped tool; a taken name is an error.
    pub fn register_untyped<T: Tool<Ctx>>(&mut self, tool: T) -> Result<(), RegistryError> {
        self.insert(Arc::new(tool), OnDuplicate::Error).map(drop)
    }

    /// Adds a tool, with the caller's choice of what happens when the name is
    /// taken.
    ///
    /// ```
    /// use tool_core::{tool, Inserted, OnDuplicate, RegistryError, ToolRegistry, TypedToolAdapter};
    /// use std::sync::Arc;
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    /// let again = || Arc::new(TypedToolAdapter::new(Hello));
    /// assert_eq!(
    ///     registry.insert(again(), OnDuplicate::Error),
    ///     Err(RegistryError::DuplicateName { name: "hello".into() })
    /// );
    /// assert_eq!(registry.insert(again(), OnDuplicate::Keep), Ok(Inserted::Kept));
    /// assert_eq!(registry.insert(again(), OnDuplicate::Replace), Ok(Inserted::Replaced));
    /// assert_eq!(registry.len(), 1);
    /// ```
    pub fn insert(
        &mut self,
        tool: Arc<dyn Tool<Ctx>>,
        on_duplicate: OnDuplicate,
    ) -> Result<Inserted, RegistryError> {
        let name = tool.name();
        check_tool_name(name).map_err(|reason| RegistryError::InvalidName {
            name: name.to_owned(),
            reason,
        })?;
        let definition = ToolDefinition::of(&*tool);
        match (self.index.get(name).copied(), on_duplicate) {
            (None, _) => {
                self.index.insert(name.to_owned(), self.tools.len());
                self.tools.push(tool);
                self.definitions.push(definition);
                Ok(Inserted::Added)
            }
            (Some(_), OnDuplicate::Error) => Err(RegistryError::DuplicateName {
                name: name.to_owned(),
            }),
            (Some(_), OnDuplicate::Keep) => Ok(Inserted::Kept),
            (Some(at), OnDuplicate::Replace) => {
                self.tools[at] = tool;
                self.definitions[at] = definition;
                Ok(Inserted::Replaced)
            }
        }
    }

    /// The tool of that name.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool<Ctx>>> {
        self.index.get(name).map(|&at| &self.tools[at])
    }

    /// Whether a tool of that name is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The names, in registration order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.definitions.iter().map(|d| d.name.as_str())
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Every tool's definition, in registration order, as read at
    /// registration.
    pub fn definitions(&self) -> &[ToolDefinition] {
        &self.definitions
    }

    /// The definition of the tool of that name.
    pub fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        self.index.get(name).map(|&at| &self.definitions[at])
    }

    /// Runs the tool called `name` on the model's arguments.
    ///
    /// Never fails as Rust: an unknown name, arguments that do not fit and
    /// the tool's own failure are error results the model can read and act
    /// on, with the typed [`ToolError`] kept for the application.
    pub async fn call(&self, ctx: &ToolContext<Ctx>, name: &str, args: Value) -> ToolResult {
        match self.get(name) {
            Some(tool) => tool.call(ctx, args).await,
            None => ToolError::UnknownTool {
                name: name.to_owned(),
                available: self.names().map(str::to_owned).collect(),
            }
            .into(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> Default for ToolRegistry<Ctx> {
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
            .finish()
    }
}
