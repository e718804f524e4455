//! What a server serves, changed while it serves: its registry, its
//! resources and its prompts replaced, one resource updated; each change
//! told to the clients connected that follow it (`listeners.rs`).

use std::sync::Arc;

use tool_core::ToolRegistry;
use tool_core::prompt::Prompts;
use tool_core::resource::Resources;

use crate::server::McpServer;
use crate::server::listeners::Change;

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// Serves `registry` in place of the registry served until now, for
    /// this server and every clone of it, and tells the clients connected
    /// that the tools changed (`notifications/tools/list_changed`, to each
    /// session and to each 2026-07-28 `subscriptions/listen` that asked
    /// for it), so that they list them again. Gives the registry replaced:
    /// requests already begun finish on it, and results of calls pending
    /// in it are delivered to it.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::{tool, ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// /// Add two numbers.
    /// #[tool(read_only)]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// /// Multiply two numbers.
    /// #[tool(read_only)]
    /// fn multiply(a: i64, b: i64) -> i64 { a * b }
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new().with(Add), ToolContext::new(()));
    /// // A plugin is loaded: its tool joins the others.
    /// let before = server
    ///     .replace_registry(ToolRegistry::new().with(Add).with(Multiply))
    ///     .await;
    /// assert_eq!(before.tools().len(), 1);
    /// assert_eq!(server.registry().names().collect::<Vec<_>>(), ["add", "multiply"]);
    /// # });
    /// ```
    pub async fn replace_registry(
        &self,
        registry: impl Into<Arc<ToolRegistry<Ctx>>>,
    ) -> Arc<ToolRegistry<Ctx>> {
        let replaced = self.current.replace(registry.into());
        self.listeners.tell(Change::Tools).await;
        replaced
    }

    /// Serves `resources` in place of the resources served until now, for
    /// this server and every clone of it, and tells the clients connected
    /// that they changed (`notifications/resources/list_changed`, to each
    /// session that was told the server has resources and to each
    /// 2026-07-28 `subscriptions/listen` that asked for
    /// `resourcesListChanged`), so that they list them again. Gives the
    /// resources replaced: a read already begun finishes on them.
    ///
    /// The capabilities a client is given say whether the server has
    /// resources when it connects: a server that serves none declares
    /// none, and its clients connected then are not told when it gets
    /// some.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::resource::Resources;
    /// use tool_core::{resource, ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// /// What changed, release by release.
    /// #[resource(uri = "docs://changelog")]
    /// fn changelog() -> &'static str { "## 1.0" }
    ///
    /// /// What comes next.
    /// #[resource(uri = "docs://roadmap")]
    /// fn roadmap() -> &'static str { "## 2.0" }
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_resources(Resources::new().with(Changelog));
    /// // The roadmap is published: every client listening lists the resources again.
    /// let before = server
    ///     .replace_resources(Resources::new().with(Changelog).with(Roadmap))
    ///     .await;
    /// assert_eq!(before.len(), 1);
    /// assert_eq!(server.resources().len(), 2);
    /// # });
    /// ```
    pub async fn replace_resources(&self, resources: Resources<Ctx>) -> Arc<Resources<Ctx>> {
        let replaced = self.resources.replace(resources);
        self.listeners.tell(Change::Resources).await;
        replaced
    }

    /// Serves `prompts` in place of the prompts served until now, for this
    /// server and every clone of it, and tells the clients connected that
    /// they changed (`notifications/prompts/list_changed`, to each session
    /// that was told the server has prompts and to each 2026-07-28
    /// `subscriptions/listen` that asked for `promptsListChanged`), so
    /// that they list them again. Gives the prompts replaced: a prompt
    /// already being got finishes on them.
    ///
    /// As for resources, a server that serves no prompts declares none,
    /// and its clients connected then are not told when it gets some.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::prompt::Prompts;
    /// use tool_core::{prompt, ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// /// Greet someone.
    /// #[prompt]
    /// fn greet(/** Whom to greet. */ name: String) -> String {
    ///     format!("Say hello to {name}.")
    /// }
    ///
    /// /// Take leave of someone.
    /// #[prompt]
    /// fn farewell(/** Whom to take leave of. */ name: String) -> String {
    ///     format!("Say goodbye to {name}.")
    /// }
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_prompts(Prompts::new().with(Greet));
    /// let before = server
    ///     .replace_prompts(Prompts::new().with(Greet).with(Farewell))
    ///     .await;
    /// assert_eq!(before.len(), 1);
    /// assert!(server.prompts().get("farewell").is_some());
    /// # });
    /// ```
    pub async fn replace_prompts(&self, prompts: Prompts<Ctx>) -> Arc<Prompts<Ctx>> {
        let replaced = self.prompts.replace(prompts);
        self.listeners.tell(Change::Prompts).await;
        replaced
    }

    /// Tells every client subscribed to `uri` that it changed
    /// (`notifications/resources/updated`): each session that subscribed
    /// with 2025-11-25's `resources/subscribe`, and each 2026-07-28
    /// `subscriptions/listen` whose accepted `resourceSubscriptions` hold
    /// it (those the server serves: a resource of that URI, or a template
    /// it fits). A session that has gone is skipped.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use tool_core::resource::Resources;
    /// use tool_core::{resource, ToolContext, ToolRegistry};
    /// use tool_mcp::McpServer;
    ///
    /// /// The notes of a day.
    /// #[resource(uri = "notes://{day}")]
    /// fn notes(day: String) -> String { format!("nothing on {day}") }
    ///
    /// let server = McpServer::new(ToolRegistry::<()>::new(), ToolContext::new(()))
    ///     .with_resources(Resources::new().with(Notes));
    /// // Monday's notes were written to: its subscribers read them again.
    /// server.resource_updated("notes://monday").await;
    /// # });
    /// ```
    pub async fn resource_updated(&self, uri: &str) {
        self.listeners.tell(Change::Updated(uri)).await;
    }
}
