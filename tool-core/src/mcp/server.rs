//! [`McpServer`]: a [`Registry`] as rmcp's `ServerHandler`. The tool list is each tool's
//! MCP definition, written from its compile-time schema tree and converted to rmcp's model
//! once per registry; each `tools/call` goes through the registry's call path (every constraint validated before the tool runs)
//! with a context of its own: the request id, the registry's state, a host for progress,
//! logs, sampling and elicitation, and cancellation from `notifications/cancelled`.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, GetTaskParams,
    GetTaskResult, Implementation, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, TASKS_EXTENSION_ID, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::catalog::{Live, ToolsHandle};
use super::host::{LEVEL_UNSET, Logging, SessionLevel};
use super::tasks::run::ErrorText;
use super::tasks::{MemoryTaskStore, TaskSettings, TaskStore, Tasks};
use super::wire;
use crate::auth::Claims;
use crate::context::ToolContext;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::registry::{Entry, Registry};

/// A registry served over MCP: implements rmcp's [`ServerHandler`] for tools (and
/// `logging/setLevel`). Serve it with [`serve_stdio`](super::serve_stdio) or
/// [`serve_http`](super::serve_http), or hand it to rmcp yourself; to add resources or
/// prompts, write your own `ServerHandler` that forwards the tool methods to this one.
///
/// Cheap to clone: every clone shares the registry and the converted tool list, and each
/// has its own session state (the log level), as one HTTP session or stdio connection.
#[derive(Clone)]
pub struct McpServer {
    shared: Arc<Shared>,
    log_level: SessionLevel,
}

#[derive(Clone)]
struct Shared {
    live: Arc<Live>,
    info: ServerConfig,
    error_text: Option<ErrorText>,
    filter: Option<ToolFilter>,
    hide_unpermitted: bool,
    list_ttl: Option<core::time::Duration>,
    tasks: Arc<Tasks>,
    /// Whether the tasks extension is declared whatever the tools say (a store was given).
    tasks_declared: bool,
    /// A call of an unknown tool is answered with an `isError` result, not -32602.
    unknown_as_result: bool,
}

/// Which tools a caller sees and may call.
type ToolFilter = Arc<dyn Fn(&Entry, &ToolContext) -> bool + Send + Sync>;

impl core::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("McpServer").field("tools", &self.shared.live.current().tools.len()).finish_non_exhaustive()
    }
}

impl McpServer {
    /// Serves `registry`'s tools, as `tool-core` (name and version) until
    /// [`McpServer::with_server_info`] says otherwise.
    ///
    /// # Panics
    /// Never for a registry of `#[tool]`s: their MCP definitions are written from their
    /// schema trees in the form rmcp reads.
    #[must_use]
    pub fn new(registry: Registry) -> Self {
        let live = Arc::new(Live::new(registry));
        let capabilities =
            ServerCapabilities::builder().enable_logging().enable_tools().enable_tool_list_changed().build();
        let info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")));
        McpServer {
            shared: Arc::new(Shared {
                live,
                info,
                error_text: None,
                filter: None,
                hide_unpermitted: false,
                list_ttl: None,
                tasks: Arc::new(Tasks::new(Arc::new(MemoryTaskStore::new()), TaskSettings::default())),
                tasks_declared: false,
                unknown_as_result: false,
            }),
            log_level: new_session_level(),
        }
    }

    /// Names the server to clients (`serverInfo`).
    #[must_use]
    pub fn with_server_info(self, name: impl Into<String>, version: impl Into<String>) -> Self {
        let info = self.shared.info.clone().with_server_info(Implementation::new(name, version));
        self.with_info(info)
    }

    /// Tells clients how to use the server (`instructions`).
    #[must_use]
    pub fn with_instructions(self, instructions: impl Into<String>) -> Self {
        let info = self.shared.info.clone().with_instructions(instructions);
        self.with_info(info)
    }

    /// Words a failed call's error as `text` does (the client's model reads it, with
    /// `isError: true`). By default it is [`ToolError`]'s `Display`, which names the tool
    /// and says what to do (`tool "convert" failed: ..`); a port of another server can
    /// answer as that server did:
    ///
    /// ```
    /// # #[cfg(feature = "mcp")] {
    /// use tool_core::{Registry, ToolError, mcp::McpServer};
    /// let server = McpServer::new(Registry::new()).with_error_text(|error| match error {
    ///     ToolError::Failed { message, .. } => message.clone(),
    ///     other => other.to_string(),
    /// });
    /// # }
    /// ```
    #[must_use]
    pub fn with_error_text(self, text: impl Fn(&ToolError) -> String + Send + Sync + 'static) -> Self {
        let shared = Shared { error_text: Some(Arc::new(text)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// Answers a call of a tool the server does not have (or hides from the caller) with an
    /// `isError` result the client's model reads, as the TypeScript SDK does, worded by
    /// [`McpServer::with_error_text`] (by default: the unknown name and the tools the caller
    /// may call), instead of the protocol's error (-32602), which a model never sees.
    #[must_use]
    pub fn unknown_tools_as_results(self) -> Self {
        let shared = Shared { unknown_as_result: true, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// The result for a call of `name`, which `caller` may not call or the server lacks, if
    /// the server answers those with results ([`McpServer::unknown_tools_as_results`]).
    pub(super) fn unknown_result(
        &self,
        registry: &Registry,
        name: &str,
        caller: &ToolContext,
    ) -> Option<CallToolResult> {
        if !self.shared.unknown_as_result {
            return None;
        }
        let available = registry
            .iter()
            .filter(|entry| !self.filters() || self.visible(entry, caller))
            .map(|entry| entry.name().to_owned())
            .collect();
        Some(self.result(&Err(ToolError::UnknownTool { name: name.to_owned(), available })))
    }

    /// Shows each caller only the tools `visible` accepts, and refuses calls to the others
    /// as unknown tools. `visible` sees the tool and a context holding what is known of the
    /// caller: its verified [`claims`](ToolContext::claims) and, over HTTP, its
    /// [`request`](ToolContext::http_request) (headers, extensions an application layer
    /// put there).
    ///
    /// ```
    /// # #[cfg(feature = "mcp")] {
    /// use tool_core::{Registry, mcp::McpServer};
    /// // Admin tools only for requests an upstream proxy marked as coming from the VPN.
    /// let server = McpServer::new(Registry::new()).with_tool_filter(|tool, caller| {
    ///     !tool.name().starts_with("admin_")
    ///         || caller.http_request().is_some_and(|request| request.headers.contains_key("x-vpn-user"))
    /// });
    /// # }
    /// ```
    #[must_use]
    pub fn with_tool_filter(self, visible: impl Fn(&Entry, &ToolContext) -> bool + Send + Sync + 'static) -> Self {
        let shared = Shared { filter: Some(Arc::new(visible)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// How long a client of 2026-07-28 (which holds no session, so hears of no change) may
    /// keep the tool list before asking again (SEP-2549 `ttlMs`); 0 by default, so it asks
    /// every time and never calls a tool a [`ToolsHandle`] removed. The list is `public`
    /// (`cacheScope`) when every caller sees the same tools, `private` once a filter or
    /// OAuth scopes make it the caller's own.
    #[must_use]
    pub fn with_list_ttl(self, ttl: core::time::Duration) -> Self {
        let shared = Shared { list_ttl: Some(ttl), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// Keeps tasks (see [`tasks`](super::tasks)) in `store`, shared with every replica that
    /// serves the same clients, as `settings` say; declares the tasks extension even while no
    /// tool is task-capable. By default a server keeps them in its own memory.
    #[must_use]
    pub fn with_task_store(self, store: impl TaskStore, settings: TaskSettings) -> Self {
        let tasks = Arc::new(Tasks::new(Arc::new(store), settings));
        let shared = Shared { tasks, tasks_declared: true, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// Hides from each token's `tools/list` the tools it lacks the scopes for (the OAuth
    /// layer turns it on).
    #[cfg(feature = "oauth")]
    pub(super) fn hiding_unpermitted(self) -> Self {
        let shared = Shared { hide_unpermitted: true, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// Whether some served tool requires OAuth scopes.
    #[cfg(feature = "oauth")]
    pub(super) fn any_scoped(&self) -> bool {
        self.shared.live.current().scoped
    }

    /// A finished call's result, worded as [`McpServer::with_error_text`] says.
    pub(super) fn result(&self, outcome: &Result<ToolOutput, ToolError>) -> CallToolResult {
        match (outcome, &self.shared.error_text) {
            (Err(error), Some(text)) => wire::error_result(&text(error)),
            _ => wire::call_result(outcome),
        }
    }

    /// Whether some callers see fewer tools than others.
    pub(super) fn filters(&self) -> bool {
        self.shared.filter.is_some() || self.shared.hide_unpermitted
    }

    /// Whether `caller` sees `entry`.
    pub(super) fn visible(&self, entry: &Entry, caller: &ToolContext) -> bool {
        if self.shared.hide_unpermitted
            && let Some(claims) = caller.claims()
            && entry.permits(claims).is_err()
        {
            return false;
        }
        self.shared.filter.as_ref().is_none_or(|visible| visible(entry, caller))
    }

    fn with_info(self, info: ServerConfig) -> Self {
        let shared = Shared { info, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), log_level: self.log_level }
    }

    /// The registry served now.
    #[must_use]
    pub fn registry(&self) -> Arc<Registry> {
        self.shared.live.current().registry
    }

    /// The tool list as rmcp's model, converted once per change.
    #[must_use]
    pub fn tools(&self) -> Arc<[Tool]> {
        self.shared.live.current().tools
    }

    /// A handle that changes the tools while the server serves: add, remove, hide, show;
    /// connected clients are told. Every session and clone of this server sees the change.
    #[must_use]
    pub fn tools_handle(&self) -> ToolsHandle {
        ToolsHandle { live: Arc::clone(&self.shared.live) }
    }

    /// A handler for a new session: the same tools, its own log level.
    #[must_use]
    pub fn new_session(&self) -> Self {
        McpServer { shared: Arc::clone(&self.shared), log_level: new_session_level() }
    }
}

impl McpServer {
    /// Where a call's log messages go: the request's own level from 2026-07-28 (a stateless
    /// request), the session's before.
    pub(super) fn logging(&self, context: &RequestContext<RoleServer>, stateless: bool) -> Logging {
        if stateless {
            Logging::Request(context.meta.log_level().map(wire::log_level))
        } else {
            Logging::Session(Arc::clone(&self.log_level))
        }
    }

    /// How a failed call's text is worded, when the server says.
    pub(super) fn error_text(&self) -> Option<ErrorText> {
        self.shared.error_text.clone()
    }

    /// The server's tasks.
    pub(super) fn tasks(&self) -> &Arc<Tasks> {
        &self.shared.tasks
    }
}

/// What is known of the caller, as a context to start the call's from: over HTTP, the
/// request's parts (moved out of rmcp's extensions, not copied) and the claims the OAuth
/// layer verified.
pub(super) fn caller(context: &mut RequestContext<RoleServer>) -> ToolContext {
    caller_of(&mut context.extensions)
}

/// [`caller`] from a request's extensions, where rmcp puts the HTTP parts.
pub(super) fn caller_of(extensions: &mut rmcp::model::Extensions) -> ToolContext {
    let Some(parts) = extensions.remove::<axum::http::request::Parts>() else {
        return ToolContext::new();
    };
    let claims = parts.extensions.get::<Arc<Claims>>().cloned();
    let caller = ToolContext::new().with_http_request(Arc::new(parts));
    match claims {
        Some(claims) => caller.with_claims(claims),
        None => caller,
    }
}

/// Who asks about a task: the owner its verified token makes, if it came with one.
fn task_caller(context: RequestContext<RoleServer>) -> Option<String> {
    let mut context = context;
    caller(&mut context).claims().map(super::tasks::serve::owner)
}

fn new_session_level() -> SessionLevel {
    Arc::new(AtomicU8::new(LEVEL_UNSET))
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
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let catalog = self.shared.live.current();
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
        let ttl = self.shared.list_ttl.unwrap_or_default();
        result.ttl_ms = Some(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        result.cache_scope = Some(if self.filters() { CacheScope::Private } else { CacheScope::Public });
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let tools = self.shared.live.current().tools;
        let index = tools.binary_search_by(|tool| tool.name.as_ref().cmp(name)).ok()?;
        tools.get(index).cloned()
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
        let owner = task_caller(context);
        self.shared.tasks.get(&request.task_id, owner.as_deref()).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = task_caller(context);
        self.shared.tasks.update(&request.task_id, owner.as_deref(), &request.input_responses).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = task_caller(context);
        self.shared.tasks.cancel(&request.task_id, owner.as_deref()).await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // A session-era client: told when the tool list changes.
        self.shared.live.connected(context.peer);
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.store(wire::log_level(request.level) as u8, Ordering::Relaxed);
        Ok(())
    }
}

impl From<Registry> for McpServer {
    fn from(registry: Registry) -> Self {
        McpServer::new(registry)
    }
}
