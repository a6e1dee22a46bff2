//! [`RemoteServer`] (feature `mcp-client`): another MCP server's tools in a local
//! [`Registry`], as `mcp_<server>_<tool>`, through rmcp's client over stdio (a child
//! process) or streamable HTTP. Each call is validated against the tool's input schema before
//! it leaves the process, and its structured result against the tool's output schema when it
//! states one (see [`DynamicTool::new`]). Each call is forwarded; the remote server's progress reaches
//! the call's context, a cancelled call is cancelled remotely, and a server that went away
//! gives error results, never a hung run.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientRequest, ProgressNotificationParam, Request, ServerResult,
    Tool,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, Peer, RoleClient, ServiceExt as _};
use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::error::RegistryError;
use crate::error::ToolError;
use crate::mcp::client::auth::{Authorized, TokenSource};
use crate::mcp::client::progress::{Counting, Tracker};
use crate::output::ToolOutput;
use crate::registry::Registry;
use crate::tool::Annotations;
use crate::tool::dynamic::DynamicTool;

/// The client side of a connection: routes the server's progress to the calls.
#[derive(Clone, Default)]
struct Forwarder {
    tracker: Arc<Tracker>,
}

impl ClientHandler for Forwarder {
    async fn on_progress(&self, params: ProgressNotificationParam, _: NotificationContext<RoleClient>) {
        self.tracker.report(&params);
    }
}

/// Why a remote server could not be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum RemoteError {
    /// Starting or reaching the server failed, or the handshake did.
    Connect(String),
    /// Listing its tools failed.
    List(String),
    /// A tool could not be added to the registry.
    Registry(RegistryError),
}

impl core::fmt::Display for RemoteError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RemoteError::Connect(message) => write!(f, "cannot connect to the MCP server: {message}"),
            RemoteError::List(message) => write!(f, "cannot list the MCP server's tools: {message}"),
            RemoteError::Registry(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for RemoteError {}

/// A connection to another MCP server.
pub struct RemoteServer {
    name: String,
    /// `mcp:<name>`, its label as a tool source.
    label: String,
    service: RunningService<RoleClient, Forwarder>,
    tracker: Arc<Tracker>,
}

impl core::fmt::Debug for RemoteServer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RemoteServer").field("name", &self.name).finish_non_exhaustive()
    }
}

impl RemoteServer {
    /// Starts `command` and speaks MCP on its stdin and stdout; `name` prefixes its tools.
    ///
    /// # Errors
    /// [`RemoteError::Connect`] when it does not start or does not complete the handshake.
    pub async fn stdio(name: impl Into<String>, command: tokio::process::Command) -> Result<Self, RemoteError> {
        let transport = TokioChildProcess::new(command).map_err(|e| RemoteError::Connect(e.to_string()))?;
        Self::connect(name.into(), transport).await
    }

    /// Connects to a streamable HTTP endpoint (`http://127.0.0.1:8080/mcp`).
    ///
    /// # Errors
    /// [`RemoteError::Connect`] when the handshake fails.
    pub async fn http(name: impl Into<String>, url: impl Into<String>) -> Result<Self, RemoteError> {
        let url: String = url.into();
        Self::connect(name.into(), StreamableHttpClientTransport::from_uri(url)).await
    }

    /// Connects to a streamable HTTP endpoint that requires a token: every request carries
    /// the one `tokens` gives for `url` at that moment (see [`TokenSource`]).
    ///
    /// # Errors
    /// [`RemoteError::Connect`] when no token can be had or the handshake fails.
    pub async fn http_authorized(
        name: impl Into<String>,
        url: impl Into<String>,
        tokens: impl TokenSource,
    ) -> Result<Self, RemoteError> {
        let url: Arc<str> = Arc::from(url.into());
        let client = Authorized { inner: reqwest::Client::new(), source: Arc::new(tokens), resource: Arc::clone(&url) };
        let config = StreamableHttpClientTransportConfig::with_uri(url);
        Self::connect(name.into(), StreamableHttpClientTransport::with_client(client, config)).await
    }

    async fn connect<T, E, A>(name: String, transport: T) -> Result<Self, RemoteError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let forwarder = Forwarder::default();
        let tracker = Arc::clone(&forwarder.tracker);
        let transport = Counting { inner: transport.into_transport(), tracker: Arc::clone(&tracker) };
        let service = forwarder.serve(transport).await.map_err(|e| RemoteError::Connect(e.to_string()))?;
        Ok(RemoteServer { label: format!("mcp:{name}"), name, service, tracker })
    }

    /// The server's tools, each as `mcp_<server>_<tool>` (characters providers refuse become
    /// `_`), ready to merge into another registry or to use alone. A tool whose input or
    /// output schema is not usable (not JSON Schema, a pattern that is not ECMA-262, a
    /// reference outside it) is left out with a warning naming it and why (`tracing`), so
    /// that the server's other tools still serve.
    ///
    /// # Errors
    /// [`RemoteError::List`] when the listing fails; [`RemoteError::Registry`] when two
    /// tools end up with one name.
    pub async fn registry(&self) -> Result<Registry, RemoteError> {
        let tools = self.service.peer().list_all_tools().await.map_err(|e| RemoteError::List(e.to_string()))?;
        let mut registry = Registry::new();
        for tool in tools {
            let local = local_name(&self.name, &tool.name);
            match self.forwarding(&local, tool) {
                Ok(dynamic) => {
                    registry.add_dynamic(dynamic).map_err(RemoteError::Registry)?;
                }
                Err(error) => {
                    tracing::warn!(server = %self.name, tool = %local, %error, "a tool of an MCP server is left out");
                }
            }
        }
        Ok(registry)
    }

    /// Closes the connection (and stops a child process).
    pub async fn close(mut self) {
        let _ = self.service.close().await;
    }

    fn forwarding(&self, local: &str, tool: Tool) -> Result<DynamicTool, RemoteError> {
        let peer = self.service.peer().clone();
        let tracker = Arc::clone(&self.tracker);
        let remote: Arc<str> = Arc::from(tool.name.as_ref());
        let tool_name: Arc<str> = Arc::from(local);
        let schema = Value::Object((*tool.input_schema).clone()).to_string();
        let description = tool.description.as_deref().unwrap_or_default().to_owned();
        let handler = move |context: ToolContext, arguments: Map<String, Value>| {
            forward(peer.clone(), Arc::clone(&tracker), Arc::clone(&remote), Arc::clone(&tool_name), context, arguments)
        };
        let mut dynamic = DynamicTool::new(local, description, &schema, handler).map_err(RemoteError::Registry)?;
        if let Some(output) = &tool.output_schema {
            // The server MUST answer in it, and a client SHOULD check (MCP `tools`).
            let output = Value::Object((**output).clone()).to_string();
            dynamic = dynamic.with_output_schema(&output).map_err(RemoteError::Registry)?;
        }
        if let Some(title) = tool.title.clone().or_else(|| tool.annotations.as_ref().and_then(|a| a.title.clone())) {
            dynamic = dynamic.with_title(title);
        }
        if let Some(hints) = &tool.annotations {
            let mut annotations = Annotations::new();
            annotations.read_only = hints.read_only_hint;
            annotations.destructive = hints.destructive_hint;
            annotations.idempotent = hints.idempotent_hint;
            annotations.open_world = hints.open_world_hint;
            dynamic = dynamic.with_annotations(annotations);
        }
        Ok(dynamic)
    }
}

/// Its tools, listed anew each time a run resolves its tools (`tools/list`), labelled
/// `mcp:<name>`.
impl crate::registry::ToolSource for RemoteServer {
    fn label(&self) -> &str {
        &self.label
    }

    fn tools(&self) -> crate::registry::SourceFuture<'_> {
        Box::pin(
            async move { self.registry().await.map_err(|error| crate::registry::SourceError::new(error.to_string())) },
        )
    }
}

/// `mcp_<server>_<tool>`, within the name rule every provider accepts.
fn local_name(server: &str, tool: &str) -> String {
    crate::tool::name::qualified("mcp", server, tool, 64)
}

/// One forwarded call.
async fn forward(
    peer: Peer<RoleClient>,
    tracker: Arc<Tracker>,
    remote: Arc<str>,
    tool: Arc<str>,
    context: ToolContext,
    arguments: Map<String, Value>,
) -> Result<ToolOutput, ToolError> {
    let span = client_span(&remote);
    let mut params = CallToolRequestParams::new(remote.to_string()).with_arguments(arguments);
    if !span.is_disabled() {
        crate::telemetry::inject(&span, &mut **params.meta.get_or_insert_default());
    }
    let outcome = tracing::Instrument::instrument(send(peer, tracker, &tool, params, context), span.clone()).await;
    if let Err(error) = &outcome {
        span.record("error.type", error.kind());
    }
    outcome
}

/// The client span of a forwarded call, in the OpenTelemetry MCP conventions: `tools/call
/// {tool}` (the remote name), kind client; its context travels in the request's `_meta`.
fn client_span(remote: &str) -> tracing::Span {
    tracing::info_span!(
        "tools/call",
        otel.name = %format_args!("tools/call {remote}"),
        otel.kind = "client",
        mcp.method.name = "tools/call",
        gen_ai.tool.name = remote,
        gen_ai.operation.name = "execute_tool",
        error.type = tracing::field::Empty,
    )
}

async fn send(
    peer: Peer<RoleClient>,
    tracker: Arc<Tracker>,
    tool: &str,
    params: CallToolRequestParams,
    context: ToolContext,
) -> Result<ToolOutput, ToolError> {
    let failed = |message: String| ToolError::Failed { tool: tool.to_string(), message };
    let request = ClientRequest::CallToolRequest(Request::new(params));
    let handle = peer
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .map_err(|e| failed(format!("the MCP server could not be reached: {e}")))?;
    let token = handle.progress_token.clone();
    let id = handle.id.clone();
    tracker.listen(token.clone(), context.clone());
    let answer = tokio::select! {
        answer = handle.rx => Some(answer),
        () = context.cancelled() => None,
    };
    // The progress the server sent before its answer was counted as it was read; wait until
    // it has all been handled before the call stops listening.
    tracker.settle(&token).await;
    let Some(answer) = answer else {
        let notice = CancelledNotificationParam::new(Some(id), Some("the caller cancelled the call".to_owned()));
        let _ = peer.notify_cancelled(notice).await;
        return Err(ToolError::Cancelled { tool: tool.to_string() });
    };
    match answer {
        Ok(Ok(ServerResult::CallToolResult(result))) => {
            let wire = serde_json::to_value(&result).map_err(|e| failed(e.to_string()))?;
            let blocks: Vec<_> = wire
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(crate::provider::mcp_json::content_from)
                .collect();
            let mut output = ToolOutput::new(blocks);
            if result.is_error == Some(true) {
                return Err(failed(output.to_text().into_owned()));
            }
            if let Some(structured) = result.structured_content {
                output = output.with_structured(structured);
            }
            Ok(output)
        }
        Ok(Ok(_)) => Err(failed("the MCP server answered with something other than a tool result".to_owned())),
        Ok(Err(error)) => Err(failed(format!("the MCP server refused the call: {error}"))),
        Err(_) => Err(failed("the MCP server went away before answering".to_owned())),
    }
}
