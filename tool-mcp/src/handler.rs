//! rmcp's `ServerHandler` for a server: `initialize`, `tools/list`,
//! `tools/call`, and the tasks extension's `tasks/get` and `tasks/cancel`.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, GetTaskResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::call::call_tool;
use crate::listing::Listing;
use crate::server::McpServer;
use crate::tasks::Caller;

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// The tool list, made once. An error only for a registry whose tools
    /// MCP cannot take, which `ToolRegistry::with_check(Provider::Mcp)`
    /// would have refused at registration.
    fn listing(&self) -> Result<&Listing, ErrorData> {
        self.listing
            .get_or_init(|| Listing::of(&self.registry))
            .as_ref()
            .map_err(|error| ErrorData::internal_error(error.clone(), None))
    }
}

/// Tools, and tasks when a tool is `long_running`.
impl<Ctx: Send + Sync + 'static> ServerHandler for McpServer<Ctx> {
    fn get_info(&self) -> ServerConfig {
        let builder = ServerCapabilities::builder().enable_tools();
        let long_running = self.registry.tools().any(|tool| tool.metadata.long_running);
        let capabilities = if long_running {
            builder.enable_tasks().build()
        } else {
            builder.build()
        };
        let info = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        match &self.instructions {
            Some(instructions) => info.with_instructions(instructions.clone()),
            None => info,
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        self.listing()?.page(cursor, self.page_size)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.listing().ok()?.get(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        call_tool(self, request, context).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let caller = Caller::of(&context, self.verifier.is_some());
        self.tasks
            .get(&caller, &request.task_id)
            .map(GetTaskResult::new)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = Caller::of(&context, self.verifier.is_some());
        self.tasks.cancel(&caller, &request.task_id)
    }
}
