//! Rules a set of tools goes through on its way into another registry:
//! filtered, renamed or prefixed, described anew, arguments bound.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::dispatch::bound::hide;
use crate::dispatch::entry::Entry;
use crate::dispatch::runner::{Bound, Runner};
use crate::dispatch::schemas::described;
use crate::error::tool_error::RegistryError;
use crate::registry::tool_registry::ToolRegistry;
use crate::tool::name::{Name, check_tool_name};
use crate::tool::{ToolDefinition, ToolInfo};

/// A predicate on a tool, for [`Compose::keep_if`].
type Keep = Arc<dyn Fn(&ToolInfo<'_>) -> bool + Send + Sync>;

/// Rules for a set of tools: which to keep, what to call them, how to
/// describe them, and arguments the application sets for the model.
/// Applied to a whole registry ([`Compose::apply`]) before it is merged
/// into another, or to a mounted MCP server's tools as they are listed.
///
/// Every rule names a tool by its own name, before any renaming; a tool's
/// new name is the prefix followed by its [`rename`](Self::rename)d name,
/// or its own.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::toolset::Compose;
/// use tool_core::{ToolContext, ToolRegistry, tool};
///
/// /// Open an issue.
/// #[tool]
/// fn create_issue(owner: String, title: String) -> String {
///     format!("{owner}: {title}")
/// }
///
/// /// Delete a repository.
/// #[tool(destructive)]
/// fn delete_repo(owner: String) -> String { owner }
///
/// let github = ToolRegistry::new().with(CreateIssue).with(DeleteRepo);
/// let rules = Compose::new()
///     .prefix("github_")
///     .deny(["delete_repo"])
///     .bind("create_issue", "owner", json!("acme"));
/// let mut registry: ToolRegistry = ToolRegistry::new();
/// registry.merge(rules.apply(github).unwrap()).unwrap();
///
/// assert_eq!(registry.names().collect::<Vec<_>>(), ["github_create_issue"]);
/// let schema = &registry.tool_definitions()[0].input_schema;
/// assert_eq!(schema["required"], json!(["title"]), "the model never sees `owner`");
/// let result = registry
///     .call(&ToolContext::new(()), "github_create_issue", json!({"title": "Crash"}))
///     .await;
/// assert_eq!(result.model_text(), "acme: Crash");
/// # });
/// ```
#[derive(Clone, Default)]
pub struct Compose {
    prefix: String,
    renames: HashMap<String, String>,
    allow: Option<Vec<String>>,
    deny: Vec<String>,
    keep: Vec<Keep>,
    binds: HashMap<String, Map<String, Value>>,
    descriptions: HashMap<String, String>,
    defer: bool,
    lenient: bool,
}

impl Compose {
    /// No rules: every tool as it is.
    pub fn new() -> Self {
        Self::default()
    }

    /// Puts `prefix` before every tool's name (`github_`), renamed or not.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Calls the tool `from` `to` (then prefixed, if there is a prefix).
    #[must_use]
    pub fn rename(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.renames.insert(from.into(), to.into());
        self
    }

    /// Keeps only the tools of these names (more calls add to the list).
    #[must_use]
    pub fn allow<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.allow
            .get_or_insert_with(Vec::new)
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Leaves out the tools of these names.
    #[must_use]
    pub fn deny<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.deny.extend(names.into_iter().map(Into::into));
        self
    }

    /// Keeps only the tools `keep` says yes to, given each as it is before
    /// the rules: by annotation (`|tool| tool.metadata.read_only`), by
    /// scope, by anything a tool says of itself. Several predicates must
    /// all say yes.
    ///
    /// ```
    /// use tool_core::toolset::Compose;
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Read a file.
    /// #[tool(read_only)]
    /// fn read_file(path: String) -> String { path }
    ///
    /// /// Delete a file.
    /// #[tool]
    /// fn delete_file(path: String) -> String { path }
    ///
    /// let files: ToolRegistry = ToolRegistry::new().with(ReadFile).with(DeleteFile);
    /// let reading = Compose::new().keep_if(|tool| tool.metadata.read_only).apply(files).unwrap();
    /// assert_eq!(reading.names().collect::<Vec<_>>(), ["read_file"]);
    /// ```
    #[must_use]
    pub fn keep_if(mut self, keep: impl Fn(&ToolInfo<'_>) -> bool + Send + Sync + 'static) -> Self {
        self.keep.push(Arc::new(keep));
        self
    }

    /// Sets the argument `argument` of the tool `tool` to `value` for every
    /// call: the model is not shown it (it leaves the schema's
    /// `properties` and `required`), and a call that sends it anyway is
    /// refused, saying so. The value is put in before the call is checked
    /// and read, so the tool, the approval hook and the call id see it.
    #[must_use]
    pub fn bind(
        mut self,
        tool: impl Into<String>,
        argument: impl Into<String>,
        value: Value,
    ) -> Self {
        self.binds
            .entry(tool.into())
            .or_default()
            .insert(argument.into(), value);
        self
    }

    /// Gives the tool `tool` a new description.
    #[must_use]
    pub fn describe(mut self, tool: impl Into<String>, description: impl Into<String>) -> Self {
        self.descriptions.insert(tool.into(), description.into());
        self
    }

    /// Every tool of the set waits to be found
    /// ([`ToolMetadata::defer`](crate::ToolMetadata::defer)): a mounted
    /// server's hundred tools behind a search, say.
    #[must_use]
    pub fn defer(mut self) -> Self {
        self.defer = true;
        self
    }

    /// Lets rules name tools that are not there: for the tools of a server
    /// whose list changes. Otherwise a rule that names no tool is an error
    /// when the rules are applied, as a misspelt name would be.
    #[must_use]
    pub fn lenient(mut self) -> Self {
        self.lenient = true;
        self
    }

    /// The tools of `registry`, through the rules, in their order, with its
    /// settings. An error names the tool a rule cannot be applied to: a
    /// new name that is not valid or that two tools would share, an
    /// argument to bind that the tool does not take, a rule that names no
    /// tool (unless [`lenient`](Self::lenient)).
    pub fn apply<Ctx: Send + Sync + 'static>(
        &self,
        registry: ToolRegistry<Ctx>,
    ) -> Result<ToolRegistry<Ctx>, RegistryError> {
        if !self.lenient {
            self.check_names(&registry)?;
        }
        let mut composed = registry.emptied();
        for (entry, definition) in registry.entries.into_iter().zip(registry.definitions) {
            if let Some((entry, definition)) = self.tool(entry, &definition)? {
                composed.add_made(entry, definition)?;
            }
        }
        for (entry, definition) in registry.disabled {
            if let Some((entry, definition)) = self.tool(entry, &definition)? {
                let name = entry.name.clone();
                composed.add_made(entry, definition)?;
                composed.disable(&name);
            }
        }
        Ok(composed)
    }

    /// One tool through the rules: `None` when they leave it out.
    #[allow(clippy::type_complexity)]
    fn tool<Ctx>(
        &self,
        mut entry: Entry<Ctx>,
        definition: &ToolDefinition,
    ) -> Result<Option<(Entry<Ctx>, Arc<ToolDefinition>)>, RegistryError> {
        let own = entry.name.clone();
        let own = &*own;
        let kept = self
            .allow
            .as_ref()
            .is_none_or(|allow| allow.iter().any(|name| name == own))
            && !self.deny.iter().any(|name| name == own)
            && self.keep.iter().all(|keep| keep(&entry.info(definition)));
        if !kept {
            return Ok(None);
        }
        let refused = |reason: String| RegistryError::Compose {
            name: own.to_owned(),
            reason,
        };
        let mut definition = definition.clone();
        if let Some(values) = self.binds.get(own) {
            let names: Vec<&str> = values.keys().map(String::as_str).collect();
            definition.input_schema = hide(&definition.input_schema, &names).map_err(refused)?;
            let schemas = entry
                .schemas
                .with_input(&definition.input_schema)
                .map_err(|message| refused(format!("its schema without {names:?}: {message}")))?;
            entry.schemas = Arc::new(schemas);
            // Bound again: the arguments bound before stay bound.
            let (inner, mut bound) = match &entry.runner {
                Runner::Bound(before) => (before.inner.clone(), before.values.clone()),
                runner => (runner.clone(), Map::new()),
            };
            bound.extend(
                values
                    .iter()
                    .map(|(name, value)| (name.clone(), value.clone())),
            );
            entry.runner = Runner::Bound(Arc::new(Bound {
                inner,
                values: bound,
            }));
            entry.reads_text = false;
        }
        if let Some(description) = self.descriptions.get(own) {
            definition.description = described(description, entry.metadata.long_running);
        }
        if self.defer {
            entry.metadata.defer = true;
        }
        let renamed = self.renames.get(own).map_or(own, String::as_str);
        let name = format!("{}{renamed}", self.prefix);
        if name != own {
            check_tool_name(&name).map_err(|reason| {
                refused(format!(
                    "its new name `{name}` is not a valid tool name: {reason}"
                ))
            })?;
            entry.name = Name::from(name.clone());
            definition.name = name;
        }
        Ok(Some((entry, Arc::new(definition))))
    }

    /// A rule that names no tool of `registry`, as an error.
    fn check_names<Ctx: Send + Sync + 'static>(
        &self,
        registry: &ToolRegistry<Ctx>,
    ) -> Result<(), RegistryError> {
        let named = (self.renames.keys())
            .chain(self.allow.iter().flatten())
            .chain(&self.deny)
            .chain(self.binds.keys())
            .chain(self.descriptions.keys());
        for name in named {
            if !registry.contains(name) && !registry.is_disabled(name) {
                return Err(RegistryError::Compose {
                    name: name.clone(),
                    reason: "a rule names it, but there is no tool of that name; \
                             `Compose::lenient` allows that"
                        .to_owned(),
                });
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Compose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compose")
            .field("prefix", &self.prefix)
            .field("renames", &self.renames)
            .field("allow", &self.allow)
            .field("deny", &self.deny)
            .field("keep_if", &self.keep.len())
            .field("binds", &self.binds)
            .field("descriptions", &self.descriptions)
            .field("defer", &self.defer)
            .field("lenient", &self.lenient)
            .finish()
    }
}
