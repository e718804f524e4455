//! The tools one request or one caller may see: a view of a registry, by
//! names, tags and scopes, made without copying a tool or compiling a
//! schema, in time that grows with the tools it shows, not the registry's.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::dispatch::access::{allowed, available};
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::registry::batch::{ToolCall, run_batch};
use crate::registry::tool_registry::Cached;
use crate::registry::tool_registry::ToolRegistry;
use crate::tool::context::ToolContext;
use crate::tool::{ToolDefinition, ToolInfo};
use crate::toolset::auto_defer::{AutoDefer, SEARCH_TOOL, Weighed, bytes_of};

/// Which tools a [`View`] shows: those named, those carrying a tag
/// ([`ToolMetadata::tags`](crate::ToolMetadata::tags)), those shown up
/// front (not [`defer`](crate::ToolMetadata::defer)red), or, with none of
/// these, every tool; then, with [`caller`](Select::caller), only those
/// the caller may call (its scopes, the tools' availability checks).
pub struct Select<'c, Ctx = ()> {
    names: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    up_front: bool,
    auto: Option<AutoDefer<'c>>,
    caller: Option<&'c ToolContext<Ctx>>,
    available_to: Option<&'c ToolContext<Ctx>>,
}

// Not derived: that would ask `Ctx: Clone`.
impl<Ctx> Clone for Select<'_, Ctx> {
    fn clone(&self) -> Self {
        Self {
            names: self.names.clone(),
            tags: self.tags.clone(),
            up_front: self.up_front,
            auto: self.auto,
            caller: self.caller,
            available_to: self.available_to,
        }
    }
}

impl<Ctx> std::fmt::Debug for Select<'_, Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Select")
            .field("names", &self.names)
            .field("tags", &self.tags)
            .field("up_front", &self.up_front)
            .field("auto", &self.auto)
            .field("caller", &self.caller.is_some())
            .field("available_to", &self.available_to.is_some())
            .finish()
    }
}

impl<'c, Ctx> Select<'c, Ctx> {
    /// Every tool of the registry.
    pub fn all() -> Self {
        Self {
            names: None,
            tags: None,
            up_front: false,
            auto: None,
            caller: None,
            available_to: None,
        }
    }

    /// The tools that do not wait to be found
    /// ([`defer`](crate::ToolMetadata::defer)), beside those named: with
    /// [`names`](Select::names) of the tools a search found
    /// ([`Turn::found`](crate::provider::Turn::found)), what a model whose
    /// provider has no search of its own is shown from its next turn.
    #[must_use]
    pub fn up_front(mut self) -> Self {
        self.up_front = true;
        self
    }

    /// With [`up_front`](Select::up_front), the tools a request with a
    /// search shows when it defers on its own past a threshold: in a
    /// large catalog, the search (`search_tools`) and the tools `auto`
    /// keeps, the rest waiting for the search to find them; in a small
    /// one, the tools not marked `defer`, as without it. The rule is
    /// [`AutoDefer`]'s, the same as a provider's
    /// [`Listing::auto_defer`](crate::provider::Listing::auto_defer), over
    /// the whole registry.
    ///
    /// ```
    /// use tool_core::toolset::AutoDefer;
    /// use tool_core::search::SearchTool;
    /// use tool_core::toolset::Select;
    /// use tool_core::{tool, ToolRegistry};
    ///
    /// /// Add two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// /// Subtract `b` from `a`.
    /// #[tool]
    /// fn sub(a: i64, b: i64) -> i64 { a - b }
    ///
    /// let tools: ToolRegistry = ToolRegistry::new().with(Add).with(Sub);
    /// let search = SearchTool::new(tools.tools());
    /// let registry = tools.with(search);
    /// // Past one tool (30 unless set), one kept: the first.
    /// let auto = AutoDefer::new().past_tools(1).keep(1);
    /// let shown = registry.view(Select::all().up_front().auto_defer(auto));
    /// assert_eq!(shown.names().collect::<Vec<_>>(), ["add", "search_tools"]);
    /// ```
    #[must_use]
    pub fn auto_defer(mut self, auto: AutoDefer<'c>) -> Self {
        self.auto = Some(auto);
        self
    }

    /// The tools of these names (a name that is no tool's is skipped).
    #[must_use]
    pub fn names<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        (self.names.get_or_insert_with(Vec::new)).extend(names.into_iter().map(Into::into));
        self
    }

    /// The tools carrying any of these tags, beside those named.
    #[must_use]
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        (self.tags.get_or_insert_with(Vec::new)).extend(tags.into_iter().map(Into::into));
        self
    }

    /// Only the tools `caller` may call: it holds their scopes, and their
    /// availability checks let it.
    #[must_use]
    pub fn caller(mut self, caller: &'c ToolContext<Ctx>) -> Self {
        self.caller = Some(caller);
        self
    }

    /// Only the tools whose availability checks
    /// ([`TypedTool::check_available`](crate::TypedTool::check_available))
    /// let `caller` call them, whatever scopes it holds: what to show a
    /// caller who can be given more scopes when it needs them (an OAuth
    /// client asked for a scope, which it then asks its user for).
    #[must_use]
    pub fn available_to(mut self, caller: &'c ToolContext<Ctx>) -> Self {
        self.available_to = Some(caller);
        self
    }
}

/// Where each tag and each scope is found in a registry, made once per
/// version of it, at its first view.
#[derive(Default)]
struct Places {
    by_tag: HashMap<String, Vec<usize>>,
    by_scope: HashMap<String, Vec<usize>>,
    unscoped: Vec<usize>,
    /// The tools not deferred.
    up_front: Vec<usize>,
}

impl Places {
    fn of<Ctx: Send + Sync + 'static>(registry: &ToolRegistry<Ctx>) -> Self {
        let mut places = Places::default();
        for (at, entry) in registry.entries.iter().enumerate() {
            if !entry.metadata.defer {
                places.up_front.push(at);
            }
            for tag in entry.metadata.tags.iter() {
                places.by_tag.entry(tag.to_string()).or_default().push(at);
            }
            match entry.metadata.scopes.first() {
                None => places.unscoped.push(at),
                // One scope a tool requires is enough to find it by.
                Some(scope) => places
                    .by_scope
                    .entry(scope.to_string())
                    .or_default()
                    .push(at),
            }
        }
        places
    }
}

/// The tools of a registry one request or one caller may see
/// ([`ToolRegistry::view`]): listed, turned into any provider's
/// definitions (made once per view, then kept) and called, like the
/// registry's own, and only they. A call of a tool outside the view is an
/// unknown tool's, whose message lists the view's tools.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::provider::Provider;
/// use tool_core::toolset::Select;
/// use tool_core::{ToolContext, ToolRegistry, tool};
///
/// /// Add two numbers.
/// #[tool(tags = ["math"])]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// /// Read a file.
/// #[tool(tags = ["files"], scopes = ["files:read"])]
/// fn read_file(path: String) -> String { path }
///
/// let registry: ToolRegistry = ToolRegistry::new().with(Add).with(ReadFile);
/// let math = registry.view(Select::all().tags(["math"]));
/// assert_eq!(math.names().collect::<Vec<_>>(), ["add"]);
/// assert_eq!(Provider::Mcp.definitions(&math).unwrap().as_json().as_array().unwrap().len(), 1);
///
/// let ctx = ToolContext::new(());
/// let visible = registry.view(Select::all().caller(&ctx));
/// assert_eq!(visible.names().collect::<Vec<_>>(), ["add"], "no `files:read` scope");
/// let refused = math.call(&ctx, "read_file", json!({"path": "a"})).await;
/// assert_eq!(refused.model_text(), "unknown tool `read_file`. Available tools: `add`.");
/// # });
/// ```
pub struct View<'r, Ctx = ()> {
    registry: &'r ToolRegistry<Ctx>,
    /// Where the view's tools are in the registry, in its order.
    members: Vec<usize>,
    pub(crate) cached: Cached,
}

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// The tools `select` picks, as a [`View`]: nothing is copied or made
    /// again but the list of where they are.
    pub fn view(&self, select: Select<'_, Ctx>) -> View<'_, Ctx> {
        let Ok::<Arc<Places>, std::convert::Infallible>(places) =
            self.cached(("view places", 0), || Ok(Places::of(self)));
        let mut members: Vec<usize> = Vec::new();
        let chosen = select.names.is_some() || select.tags.is_some() || select.up_front;
        if select.up_front {
            match select.auto {
                None => members.extend(&places.up_front),
                Some(auto) => members.extend(self.up_front_past(auto)),
            }
        }
        for name in select.names.iter().flatten() {
            members.extend(self.index.get(name.as_str()));
        }
        for tag in select.tags.iter().flatten() {
            members.extend(places.by_tag.get(tag).into_iter().flatten());
        }
        match (chosen, select.caller) {
            (false, None) => members.extend(0..self.entries.len()),
            (false, Some(caller)) => {
                // Only the tools it could call: those that need no scope,
                // and those of a scope it holds.
                members.extend(&places.unscoped);
                for scope in caller.scopes() {
                    members.extend(places.by_scope.get(scope).into_iter().flatten());
                }
            }
            (true, _) => {}
        }
        members.sort_unstable();
        members.dedup();
        if let Some(caller) = select.caller {
            members.retain(|&at| allowed(&self.entries[at], caller));
        }
        if let Some(caller) = select.available_to {
            members.retain(|&at| available(&self.entries[at], caller));
        }
        View {
            registry: self,
            members,
            cached: Cached::default(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> ToolRegistry<Ctx> {
    /// Where the tools `auto` shows up front are: [`AutoDefer`]'s rule over
    /// every tool, each weighed once per version of the registry.
    fn up_front_past(&self, auto: AutoDefer<'_>) -> Vec<usize> {
        let Ok::<Arc<Vec<usize>>, std::convert::Infallible>(sizes) =
            self.cached(("tool sizes", 0), || {
                Ok(self
                    .definitions
                    .iter()
                    .map(|definition| bytes_of(definition))
                    .collect())
            });
        let weighed: Vec<Weighed<'_>> = self
            .entries
            .iter()
            .zip(sizes.iter())
            .map(|(entry, &bytes)| Weighed {
                name: &entry.name,
                marked: entry.metadata.defer,
                bytes,
            })
            .collect();
        let waiting = auto.waiting(&weighed, SEARCH_TOOL);
        (0..waiting.len()).filter(|&at| !waiting[at]).collect()
    }
}

impl<'r, Ctx: Send + Sync + 'static> View<'r, Ctx> {
    /// The registry the view is of.
    pub fn registry(&self) -> &'r ToolRegistry<Ctx> {
        self.registry
    }

    /// The names of the view's tools, in the registry's order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'r str> + '_ {
        let registry = self.registry;
        self.members
            .iter()
            .map(move |&at| &*registry.entries[at].name)
    }

    /// The number of tools in the view.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the view shows no tool.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether the view shows the tool of that name.
    pub fn contains(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// The view's tools as the registry knows them.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = ToolInfo<'r>> + '_ {
        let registry = self.registry;
        self.members
            .iter()
            .map(move |&at| registry.entries[at].info(&registry.definitions[at]))
    }

    /// The view's tools' definitions.
    pub fn tool_definitions(&self) -> impl ExactSizeIterator<Item = &'r Arc<ToolDefinition>> + '_ {
        let registry = self.registry;
        self.members
            .iter()
            .map(move |&at| &registry.definitions[at])
    }

    /// [`ToolRegistry::call`], for the view's tools only.
    pub async fn call(&self, ctx: &ToolContext<Ctx>, name: &str, args: Value) -> ToolResult {
        let found = self
            .position(name)
            .map(|at| self.registry.found(at))
            .ok_or_else(|| Box::new(self.unknown_tool(ctx, name)));
        self.registry.pipeline.call(ctx, name, found, args).await
    }

    /// [`ToolRegistry::call_all`], for the view's tools only.
    pub async fn call_all(
        &self,
        ctx: &ToolContext<Ctx>,
        calls: impl IntoIterator<Item = ToolCall>,
    ) -> Vec<ToolResult> {
        run_batch(
            self.registry.batch,
            calls,
            |call| {
                self.position(&call.name)
                    .is_none_or(|at| self.registry.entries[at].may_overlap())
            },
            |call| async move {
                let ctx = call.context_in(ctx);
                self.call(&ctx, &call.name, call.arguments).await
            },
        )
        .await
    }

    /// Where the tool of that name is in the registry, if the view shows it.
    fn position(&self, name: &str) -> Option<usize> {
        let at = *self.registry.index.get(name)?;
        self.members.binary_search(&at).ok().map(|_| at)
    }

    /// The registry's unknown tool error, said of the view's tools.
    fn unknown_tool(&self, ctx: &ToolContext<Ctx>, name: &str) -> ToolError {
        let shown: Vec<&str> = self
            .members
            .iter()
            .map(|&at| &self.registry.entries[at])
            .filter(|entry| allowed(entry, ctx))
            .map(|entry| &*entry.name)
            .collect();
        crate::registry::tool_registry::unknown(name, shown)
    }
}

impl<Ctx> std::fmt::Debug for View<'_, Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self
            .members
            .iter()
            .map(|&at| &*self.registry.entries[at].name)
            .collect();
        f.debug_struct("View").field("tools", &names).finish()
    }
}
