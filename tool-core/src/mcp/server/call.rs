//! The one path of a `tools/call`, from the session's handler ([`McpServer::call`]) and from
//! a call answered on its own HTTP request (`direct.rs`): the tool looked up once for the
//! caller ([`McpServer::find`]), the call run in its `tools/call` span with the caller's
//! trace continued ([`traced`](crate::telemetry::traced)), through the registry's call path ([`start`]), its result
//! worded as the server says.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ProtocolVersion, RequestId,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;

use crate::context::{CancellationToken, ToolContext};
use crate::dispatch::Arguments;
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::mcp::McpServer;
use crate::mcp::server::caller;
use crate::mcp::server::client::capabilities_of;
use crate::mcp::server::host::{Logging, McpHost, Outbox};
use crate::mcp::server::revision;
use crate::mcp::server::rounds::Rounds;
use crate::mcp::server::tasks::serve::TaskCall;
use crate::mcp::server::wire;
use crate::output::ToolOutput;
use crate::registry::{Entry, Registry, RunPlace};
use crate::tool::TaskSupport;

impl McpServer {
    /// The tool `name` names, if `caller` may see it; the protocol's error (-32602) for a
    /// tool the server does not have or hides from the caller. Everything after this is a
    /// result the model reads (`isError`), so it can correct its call.
    pub(in crate::mcp) fn find<'r>(
        &self,
        registry: &'r Registry,
        name: &str,
        caller: &ToolContext,
    ) -> Result<&'r Entry, ErrorData> {
        match registry.get(name) {
            Some(entry) => self.admit(entry, caller),
            None => Err(unknown_tool(name)),
        }
    }

    /// `entry`, if `caller` may see it; the protocol's error for an unknown tool if not.
    pub(in crate::mcp) fn admit<'r>(&self, entry: &'r Entry, caller: &ToolContext) -> Result<&'r Entry, ErrorData> {
        if !self.filters() || self.visible(entry, caller) { Ok(entry) } else { Err(unknown_tool(entry.name())) }
    }

    /// A session's `tools/call`: run now, or as a task when the tool and the client allow.
    pub(in crate::mcp) async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The registry served now, read once: the call finishes with it whatever changes.
        let registry = self.registry();
        let mut context = context;
        let caller = caller(&mut context);
        let entry = match self.find(&registry, &request.name, &caller) {
            Ok(entry) => entry,
            Err(error) => {
                return match self.unknown_result(&registry, &request.name, &caller) {
                    Some(result) => Ok(CallToolResponse::Complete(result)),
                    None => Err(error),
                };
            }
        };
        // The server decides per call; the client must have declared the extension.
        let declared = context.client_capabilities().is_some_and(|c| c.supports_tasks());
        match entry.task_support() {
            TaskSupport::Optional | TaskSupport::Required if declared => {
                let created = self.start_task(&registry, entry, request, &context, caller, (None, None)).await?;
                return Ok(CallToolResponse::Task(created));
            }
            // 2025-11-25 tasks are asked for per call (`tasks/era.rs` starts those).
            TaskSupport::Required if context.protocol_version() == Some(ProtocolVersion::V_2025_11_25) => {
                return Err(ErrorData::new(
                    rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                    format!("Tool {} runs only as a task: call it with params.task", request.name),
                    None,
                ));
            }
            TaskSupport::Required => {
                return Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                ));
            }
            _ => {}
        }
        let version = context.protocol_version();
        let span = call_span(
            &request.name,
            &context.id,
            version.as_ref().map(ProtocolVersion::as_str),
            caller.http_request().is_some(),
        );
        if !span.is_disabled() {
            crate::telemetry::continue_trace(&span, &*context.meta);
        }
        // Started inside the span, so the tool's `execute_tool` span is its child; an
        // `isError` answer records `error.type = tool_error`.
        let run = || self.run(&registry, entry, request, context, caller);
        crate::telemetry::traced(span, run, |span, answer| match answer {
            Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
                span.record("error.type", "tool_error");
            }
            Err(error) => {
                span.record("error.type", error.code.0.to_string());
            }
            Ok(_) => {}
        })
        .await
    }

    /// Runs a call with a context of its own: the request id, the registry's state, a host
    /// for progress, logs, sampling and elicitation, cancellation from
    /// `notifications/cancelled`; from 2026-07-28, rounds of input.
    async fn run(
        &self,
        registry: &Arc<Registry>,
        entry: &Entry,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        caller: ToolContext,
    ) -> Result<CallToolResponse, ErrorData> {
        // From 2026-07-28 a request carries its revision in `_meta`, and a server may no
        // longer send requests of its own.
        let stateless = context.meta.protocol_version().is_some_and(|version| !version.has_initialize());
        let rounds = stateless
            .then(|| Arc::new(Rounds::new(request.request_state.as_deref(), request.input_responses.as_ref())));
        let logging = self.logging(&context, stateless);
        let outbox = Outbox::new(&context.peer, context.protocol_version());
        let host = Arc::new(McpHost::new(
            context.peer.clone(),
            context.meta.get_progress_token(),
            logging,
            capabilities_of(context.client_capabilities().as_ref()),
            Arc::clone(&outbox),
            rounds.clone(),
        ));
        let cancellation = CancellationToken::new();
        let call_context = caller
            .with_state(Arc::clone(registry.state()))
            .with_call_id(context.id.to_string())
            .with_cancellation(cancellation.clone())
            .with_host(Arc::clone(&host) as Arc<dyn crate::context::Host>);
        let call = start(registry, entry, call_context, Value::Object(request.arguments.unwrap_or_default()));
        // rmcp cancels the request's token on `notifications/cancelled`: the tool hears of it
        // through its own token and still finishes its call.
        let cancelled_by_client = async {
            context.ct.cancelled().await;
            cancellation.cancel();
            core::future::pending::<()>().await;
        };
        let input_required = async {
            match &rounds {
                Some(rounds) => rounds.blocked().await,
                None => core::future::pending().await,
            }
        };
        let outcome = tokio::select! {
            outcome = call => Some(outcome),
            () = input_required => None,
            () = cancelled_by_client => None,
        };
        outbox.flush().await;
        let required = host.take_required();
        if !required.is_empty() {
            return Err(wire::url_elicitation_required(&required));
        }
        Ok(match (outcome, rounds) {
            (Some(outcome), _) => {
                let mut result = self.result(&outcome);
                revision::call_result(&mut result, context.protocol_version().as_ref());
                result.into()
            }
            (None, Some(rounds)) => match rounds.input_required() {
                Ok(input_required) => input_required.into(),
                Err(error) => wire::error_result(&format!("the input request could not be formed: {error}")).into(),
            },
            // A call cannot stop for input without rounds; kept as a result rather than a panic.
            (None, None) => wire::error_result("the call stopped without a result").into(),
        })
    }

    /// Starts a call as a task: answered at once, run in the background; `era_2025` is the
    /// time to live the client asked for and its session, for a 2025-11-25 task.
    pub(in crate::mcp) async fn start_task(
        &self,
        registry: &Arc<Registry>,
        entry: &Entry,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        caller: ToolContext,
        era_2025: (Option<core::time::Duration>, Option<rmcp::Peer<RoleServer>>),
    ) -> Result<rmcp::model::CreateTaskResult, ErrorData> {
        let stateless = context.meta.protocol_version().is_some_and(|version| !version.has_initialize());
        let task_call = TaskCall {
            capabilities: capabilities_of(context.client_capabilities().as_ref()),
            logging: self.logging(context, stateless),
            owner: caller.claims().map(crate::mcp::server::tasks::serve::owner),
            context: caller.with_state(Arc::clone(registry.state())),
            error_text: self.error_text(),
            ttl: era_2025.0,
            forward: era_2025.1,
        };
        let arguments = Arguments::Value(Value::Object(request.arguments.unwrap_or_default()));
        let (registry, entry) = (Arc::clone(registry), entry.clone());
        // Not on this task: the heartbeat shares it.
        self.tasks()
            .start(task_call, move |context| registry.start_call(&entry, context, arguments, RunPlace::Pool))
            .await
    }
}

/// A tool the server does not have, or hides from the caller (-32602).
fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Unknown tool: {name}"), None)
}

/// Runs one call through the registry's call path, as the only work of this request's task:
/// a plain fn in place (`block_in_place`; it may block), an `inline` or async one on this
/// task.
pub(in crate::mcp) fn start(
    registry: &Arc<Registry>,
    entry: &Entry,
    context: ToolContext,
    arguments: Value,
) -> ToolFuture<'static> {
    registry.start_call(entry, context, Arguments::Value(arguments), RunPlace::Alone)
}

/// What the call path asks of the server: who sees a tool, how a result and an unknown tool
/// are worded, where log messages go.
impl McpServer {
    /// The result for a call of `name`, which `caller` may not call or the server lacks, if
    /// the server answers those with results ([`McpServer::unknown_tools_as_results`]).
    pub(in crate::mcp) fn unknown_result(
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

    /// A finished call's result, worded as [`McpServer::with_error_text`] says.
    pub(in crate::mcp) fn result(&self, outcome: &Result<ToolOutput, ToolError>) -> CallToolResult {
        match (outcome, &self.shared.error_text) {
            (Err(error), Some(text)) => wire::error_result(&text(error)),
            _ => wire::call_result(outcome),
        }
    }

    /// Whether some callers see fewer tools than others.
    pub(in crate::mcp) fn filters(&self) -> bool {
        self.shared.filter.is_some() || self.shared.hide_unpermitted
    }

    /// Whether `caller` sees `entry`.
    pub(in crate::mcp) fn visible(&self, entry: &Entry, caller: &ToolContext) -> bool {
        if self.shared.hide_unpermitted
            && let Some(claims) = caller.claims()
            && entry.permits(claims).is_err()
        {
            return false;
        }
        self.shared.filter.as_ref().is_none_or(|visible| visible(entry, caller))
    }

    /// Where a call's log messages go: the request's own level from 2026-07-28 (a stateless
    /// request), the session's before.
    pub(in crate::mcp) fn logging(&self, context: &RequestContext<RoleServer>, stateless: bool) -> Logging {
        if stateless {
            Logging::Request(context.meta.log_level().map(wire::log_level))
        } else {
            Logging::Session(Arc::clone(&self.session.log_level))
        }
    }
}

/// The server span of a `tools/call`, in the OpenTelemetry MCP conventions: `tools/call
/// {tool}` (`otel.name`), kind server, with the method, the JSON-RPC id, the protocol
/// revision, the transport (`tcp` for streamable HTTP, whose requests carry their HTTP
/// parts; `pipe` for stdio), the tool's name, and `error.type = tool_error` for an
/// `isError` result. The tool's own `execute_tool` span is its child.
pub(in crate::mcp) fn call_span(tool: &str, id: &RequestId, version: Option<&str>, http: bool) -> tracing::Span {
    tracing::info_span!(
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        jsonrpc.request.id = %id,
        mcp.protocol.version = version,
        network.transport = if http { "tcp" } else { "pipe" },
        gen_ai.tool.name = %tool,
        gen_ai.operation.name = "execute_tool",
        error.type = tracing::field::Empty,
    )
}
