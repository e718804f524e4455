//! A registry whose tools change while calls run on it: each change makes
//! the next version, and a call runs to its end on the version it began
//! on.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use serde_json::Value;
use tokio::sync::watch;

use crate::dispatch::pending::DeliveryError;
use crate::error::tool_error::RegistryError;
use crate::output::result::ToolResult;
use crate::registry::batch::ToolCall;
use crate::registry::into_tool::IntoTool;
use crate::registry::tool_registry::ToolRegistry;
use crate::registry::tool_registry::{Inserted, OnDuplicate};
use crate::tool::context::ToolContext;

/// A [`ToolRegistry`] that can change while it is used: tools added,
/// removed, enabled and disabled, registries merged, from any task, while
/// calls run. Cloning it gives another handle to the same registry.
///
/// Every change makes a new version of the registry; a call already begun
/// finishes on the version it began on, and each call after the change
/// sees it. A removed tool's next call is an unknown tool's, with the
/// usual suggestion. A registry that never changes needs no handle:
/// [`ToolRegistry::call`] pays nothing for this.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use serde_json::json;
/// use tool_core::registry::OnDuplicate;
/// use tool_core::toolset::RegistryHandle;
/// use tool_core::{ToolContext, ToolRegistry, tool};
///
/// /// Add two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// /// Multiply two numbers.
/// #[tool]
/// fn mul(a: i64, b: i64) -> i64 { a * b }
///
/// let handle = RegistryHandle::new(ToolRegistry::new().with(Add));
/// let ctx = ToolContext::new(());
/// handle.insert(Mul, OnDuplicate::Error).unwrap();
/// assert_eq!(handle.call(&ctx, "mul", json!({"a": 2, "b": 3})).await.model_text(), "6");
/// assert!(handle.remove("add"));
/// let gone = handle.call(&ctx, "add", json!({"a": 2, "b": 3})).await;
/// assert_eq!(gone.model_text(), "unknown tool `add`. Available tools: `mul`.");
/// # });
/// ```
pub struct RegistryHandle<Ctx = ()> {
    shared: Arc<HandleState<Ctx>>,
}

struct HandleState<Ctx> {
    current: RwLock<Arc<ToolRegistry<Ctx>>>,
    /// Held through a change, so that each starts from the one before.
    writer: Mutex<()>,
    /// The number of changes so far, for whoever follows them.
    version: watch::Sender<u64>,
}

impl<Ctx> Clone for RegistryHandle<Ctx> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<Ctx: Send + Sync + 'static> RegistryHandle<Ctx> {
    /// A handle to `registry`, which becomes its first version.
    pub fn new(registry: ToolRegistry<Ctx>) -> Self {
        Self {
            shared: Arc::new(HandleState {
                current: RwLock::new(Arc::new(registry)),
                writer: Mutex::new(()),
                version: watch::Sender::new(0),
            }),
        }
    }

    /// The registry as it is now: what to list a provider's definitions
    /// from, serve, or call. It does not change; the next change makes a
    /// new one.
    pub fn current(&self) -> Arc<ToolRegistry<Ctx>> {
        let current = self
            .shared
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        Arc::clone(&current)
    }

    /// [`ToolRegistry::call`] on the registry as it is now.
    pub async fn call(&self, ctx: &ToolContext<Ctx>, name: &str, args: Value) -> ToolResult {
        self.current().call(ctx, name, args).await
    }

    /// [`ToolRegistry::call_all`] on the registry as it is now: every call
    /// of the batch on the same version.
    pub async fn call_all(
        &self,
        ctx: &ToolContext<Ctx>,
        calls: impl IntoIterator<Item = ToolCall>,
    ) -> Vec<ToolResult> {
        self.current().call_all(ctx, calls).await
    }

    /// [`Pending::deliver`](crate::registry::Pending::deliver): every version shares the pending calls.
    pub async fn deliver(&self, call_id: &str, result: ToolResult) -> Result<(), DeliveryError> {
        self.current().pending().deliver(call_id, result).await
    }

    /// [`Pending::wait`](crate::registry::Pending::wait): every version shares the pending calls.
    pub async fn wait(&self, call_id: &str) -> Option<ToolResult> {
        self.current().pending().wait(call_id).await
    }

    /// Makes the next version: `change` gets a copy of the registry as it
    /// is, and what it leaves becomes the registry. Changes from several
    /// tasks happen one after another, each on the one before. `change`
    /// must not use this handle (it would wait for itself).
    ///
    /// ```
    /// use tool_core::toolset::RegistryHandle;
    /// use tool_core::{ToolRegistry, tool};
    ///
    /// /// Say hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Hello));
    /// let removed = handle.update(|registry| registry.remove("hello"));
    /// assert!(removed);
    /// assert!(handle.current().tools().len() == 0);
    /// ```
    pub fn update<R>(&self, change: impl FnOnce(&mut ToolRegistry<Ctx>) -> R) -> R {
        let Ok::<R, std::convert::Infallible>(value) = self.try_update(|next| Ok(change(next)));
        value
    }

    /// [`update`](Self::update) for a change that can fail: an `Err`
    /// leaves the registry as it was.
    pub fn try_update<R, E>(
        &self,
        change: impl FnOnce(&mut ToolRegistry<Ctx>) -> Result<R, E>,
    ) -> Result<R, E> {
        let _writing = self
            .shared
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut next = self.current().fork();
        let value = change(&mut next)?;
        self.publish(next);
        Ok(value)
    }

    /// A change that may change nothing: a new version only when it did.
    fn change_if(&self, change: impl FnOnce(&mut ToolRegistry<Ctx>) -> bool) -> bool {
        self.try_update(|next| if change(next) { Ok(()) } else { Err(()) })
            .is_ok()
    }

    fn publish(&self, next: ToolRegistry<Ctx>) {
        *self
            .shared
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(next);
        self.shared.version.send_modify(|version| *version += 1);
    }

    /// [`ToolRegistry::insert`], as the next version.
    pub fn insert<Kind, T: IntoTool<Ctx, Kind>>(
        &self,
        tool: T,
        on_duplicate: OnDuplicate,
    ) -> Result<Inserted, RegistryError> {
        self.try_update(|next| next.insert(tool, on_duplicate))
    }

    /// [`ToolRegistry::remove`], as the next version when there was such
    /// a tool.
    pub fn remove(&self, name: &str) -> bool {
        self.change_if(|next| next.remove(name))
    }

    /// [`ToolRegistry::remove_all`], as one next version when there was
    /// any such tool: a set of tools leaves in one pass, and whoever
    /// follows the changes sees one.
    ///
    /// ```
    /// use tool_core::toolset::RegistryHandle;
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
    /// let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new().with(Hello).with(Goodbye));
    /// assert_eq!(handle.remove_all(["hello", "goodbye"]), 2);
    /// assert_eq!(handle.version(), 1);
    /// assert_eq!(handle.remove_all(["hello"]), 0);
    /// assert_eq!(handle.version(), 1);
    /// ```
    pub fn remove_all(&self, names: impl IntoIterator<Item = impl AsRef<str>>) -> usize {
        let mut removed = 0;
        self.change_if(|next| {
            removed = next.remove_all(names);
            removed > 0
        });
        removed
    }

    /// [`ToolRegistry::disable`], as the next version when it changed
    /// something.
    pub fn disable(&self, name: &str) -> bool {
        self.change_if(|next| next.disable(name))
    }

    /// [`ToolRegistry::enable`], as the next version when it changed
    /// something.
    pub fn enable(&self, name: &str) -> bool {
        self.change_if(|next| next.enable(name))
    }

    /// [`ToolRegistry::merge`], as the next version.
    pub fn merge(&self, other: ToolRegistry<Ctx>) -> Result<(), RegistryError> {
        self.try_update(|next| next.merge(other))
    }

    /// The number of changes made so far.
    pub fn version(&self) -> u64 {
        *self.shared.version.borrow()
    }

    /// Follows the changes: each [`Changes::next`] waits for the next
    /// version. What a served registry tells its clients from
    /// (`notifications/tools/list_changed`).
    pub fn changes(&self) -> Changes<Ctx> {
        Changes {
            handle: self.clone(),
            version: self.shared.version.subscribe(),
        }
    }
}

impl<Ctx: Send + Sync + 'static> From<ToolRegistry<Ctx>> for RegistryHandle<Ctx> {
    fn from(registry: ToolRegistry<Ctx>) -> Self {
        Self::new(registry)
    }
}

impl<Ctx> std::fmt::Debug for RegistryHandle<Ctx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryHandle")
            .field("version", &*self.shared.version.borrow())
            .finish_non_exhaustive()
    }
}

/// The versions of a registry behind a [`RegistryHandle`], as they are
/// made ([`RegistryHandle::changes`]).
pub struct Changes<Ctx = ()> {
    handle: RegistryHandle<Ctx>,
    version: watch::Receiver<u64>,
}

impl<Ctx: Send + Sync + 'static> Changes<Ctx> {
    /// Waits for a change made since the last one this returned (or since
    /// [`RegistryHandle::changes`]) and returns the registry as it is
    /// then. Several changes in a row may come back as one, the last.
    pub async fn next(&mut self) -> Arc<ToolRegistry<Ctx>> {
        // The sender lives in the handle this holds: it is never closed.
        let _ = self.version.changed().await;
        self.handle.current()
    }
}
