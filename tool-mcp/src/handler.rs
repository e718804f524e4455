//! rmcp's `ServerHandler` for a server: `initialize`, `tools/list`,
//! `tools/call`, the sessions and subscriptions told of tool list changes,
//! the tasks extension's `tasks/get` and `tasks/cancel`, and the requests
//! of 2025-11-25's tasks, which reach rmcp as custom requests
//! (`tasks_2025/`).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest, CustomResult,
    GetTaskParams, GetTaskResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, PromptsCapability,
    ReadResourceRequestParams, ReadResourceResponse, ResourcesCapability, SubscribeRequestParams,
    UnsubscribeRequestParams, UpdateTaskParams,
};
// rmcp marks logging deprecated (SEP-2577); 2025-11-25 and 2026-07-28
// both have it.
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use std::sync::Arc;

use rmcp::{ErrorData, RoleServer, ServerHandler};
use tool_core::ToolContext;
use tool_core::toolset::Select;

use crate::call::call_tool;
use crate::catalog;
use crate::elicit::{Asked, Asking, with_asker};
use crate::input_required::{Round, run_or_ask};
use crate::server::McpServer;
use crate::tasks::TaskOwner;
use crate::tasks::input;
use crate::tasks_2025;

/// Tools, whose list may change, and tasks when a tool is `long_running`.
impl<Ctx: Send + Sync + 'static> ServerHandler for McpServer<Ctx> {
    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        let builder = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools()
            .enable_tool_list_changed();
        let long_running = self
            .registry()
            .tools()
            .any(|tool| tool.metadata.long_running);
        let mut capabilities = if long_running {
            builder.enable_tasks().build()
        } else {
            builder.build()
        };
        if !self.resources.is_empty() {
            let mut resources = ResourcesCapability::default();
            resources.subscribe = Some(true);
            capabilities.resources = Some(resources);
        }
        if !self.prompts.is_empty() {
            capabilities.prompts = Some(PromptsCapability::default());
        }
        if !self.resources.is_empty() || !self.prompts.is_empty() {
            capabilities.completions = Some(Default::default());
        }
        let info = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        match &self.instructions {
            Some(instructions) => info.with_instructions(instructions.clone()),
            None => info,
        }
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
        let step_up = self.http.resource.is_some();
        // With search, a tool that waits to be found is shown once found.
        let caller = self
            .found
            .as_ref()
            .map(|found| (found, TaskOwner::of(&context, self.verifier.is_some())));
        served.listing()?.page(cursor, self.page_size, |name| {
            if let Some((found, caller)) = &caller
                && served
                    .registry
                    .info(name)
                    .is_some_and(|tool| tool.metadata.defer)
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
        Ok(catalog::list_resources(&self.resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(catalog::list_templates(&self.resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let asked = Asked {
            name: &request.uri,
            arguments: None,
            state: request.request_state.as_deref(),
            responses: request.input_responses.as_ref(),
        };
        let (ctx, round) = self.asking(asked, &context)?;
        let read = self.resources.read(&ctx, &request.uri);
        // Boxed, as every handler that awaits much (see `call_tool`).
        match Box::pin(run_or_ask(round.as_deref(), &self.request_state, read)).await? {
            Ok(read) => catalog::read_answer(read, &request).map(Into::into),
            Err(input_required) => Ok(input_required.into()),
        }
    }

    // rmcp marks `resources/subscribe` legacy: 2025-11-25 has it.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.subscribe(&context, &request.uri);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.unsubscribe(&context, &request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(catalog::list_prompts(&self.prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let asked = Asked {
            name: &request.name,
            arguments: request.arguments.as_ref(),
            state: request.request_state.as_deref(),
            responses: request.input_responses.as_ref(),
        };
        let (ctx, round) = self.asking(asked, &context)?;
        let arguments = catalog::prompt_arguments(&request);
        let got = self.prompts.messages(&ctx, &request.name, &arguments);
        match Box::pin(run_or_ask(round.as_deref(), &self.request_state, got)).await? {
            Ok(got) => {
                let description = self
                    .prompts
                    .get(&request.name)
                    .map(|prompt| prompt.description());
                catalog::prompt_answer(got, description).map(Into::into)
            }
            Err(input_required) => Ok(input_required.into()),
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        catalog::complete(&self.resources, &self.prompts, &request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.start_following();
        self.listeners.add_session(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed;
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _listening = (context.accepted().tools_list_changed == Some(true))
            .then(|| self.listeners.subscribe(context.sink().clone()));
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
            let caller = TaskOwner::of(&context, self.verifier.is_some());
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
            let caller = TaskOwner::of(&context, self.verifier.is_some());
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
        let caller = TaskOwner::of(&context, self.verifier.is_some());
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
        match Box::pin(tasks_2025::handle(self, &request, &context)).await {
            Some(answer) => answer,
            None => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            )),
        }
    }
}

impl<Ctx: Send + Sync + 'static> McpServer<Ctx> {
    /// The context a prompt is got or a resource read in: the request's,
    /// with who answers what it asks the client, and the round its
    /// questions go to in 2026-07-28.
    fn asking(
        &self,
        asked: Asked<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<(ToolContext<Ctx>, Option<Arc<Round>>), ErrorData> {
        let ctx = self.context_for(context);
        match with_asker(self, (true, false), asked, context, ctx)? {
            Asking::Ready(ctx, round) => Ok((ctx, round)),
            // Only a tool that samples is refused before it runs.
            Asking::NoSampling => Err(ErrorData::internal_error("sampling refused", None)),
        }
    }
}
