//! [`McpServer`]: a [`Registry`] served over MCP, and how it is built. The tool list is each
//! tool's MCP definition, written from its compile-time schema tree and converted to rmcp's
//! model once per registry; each `tools/call` goes through the registry's call path (every
//! constraint validated before the tool runs) with a context of its own: the request id,
//! the registry's state, a host for progress, logs, sampling and elicitation, and
//! cancellation from `notifications/cancelled`. What it answers is `handler.rs`.

pub(in crate::mcp) mod call;
pub(in crate::mcp) mod client;
pub(in crate::mcp) mod direct;
pub(in crate::mcp) mod handler;
pub(in crate::mcp) mod host;
pub(in crate::mcp) mod identity;
pub(in crate::mcp) mod revision;
pub(in crate::mcp) mod roots;
pub(in crate::mcp) mod rounds;
pub(in crate::mcp) mod tasks;
pub(in crate::mcp) mod tools;
pub(in crate::mcp) mod traced;
pub(in crate::mcp) mod wire;

use std::sync::Arc;
use std::sync::atomic::AtomicU8;

use rmcp::RoleServer;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool};
use rmcp::service::RequestContext;

use crate::auth::Claims;
use crate::context::{Client, Root, ToolContext};
use crate::error::ToolError;
use crate::mcp::catalog::prompts::Prompts;
use crate::mcp::catalog::resources::Resources;
use crate::mcp::catalog::subscribe::Subscription;
use crate::mcp::catalog::{PromptsHandle, ResourcesHandle, Served, Subscriptions};
use crate::mcp::server::host::{LEVEL_UNSET, SessionLevel};
use crate::mcp::server::tasks::Tasks;
use crate::mcp::server::tasks::run::ErrorText;
use crate::mcp::server::tools::{Live, ToolsHandle};
use crate::registry::{Entry, Registry};
use crate::tasks::{MemoryTaskStore, TaskSettings, TaskStore};

/// A registry served over MCP: implements rmcp's [`ServerHandler`](rmcp::ServerHandler) for
/// tools, and for [`Prompts`] and [`Resources`] given to it (with completion of their
/// arguments), tasks and `logging/setLevel`. Serve it with [`serve`](crate::mcp::serve),
/// [`serve_stdio`](crate::mcp::serve_stdio) or [`serve_http`](crate::mcp::serve_http), or hand it to
/// rmcp yourself.
///
/// Cheap to clone: every clone shares the registry and the converted tool list, and each
/// has its own session state (the log level, its resource subscriptions), as one HTTP
/// session or stdio connection.
#[derive(Clone)]
pub struct McpServer {
    pub(in crate::mcp) shared: Arc<Shared>,
    pub(in crate::mcp) session: Session,
}

/// What one session (an HTTP session, a stdio connection) holds of its own.
#[derive(Clone)]
pub(in crate::mcp) struct Session {
    pub(in crate::mcp) log_level: SessionLevel,
    /// The resources it subscribed to.
    pub(in crate::mcp) subscriptions: Subscriptions,
}

impl Session {
    fn new() -> Session {
        Session { log_level: Arc::new(AtomicU8::new(LEVEL_UNSET)), subscriptions: Subscriptions::default() }
    }
}

#[derive(Clone)]
pub(in crate::mcp) struct Shared {
    pub(in crate::mcp) live: Arc<Live>,
    pub(in crate::mcp) info: ServerConfig,
    pub(in crate::mcp) error_text: Option<ErrorText>,
    pub(in crate::mcp) filter: Option<ToolFilter>,
    pub(in crate::mcp) prompt_filter: Option<ToolFilter>,
    pub(in crate::mcp) resource_filter: Option<ToolFilter>,
    pub(in crate::mcp) hide_unpermitted: bool,
    pub(in crate::mcp) list_ttl: Option<core::time::Duration>,
    pub(in crate::mcp) tasks: Arc<Tasks>,
    /// Whether the tasks extension is declared whatever the tools say (a store was given).
    pub(in crate::mcp) tasks_declared: bool,
    /// A call of an unknown tool is answered with an `isError` result, not -32602.
    pub(in crate::mcp) unknown_as_result: bool,
    /// The prompts and resources served beside the tools.
    pub(in crate::mcp) served: Arc<Served>,
    /// What to do with a client's roots as they change.
    pub(in crate::mcp) roots: Option<RootsHook>,
    /// What to do when a session's resource subscriptions change.
    pub(in crate::mcp) subscription: Option<SubscriptionHook>,
}

/// What a server does with a client's roots.
pub(in crate::mcp) type RootsHook = Arc<dyn Fn(&Client, Vec<Root>) + Send + Sync>;

/// What a server does when a session's subscriptions change.
pub(in crate::mcp) type SubscriptionHook = Arc<dyn Fn(&ToolContext, &Subscription) + Send + Sync>;

/// Which tools (prompts, resources) a caller sees and may use.
pub(in crate::mcp) type ToolFilter = Arc<dyn Fn(&Entry, &ToolContext) -> bool + Send + Sync>;

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
    #[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
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
                prompt_filter: None,
                resource_filter: None,
                hide_unpermitted: false,
                list_ttl: None,
                tasks: Arc::new(Tasks::new(Arc::new(MemoryTaskStore::new()), TaskSettings::default())),
                tasks_declared: false,
                unknown_as_result: false,
                served: Arc::new(Served::default()),
                roots: None,
                subscription: None,
            }),
            session: Session::new(),
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

    /// Words every failure of a tool call as `text` does (invalid arguments, the tool's `Err`,
    /// its panic, an unknown tool answered as a result: the client's model reads it, with
    /// `isError: true`). A prompt's or a resource's error keeps its own message, which names
    /// the prompt or resource and the rule (`invalid arguments for prompt ..`). By default it is [`ToolError`]'s `Display`, which names the tool and says what to do
    /// (`tool "convert" failed: ..`). A port of another server answers as that server did,
    /// from the parts each [`Violation`](crate::Violation) carries (`expected`, `received`,
    /// `property`) rather than from this crate's English:
    ///
    /// ```
    /// # #[cfg(feature = "mcp")] {
    /// use tool_core::{Registry, ToolError, mcp::McpServer};
    /// let server = McpServer::new(Registry::new()).with_error_text(|error| match error {
    ///     ToolError::Failed { message, .. } => message.clone(),
    ///     ToolError::InvalidArguments { violations, .. } => violations
    ///         .iter()
    ///         .map(|v| format!("expected {}, received {} at {}",
    ///             v.expected.as_deref().unwrap_or("a valid value"), v.received.as_deref().unwrap_or("undefined"), v.path))
    ///         .collect::<Vec<_>>()
    ///         .join("; "),
    ///     other => other.to_string(),
    /// });
    /// # }
    /// ```
    #[must_use]
    pub fn with_error_text(self, text: impl Fn(&ToolError) -> String + Send + Sync + 'static) -> Self {
        let shared = Shared { error_text: Some(Arc::new(text)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Answers a call of a tool the server does not have (or hides from the caller) with an
    /// `isError` result the client's model reads, as the TypeScript SDK does, worded by
    /// [`McpServer::with_error_text`] (by default: the unknown name and the tools the caller
    /// may call), instead of the protocol's error (-32602), which a model never sees.
    #[must_use]
    pub fn unknown_tools_as_results(self) -> Self {
        let shared = Shared { unknown_as_result: true, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Serves `prompts` beside the tools (`prompts/list`, `prompts/get`, completion of their
    /// arguments); declares the `prompts` capability. Every clone of this server serves the
    /// same prompts; change them while serving with [`McpServer::prompts_handle`].
    #[must_use]
    pub fn with_prompts(self, prompts: Prompts) -> Self {
        self.shared.served.set_prompts(prompts);
        self
    }

    /// Serves `resources` and resource templates beside the tools (`resources/list`,
    /// `resources/templates/list`, `resources/read`, subscriptions, completion of template
    /// variables); declares the `resources` capability. Every clone of this server serves
    /// the same resources; tell subscribers of a change, or change the resources, with
    /// [`McpServer::resources_handle`].
    #[must_use]
    pub fn with_resources(self, resources: Resources) -> Self {
        self.shared.served.set_resources(resources);
        self
    }

    /// A handle that tells subscribed clients a resource changed, and changes the resources
    /// while the server serves. Every session and clone of this server sees the change.
    #[must_use]
    pub fn resources_handle(&self) -> ResourcesHandle {
        ResourcesHandle::new(Arc::clone(&self.shared.served), Arc::clone(&self.shared.live))
    }

    /// A handle that changes the prompts while the server serves; connected clients are told.
    #[must_use]
    pub fn prompts_handle(&self) -> PromptsHandle {
        PromptsHandle::new(Arc::clone(&self.shared.served), Arc::clone(&self.shared.live))
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
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Shows each caller only the prompts `visible` accepts, as
    /// [`with_tool_filter`](McpServer::with_tool_filter) does tools; a prompt hidden is
    /// unknown to `prompts/get` and completion.
    #[must_use]
    pub fn with_prompt_filter(self, visible: impl Fn(&Entry, &ToolContext) -> bool + Send + Sync + 'static) -> Self {
        let shared = Shared { prompt_filter: Some(Arc::new(visible)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Shows each caller only the resources and templates `visible` accepts (each by its
    /// entry: its name, scopes and options), as
    /// [`with_tool_filter`](McpServer::with_tool_filter) does tools; a resource hidden is
    /// not found by `resources/read`, subscription and completion.
    #[must_use]
    pub fn with_resource_filter(self, visible: impl Fn(&Entry, &ToolContext) -> bool + Send + Sync + 'static) -> Self {
        let shared = Shared { resource_filter: Some(Arc::new(visible)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Calls `hook` with the caller (its client, claims and HTTP request; its `log` reaches the
    /// session) at each accepted
    /// `resources/subscribe` and each `resources/unsubscribe`, after the session's set
    /// changed: a server that polls a source only while someone watches starts and stops
    /// there, and tells subscribers with
    /// [`ResourcesHandle::updated`](crate::mcp::ResourcesHandle::updated).
    #[must_use]
    pub fn on_subscription(self, hook: impl Fn(&ToolContext, &Subscription) + Send + Sync + 'static) -> Self {
        let shared = Shared { subscription: Some(Arc::new(hook)), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// How long a client of 2026-07-28 (which holds no session, so hears of no change) may
    /// keep the tool list before asking again (SEP-2549 `ttlMs`); 0 by default, so it asks
    /// every time and never calls a tool a [`ToolsHandle`] removed. The list is `public`
    /// (`cacheScope`) when every caller sees the same tools, `private` once a filter or
    /// OAuth scopes make it the caller's own.
    #[must_use]
    pub fn with_list_ttl(self, ttl: core::time::Duration) -> Self {
        let shared = Shared { list_ttl: Some(ttl), ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Keeps tasks (see [`tasks`](crate::tasks)) in `store`, shared with every replica that
    /// serves the same clients, as `settings` say; declares the tasks extension even while no
    /// tool is task-capable. By default a server keeps them in its own memory.
    #[must_use]
    pub fn with_task_store(self, store: impl TaskStore, settings: TaskSettings) -> Self {
        let tasks = Arc::new(Tasks::new(Arc::new(store), settings));
        let shared = Shared { tasks, tasks_declared: true, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Hides from each token's `tools/list` the tools it lacks the scopes for (the OAuth
    /// layer turns it on).
    #[cfg(feature = "oauth")]
    pub(in crate::mcp) fn hiding_unpermitted(self) -> Self {
        let shared = Shared { hide_unpermitted: true, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
    }

    /// Whether some served tool requires OAuth scopes.
    #[cfg(feature = "oauth")]
    pub(in crate::mcp) fn any_scoped(&self) -> bool {
        self.shared.live.current().scoped
    }

    fn with_info(self, info: ServerConfig) -> Self {
        let shared = Shared { info, ..(*self.shared).clone() };
        McpServer { shared: Arc::new(shared), session: self.session }
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
        McpServer { shared: Arc::clone(&self.shared), session: Session::new() }
    }
}

impl McpServer {
    /// How a failed call's text is worded, when the server says.
    pub(in crate::mcp) fn error_text(&self) -> Option<ErrorText> {
        self.shared.error_text.clone()
    }

    /// The server's tasks.
    pub(in crate::mcp) fn tasks(&self) -> &Arc<Tasks> {
        &self.shared.tasks
    }
}

/// What is known of the caller, as a context to start the call's from: the client (its
/// name, revision and capabilities), and over HTTP the request's parts (moved out of rmcp's
/// extensions, not copied) and the claims the OAuth layer verified.
pub(in crate::mcp) fn caller(context: &mut RequestContext<RoleServer>) -> ToolContext {
    let caller = caller_of(&mut context.extensions);
    match client::client(context) {
        Some(client) => caller.with_client(client),
        None => caller,
    }
}

/// [`caller`] from a request's extensions, where rmcp puts the HTTP parts.
pub(in crate::mcp) fn caller_of(extensions: &mut rmcp::model::Extensions) -> ToolContext {
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

impl From<Registry> for McpServer {
    fn from(registry: Registry) -> Self {
        McpServer::new(registry)
    }
}
