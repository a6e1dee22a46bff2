//! rmcp's `ServerHandler` for [`McpServer`]: what the server answers to each request. Tools
//! go through the registry's call path (`call.rs`); prompts, resources and completion
//! through what `served.rs` keeps; tasks through the task store.

use std::borrow::Cow;
use std::sync::atomic::Ordering;

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams, CompleteResult,
    CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, PromptsCapability, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ResourcesCapability, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    TASKS_EXTENSION_ID, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::mcp::McpServer;
use crate::mcp::server::traced::{Target, answer_in, request_span};
use crate::mcp::server::wire;
use crate::mcp::server::{caller, revision};
use crate::mcp::transport::malformed::misread;

/// Who asks about a task: the owner its verified token makes, if it came with one.
pub(in crate::mcp) fn task_caller(context: RequestContext<RoleServer>) -> Option<String> {
    let mut context = context;
    caller(&mut context).claims().map(crate::mcp::server::tasks::serve::owner)
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.shared.info.clone();
        if self.shared.tasks_declared || self.shared.live.current().tasks {
            info.capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(TASKS_EXTENSION_ID.to_owned(), rmcp::model::JsonObject::new());
        }
        let served = &self.shared.served;
        if served.prompts().is_some() {
            let mut prompts = PromptsCapability::default();
            prompts.list_changed = Some(true);
            info.capabilities.prompts = Some(prompts);
        }
        if served.resources().is_some() {
            let mut resources = ResourcesCapability::default();
            resources.subscribe = Some(true);
            resources.list_changed = Some(true);
            info.capabilities.resources = Some(resources);
        }
        if served.prompts().is_some() || served.resources().is_some() {
            info.capabilities.completions = Some(rmcp::model::JsonObject::new());
        }
        info
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let span = request_span("prompts/list", Target::None, &context);
        answer_in(span, async {
            let version = context.protocol_version();
            let mut result = self.list_prompts_for(context);
            revision::prompts(&mut result, version.as_ref());
            Ok(result)
        })
        .await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let span = request_span("prompts/get", Target::Prompt(&request.name), &context);
        let caller = self.content_caller(context);
        answer_in(span, self.get_prompt_for(request, caller)).await.map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let span = request_span("resources/list", Target::None, &context);
        answer_in(span, async {
            let version = context.protocol_version();
            let mut result = self.list_resources_for(context);
            revision::resources(&mut result, version.as_ref());
            Ok(result)
        })
        .await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let span = request_span("resources/templates/list", Target::None, &context);
        answer_in(span, async {
            let version = context.protocol_version();
            let mut result = self.list_templates_for(context);
            revision::templates(&mut result, version.as_ref());
            Ok(result)
        })
        .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let span = request_span("resources/read", Target::Resource(&request.uri), &context);
        let caller = self.content_caller(context);
        answer_in(span, self.read_resource_for(request, caller)).await.map(Into::into)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let span = request_span("resources/subscribe", Target::Resource(&request.uri), &context);
        answer_in(span, async { self.subscription(&request.uri, true, context) }).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let span = request_span("resources/unsubscribe", Target::Resource(&request.uri), &context);
        answer_in(span, async { self.subscription(&request.uri, false, context) }).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // 2025-11-25's task requests, handed over by the session's transport (`tasks/era.rs`).
        let request = match self.answer_2025(request, context.clone()).await {
            Ok(answer) => return answer,
            Err(request) => request,
        };
        let span = request_span(&request.method, Target::None, &context);
        answer_in(span, async { Err(misread(&request.method, request.params)) }).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let span = request_span("completion/complete", Target::None, &context);
        answer_in(span, async { self.complete_for(&request, context) }).await
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let span = request_span("tools/list", Target::None, &context);
        answer_in(span, async { Ok(self.list_tools_for(context)) }).await
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        answer_in(request_span("ping", Target::None, &context), async { Ok(()) }).await
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let span = request_span("initialize", Target::None, &context);
        context.peer.set_peer_info(request.clone());
        answer_in(span, async { self.negotiate_initialize(&request).map(revision::initialize) }).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let catalog = self.shared.live.current();
        catalog.tools.get(*catalog.positions.get(name)?).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let span = request_span("tasks/get", Target::None, &context);
        let owner = task_caller(context);
        answer_in(span, self.shared.tasks.get(&request.task_id, owner.as_deref())).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let span = request_span("tasks/update", Target::None, &context);
        let owner = task_caller(context);
        answer_in(span, self.shared.tasks.update(&request.task_id, owner.as_deref(), &request.input_responses)).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let span = request_span("tasks/cancel", Target::None, &context);
        let owner = task_caller(context);
        answer_in(span, self.shared.tasks.cancel(&request.task_id, owner.as_deref())).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.roots_changed(&context.peer);
        // A session-era client: told when the tool list changes.
        self.shared.live.connected(context.peer);
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.roots_changed(&context.peer);
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        answer_in(request_span("logging/setLevel", Target::None, &context), async {
            self.session.log_level.store(wire::log_level(request.level) as u8, Ordering::Relaxed);
            Ok(())
        })
        .await
    }
}

impl McpServer {
    /// The tools `context`'s caller sees, with how long and how widely the list may be kept.
    pub(in crate::mcp) fn list_tools_for(&self, context: RequestContext<RoleServer>) -> ListToolsResult {
        let catalog = self.shared.live.current();
        let revision = context.protocol_version();
        let mut result = if self.filters() {
            let mut context = context;
            let caller = caller(&mut context);
            let visible = catalog
                .tools
                .iter()
                .filter(|tool| catalog.registry.get(&tool.name).is_some_and(|entry| self.visible(entry, &caller)))
                .cloned()
                .collect();
            ListToolsResult::with_all_items(visible)
        } else {
            ListToolsResult::with_all_items(catalog.tools.to_vec())
        };
        // Cache hints are 2026-07-28's (SEP-2549): a client of an earlier revision holds a
        // session and hears of changes instead.
        if !revision::before(revision.as_ref(), &ProtocolVersion::V_2026_07_28) && revision.is_some() {
            let ttl = self.shared.list_ttl.unwrap_or_default();
            result.ttl_ms = Some(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
            result.cache_scope = Some(if self.filters() { CacheScope::Private } else { CacheScope::Public });
        }
        revision::tools(&mut result, revision.as_ref());
        result
    }
}
