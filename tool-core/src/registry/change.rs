//! Changing a registry's tools after it is built: removing, disabling and
//! enabling them, merging another registry's; and the copy a
//! [`RegistryHandle`](crate::toolset::RegistryHandle) changes while calls
//! run on the version before.

use std::collections::HashSet;
use std::sync::Arc;

use crate::dispatch::entry::Entry;
use crate::dispatch::runner::Registration;
use crate::error::tool_error::RegistryError;
use crate::registry::tool_registry::Inserted;
use crate::registry::tool_registry::ToolRegistry;
use crate::registry::tool_registry::{Cached, OnDuplicate};
use crate::tool::ToolDefinition;

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Removes the tool of that name, enabled or disabled; whether there
    /// was one. Its next call is an unknown tool's, with the usual
    /// suggestion.
    ///
    /// ```
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    /// assert!(registry.remove("hello"));
    /// assert!(!registry.remove("hello"));
    /// assert!(registry.tools().len() == 0);
    /// ```
    pub fn remove(&mut self, name: &str) -> bool {
        if let Some(at) = self
            .disabled
            .iter()
            .position(|(entry, _)| *entry.name == *name)
        {
            self.disabled.remove(at);
            return true;
        }
        let Some(at) = self.index.get(name).copied() else {
            return false;
        };
        self.entries.remove(at);
        self.definitions.remove(at);
        self.reindex();
        true
    }

    /// Removes every tool of those names, enabled or disabled, in one pass
    /// however many they are; how many there were. The others keep their
    /// order. What taking out a set of tools from elsewhere needs (a
    /// mounted server's): [`remove`](Self::remove) of each, one after
    /// another, would go over the list once per tool.
    ///
    /// ```
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Say goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello).with(Goodbye);
    /// assert_eq!(registry.remove_all(["hello", "nobody"]), 1);
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["goodbye"]);
    /// ```
    pub fn remove_all(&mut self, names: impl IntoIterator<Item = impl AsRef<str>>) -> usize {
        let mut gone = vec![false; self.entries.len()];
        let mut listed = 0;
        let mut others: HashSet<String> = HashSet::new();
        for name in names {
            let name = name.as_ref();
            match self.index.get(name) {
                Some(&at) if !gone[at] => {
                    gone[at] = true;
                    listed += 1;
                }
                Some(_) => {}
                None if !self.disabled.is_empty() => {
                    others.insert(name.to_owned());
                }
                None => {}
            }
        }
        let before = self.disabled.len();
        if !others.is_empty() {
            self.disabled
                .retain(|(entry, _)| !others.contains(&*entry.name));
        }
        let removed = listed + (before - self.disabled.len());
        if listed > 0 {
            let mut at = 0;
            self.entries.retain(|_| {
                at += 1;
                !gone[at - 1]
            });
            let mut at = 0;
            self.definitions.retain(|_| {
                at += 1;
                !gone[at - 1]
            });
            self.reindex();
        }
        removed
    }

    /// Takes a tool out of the list and out of reach, keeping it to
    /// [`enable`](Self::enable) again; whether an enabled tool of that
    /// name was there. No provider's definitions show it, and a call gets
    /// an error result that says it is disabled.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// use tool_core::{ToolContext, ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    /// assert!(registry.disable("hello"));
    /// assert_eq!(registry.tools().len(), 0);
    /// let result = registry.call(&ToolContext::new(()), "hello", json!({})).await;
    /// assert_eq!(
    ///     result.model_text(),
    ///     "tool `hello` is not available: it is disabled; do not call it again"
    /// );
    /// assert!(registry.enable("hello"));
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["hello"]);
    /// # });
    /// ```
    pub fn disable(&mut self, name: &str) -> bool {
        let Some(at) = self.index.get(name).copied() else {
            return false;
        };
        let entry = self.entries.remove(at);
        let definition = self.definitions.remove(at);
        self.disabled.push((entry, definition));
        if at == self.entries.len() {
            // The last: no other tool moved (a set of tools merged disabled).
            self.index.remove(name);
            self.cached.clear();
        } else {
            self.reindex();
        }
        true
    }

    /// Puts a disabled tool back, at the end of the list; whether one of
    /// that name was disabled.
    pub fn enable(&mut self, name: &str) -> bool {
        let Some(at) = self
            .disabled
            .iter()
            .position(|(entry, _)| *entry.name == *name)
        else {
            return false;
        };
        let (entry, definition) = self.disabled.remove(at);
        self.index.insert(name.into(), self.entries.len());
        self.entries.push(entry);
        self.definitions.push(definition);
        self.cached.clear();
        true
    }

    /// Adds every tool of `other`, enabled or disabled as it is there, after
    /// this registry's own, each passing this registry's checks. A name
    /// both hold is an error, and then nothing is added. `other`'s settings
    /// (validation, limits, hooks, observer) are not taken: its tools run
    /// under this registry's. To rename, prefix or filter them first, see
    /// [`Compose`](crate::toolset::Compose).
    ///
    /// ```
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Say goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    /// registry.merge(ToolRegistry::new().with(Goodbye)).unwrap();
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["hello", "goodbye"]);
    /// assert!(registry.merge(ToolRegistry::new().with(Hello)).is_err());
    /// ```
    pub fn merge(&mut self, other: ToolRegistry<Ctx>) -> Result<(), RegistryError> {
        let mut merged = self.fork();
        for (entry, definition) in other.entries.into_iter().zip(other.definitions) {
            merged.add_made(entry, definition)?;
        }
        for (entry, definition) in other.disabled {
            let name = entry.name.clone();
            merged.add_made(entry, definition)?;
            merged.disable(&name);
        }
        *self = merged;
        Ok(())
    }

    /// Adds each tool of `other` that this registry takes (its name free,
    /// its checks passed), after this registry's own; the errors of the
    /// others, each naming its tool. What a set of tools from elsewhere
    /// needs, where one bad tool must not keep out the rest: a mounted MCP
    /// server's.
    ///
    /// ```
    /// use tool_core::registry::RegistryError;
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Say goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// let mut registry: ToolRegistry = ToolRegistry::new().with(Hello);
    /// let refused = registry.merge_passing(ToolRegistry::new().with(Hello).with(Goodbye));
    /// assert_eq!(refused, [RegistryError::DuplicateName { name: "hello".into() }]);
    /// assert_eq!(registry.names().collect::<Vec<_>>(), ["hello", "goodbye"]);
    /// ```
    pub fn merge_passing(&mut self, other: ToolRegistry<Ctx>) -> Vec<RegistryError> {
        let mut refused = Vec::new();
        for (entry, definition) in other.entries.into_iter().zip(other.definitions) {
            if let Err(error) = self.add_made(entry, definition) {
                refused.push(error);
            }
        }
        for (entry, definition) in other.disabled {
            let name = entry.name.clone();
            match self.add_made(entry, definition) {
                Ok(()) => {
                    self.disable(&name);
                }
                Err(error) => refused.push(error),
            }
        }
        refused
    }

    /// Adds a tool already made; a taken name is an error.
    pub(crate) fn add_made(
        &mut self,
        entry: Entry<Ctx>,
        definition: Arc<ToolDefinition>,
    ) -> Result<(), RegistryError> {
        if self.index.contains_key(&*entry.name) || self.is_disabled(&entry.name) {
            return Err(RegistryError::DuplicateName {
                name: entry.name.to_string(),
            });
        }
        self.place(entry, definition, None).map(drop)
    }

    /// Whether a tool of that name is disabled.
    pub(crate) fn is_disabled(&self, name: &str) -> bool {
        !self.disabled.is_empty() && self.disabled.iter().any(|(entry, _)| *entry.name == *name)
    }

    /// [`insert`](Self::insert) of a tool whose name a disabled tool
    /// holds: replaced where it is, disabled, or refused.
    pub(crate) fn replace_disabled(
        &mut self,
        tool: Registration<Ctx>,
        on_duplicate: OnDuplicate,
    ) -> Result<Inserted, RegistryError> {
        if on_duplicate == OnDuplicate::Error {
            return Err(RegistryError::DuplicateName {
                name: tool.name.into_owned(),
            });
        }
        let (entry, definition) = Entry::new(tool)?;
        self.check(&entry, &definition)?;
        let at = self
            .disabled
            .iter()
            .position(|(old, _)| old.name == entry.name)
            .expect("a disabled tool of that name");
        self.disabled[at] = (entry, definition);
        Ok(Inserted::Replaced)
    }

    /// A registry with the same tools and settings, whose calls share this
    /// one's pending results and each tool's turn: the next version of a
    /// registry behind a handle.
    pub(crate) fn fork(&self) -> Self {
        Self {
            entries: self.entries.clone(),
            definitions: self.definitions.clone(),
            index: self.index.clone(),
            disabled: self.disabled.clone(),
            pipeline: self.pipeline.clone(),
            checks: self.checks.clone(),
            batch: self.batch,
            cached: Cached::default(),
        }
    }

    /// A registry with this one's settings and checks and no tools: where
    /// another's tools go through rules (`Compose::apply`).
    pub(crate) fn emptied(&self) -> Self {
        Self {
            entries: Vec::new(),
            definitions: Vec::new(),
            index: Default::default(),
            disabled: Vec::new(),
            pipeline: self.pipeline.clone(),
            checks: self.checks.clone(),
            batch: self.batch,
            cached: Cached::default(),
        }
    }

    /// The index made again, after a tool left the list.
    fn reindex(&mut self) {
        self.index.clear();
        for (at, definition) in self.definitions.iter().enumerate() {
            self.index.insert(definition.name.as_str().into(), at);
        }
        self.cached.clear();
    }
}
