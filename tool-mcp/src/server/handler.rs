//! rmcp's `ServerHandler` for a server: `initialize`, `tools/list`,
//! `tools/call`, the sessions and subscriptions told of list changes,
//! the tasks extension's `tasks/get` and `tasks/cancel`, and the requests
//! of 2025-11-25's tasks, which reach rmcp as custom requests
//! (`tasks/spec2025/`).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest, CustomResult,
    GetTaskParams, GetTaskResult, ListToolsResult, PaginatedRequestParams, ServerConfig,
    SubscriptionFilter, Tool,
};
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ReadResourceRequestParams,
    ReadResourceResponse, SubscribeRequestParams, UnsubscribeRequestParams, UpdateTaskParams,
};
// rmcp marks logging deprecated (SEP-2577); 2025-11-25 and 2026-07-28
// both have it.
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};

use rmcp::{ErrorData, RoleServer, ServerHandler};
use tool_core::toolset::Select;

use crate::prompts;
use crate::resources;
use crate::server::McpServer;
use crate::server::listeners;
use crate::server::{capabilities, completion};
use crate::tasks::TaskOwner;
use crate::tasks::input;
use crate::tasks::spec2025;
use crate::tools::call::call_tool;

/// Tools, whose list may change, and tasks when a tool is `long_running`.
impl<Ctx: Send + Sync + 'static> ServerHandler for McpServer<Ctx> {
    fn get_info(&self) -> ServerConfig {
        capabilities::server_config(self)
    }

    /// The tools this caller may call: those whose scopes it holds (or, on
    /// a protected resource, can be given) and whose availability check
    /// lets it.
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        let ctx = self.context_for(&context);
        let served = self.current.get();
        // A protected resource's client asks for a scope when a call
        // needs it (step-up): a tool is shown whatever scopes the token
        // holds now.
        let step_up = self.config.resource.is_some();
        // With search, a tool that waits to be found is shown once found.
        let caller = self.found.as_ref().map(|found| {
            (
                found,
                TaskOwner::of(&context, self.config.verifier.is_some()),
            )
        });
        // Past a threshold, those the rule does not keep wait too.
        let up_front = self.config.auto_defer.map(|auto| {
            served
                .registry
                .view(Select::all().up_front().auto_defer(auto))
        });
        let waits = |name: &str| match &up_front {
            Some(up_front) => !up_front.contains(name),
            None => served
                .registry
                .info(name)
                .is_some_and(|tool| tool.metadata.defer),
        };
        served
            .listing()?
            .page(cursor, self.config.page_size, |name| {
                if let Some((found, caller)) = &caller
                    && waits(name)
                    && !found.has(caller, name)
                {
                    return false;
                }
                let only = Select::all().names([name]);
                let select = if step_up {
                    only.available_to(&ctx)
                } else {
                    only.caller(&ctx)
                };
                served.registry.view(select).contains(name)
            })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.current.get().listing().ok()?.get(name).cloned()
    }

    /// The least level of the lines the session's client wants.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_levels.set(&context, request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(resources::list_resources(&self.resources()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::list_templates(&self.resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        // Boxed, as every handler that awaits much (see `call_tool`).
        Box::pin(resources::read(self, request, &context)).await
    }

    // rmcp marks `resources/subscribe` legacy: 2025-11-25 has it.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.listeners
            .subscribe_session(&context.peer, &request.uri);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.listeners
            .unsubscribe_session(&context.peer, &request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(prompts::list_prompts(&self.prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Box::pin(prompts::get(self, request, &context)).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        completion::complete(&self.resources(), &self.prompts(), &request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.start_following();
        self.listeners
            .add_session(context.peer, &self.get_info().capabilities);
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(listeners::accepted(requested, &self.resources()))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _listening = self.listeners.listen(context.sink().clone());
        context.cancelled().await;
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // rmcp spawns each request's handling as a task whose future is as
        // large as the largest of these methods', and copies it whole when
        // spawning and finishing it: a call through the registry, inline,
        // made it 5.5 kB, copied three times a request. Boxed, it is a
        // pointer.
        Box::pin(call_tool(self, request, context)).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Box::pin(async move {
            let caller = TaskOwner::of(&context, self.config.verifier.is_some());
            let task_id = &request.task_id;
            let record = self.tasks.read(self, &caller, task_id).await?;
            let ctx = self.context_for(&context);
            Ok(GetTaskResult::new(
                input::detailed(self, &record, task_id, &ctx).await,
            ))
        })
        .await
    }

    /// Answers what a task's tool asks (SEP-2663's `tasks/update`).
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Box::pin(async move {
            let caller = TaskOwner::of(&context, self.config.verifier.is_some());
            let record = self.tasks.read(self, &caller, &request.task_id).await?;
            let ctx = self.context_for(&context);
            input::answer(self, &record, &request.input_responses, &ctx).await;
            Ok(())
        })
        .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let caller = TaskOwner::of(&context, self.config.verifier.is_some());
        // Cancelling is cooperative: acknowledged once asked, whatever the
        // run does then.
        Box::pin(self.tasks.ask_cancel(self, &caller, &request.task_id))
            .await
            .map(drop)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        match Box::pin(spec2025::handle(self, &request, &context)).await {
            Some(answer) => answer,
            None => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            )),
        }
    }
}
