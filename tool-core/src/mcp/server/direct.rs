//! A session's `tools/call` answered on its HTTP request's own task.
//!
//! rmcp routes every request of a 2025-era session through the session's worker: a
//! channel opened to it for the reply, the message pushed to it, a task spawned for the
//! handler, the reply routed back: four hand-offs between tasks, a large part of a call's
//! round trip on loopback (`docs/performance.md`). A call that needs nothing the session
//! holds skips them:
//! [`Sessions`] wraps rmcp's session manager and answers such a call where rmcp asks for
//! the request's stream, after rmcp has checked everything it checks of an HTTP request
//! (`Host`, `Origin`, media types, the session, the protocol header).
//!
//! What a call needs of the session is its peer (progress, logs, sampling, elicitation),
//! its log level, the capabilities the client declared (tasks), and the worker's
//! bookkeeping of request ids (cancellation, resumption). A `#[tool]` whose fn takes no
//! `ToolContext` uses none of them, unless it may become a task; every other call goes to
//! the worker as before. The answer is the message the worker would send, with the same
//! span, filter, scopes and layers, sent as `application/json` ([`JsonReply`]) rather than
//! an event stream: it is whole by the time anything is sent, so nothing is left to stream
//! or to resume.

use core::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use futures_util::StreamExt as _;
use futures_util::stream::{self, Stream};
use rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, Extensions, GetPromptRequest, JsonRpcRequest,
    ProtocolVersion, ReadResourceRequest, RequestId, RequestMetaObject, ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::common::server_side_http::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{EventStore, RestoreOutcome, SessionId, SessionManager};
use serde_json::Value;

use crate::context::ToolContext;
use crate::mcp::McpServer;
use crate::mcp::server::call::{call_span, start};
use crate::mcp::server::caller_of;
use crate::mcp::server::client::client_of;
use crate::mcp::server::revision;
use crate::mcp::server::tasks::era::Answers;
use crate::mcp::server::traced::{Request, Target, answer_in, span_of};
use crate::registry::{Entry, Registry};
use crate::tool::TaskSupport;

/// rmcp's local session manager, with the calls that need no session answered here.
pub(in crate::mcp) struct Sessions {
    inner: LocalSessionManager,
    server: McpServer,
}

impl Sessions {
    pub(in crate::mcp) fn new(inner: LocalSessionManager, server: McpServer) -> Self {
        Sessions { inner, server }
    }
}

impl SessionManager for Sessions {
    type Error = <LocalSessionManager as SessionManager>::Error;
    /// Each session's transport speaks 2025-11-25 tasks (`tasks/era.rs`).
    type Transport = Answers<<LocalSessionManager as SessionManager>::Transport>;

    fn create_session(&self) -> impl Future<Output = Result<(SessionId, Self::Transport), Self::Error>> + Send {
        let created = self.inner.create_session();
        async move { created.await.map(|(id, transport)| (id, Answers::new(transport))) }
    }

    fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<ServerJsonRpcMessage, Self::Error>> + Send {
        self.inner.initialize_session(id, message)
    }

    fn has_session(&self, id: &SessionId) -> impl Future<Output = Result<bool, Self::Error>> + Send {
        self.inner.has_session(id)
    }

    fn close_session(&self, id: &SessionId) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close_session(id)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let message = match message {
            ClientJsonRpcMessage::Request(JsonRpcRequest {
                id,
                request: ClientRequest::ReadResourceRequest(read),
                ..
            }) if sessionless(
                &read.extensions,
                read.params.meta.as_ref(),
                read.params.input_responses.is_none() && read.params.request_state.is_none(),
            ) =>
            {
                let slot = JsonReply::in_request(&read.extensions);
                return Ok(stream::iter(sent(slot, answer_read(&self.server, id, read).await)).left_stream());
            }
            ClientJsonRpcMessage::Request(JsonRpcRequest {
                id, request: ClientRequest::GetPromptRequest(get), ..
            }) if sessionless(
                &get.extensions,
                get.params.meta.as_ref(),
                get.params.input_responses.is_none() && get.params.request_state.is_none(),
            ) =>
            {
                let slot = JsonReply::in_request(&get.extensions);
                return Ok(stream::iter(sent(slot, answer_prompt(&self.server, id, get).await)).left_stream());
            }
            other => other,
        };
        // The registry served now, read once: the call finishes with it whatever changes.
        let registry = self.server.registry();
        let entry = match &message {
            ClientJsonRpcMessage::Request(JsonRpcRequest { request: ClientRequest::CallToolRequest(call), .. }) => {
                needs_no_session(&registry, call)
            }
            _ => None,
        };
        match (message, entry) {
            (
                ClientJsonRpcMessage::Request(JsonRpcRequest {
                    id: request_id,
                    request: ClientRequest::CallToolRequest(call),
                    ..
                }),
                Some(entry),
            ) => {
                let slot = JsonReply::in_request(&call.extensions);
                let reply = answer(&self.server, &registry, entry, request_id, call).await;
                Ok(stream::iter(sent(slot, reply)).left_stream())
            }
            (message, _) => Ok(self.inner.create_stream(id, message).await?.right_stream()),
        }
    }

    fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.accept_message(id, message)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.resume(id, last_event_id).await
    }

    fn restore_session(
        &self,
        id: SessionId,
    ) -> impl Future<Output = Result<RestoreOutcome<Self::Transport>, Self::Error>> + Send {
        let restored = self.inner.restore_session(id);
        async move {
            Ok(match restored.await? {
                RestoreOutcome::Restored(transport) => RestoreOutcome::Restored(Answers::new(transport)),
                RestoreOutcome::AlreadyPresent => RestoreOutcome::AlreadyPresent,
                _ => RestoreOutcome::NotSupported,
            })
        }
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

/// Where a reply answered here goes to be sent as `application/json`, which the spec allows
/// for the reply to any request sent by POST, and which costs less to send and to read than an event stream.
/// The endpoint puts one in each session request's extensions and, once rmcp has answered,
/// sends what it holds in place of rmcp's (then empty) event stream.
#[derive(Clone, Default)]
pub(in crate::mcp) struct JsonReply(Arc<Mutex<Option<String>>>);

impl JsonReply {
    /// The slot the endpoint put in the HTTP request whose rmcp `extensions` these are.
    fn in_request(extensions: &Extensions) -> Option<JsonReply> {
        let parts = extensions.get::<axum::http::request::Parts>()?;
        parts.extensions.get::<JsonReply>().cloned()
    }

    /// Keeps `reply` as JSON text; whether it could.
    fn put(&self, reply: &ServerJsonRpcMessage) -> bool {
        let Ok(text) = serde_json::to_string(reply) else { return false };
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(text);
        true
    }

    /// The reply kept, if any.
    pub(in crate::mcp) fn take(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// The tool of `call` when the call needs nothing of its session: a `#[tool]` whose fn takes
/// no context and may not become a task, called in a session of a revision before
/// 2026-07-28, without a round of input or a revision of its own.
fn needs_no_session<'r>(registry: &'r Registry, call: &CallToolRequest) -> Option<&'r Entry> {
    let params = &call.params;
    let no_input = params.input_responses.is_none() && params.request_state.is_none();
    let sessionless = sessionless(&call.extensions, params.meta.as_ref(), no_input);
    registry.get(&params.name).filter(|entry| {
        sessionless
            && entry.def().is_some_and(|def| !def.takes_context())
            && entry.task_support() == TaskSupport::Forbidden
    })
}

/// Whether a request (its rmcp `extensions` and `_meta`) is of a session of a revision
/// before 2026-07-28, without a round of input (`no_input`) or a revision of its own. A
/// `resources/read` or `prompts/get` needs nothing more of its session: its fn is handed
/// the caller and the state alone.
fn sessionless(extensions: &Extensions, meta: Option<&RequestMetaObject>, no_input: bool) -> bool {
    // rmcp keeps a request's `_meta` in its extensions.
    let meta = extensions.get::<RequestMetaObject>().or(meta);
    protocol_version(extensions).is_none_or(|version| version < ProtocolVersion::V_2026_07_28.as_str())
        && no_input
        // A revision named in the request's own `_meta` is rmcp's to negotiate.
        && meta.is_none_or(|meta| meta.protocol_version().is_none())
}

/// `reply` as the endpoint sends it: as JSON when it can be (`slot`), rmcp's event stream then
/// empty; else as the stream's one event.
fn sent(slot: Option<JsonReply>, reply: ServerJsonRpcMessage) -> Option<ServerSseMessage> {
    match slot {
        Some(slot) if slot.put(&reply) => None,
        _ => Some(ServerSseMessage::from_message(reply)),
    }
}

/// The reply to a `resources/read` that is [`sessionless`], as the session's handler gives it.
async fn answer_read(server: &McpServer, id: RequestId, read: ReadResourceRequest) -> ServerJsonRpcMessage {
    let mut read = read;
    let version = protocol_version(&read.extensions).map(ToOwned::to_owned);
    let meta = read.extensions.remove::<RequestMetaObject>().or_else(|| read.params.meta.take());
    let caller = known(server.content_caller_of(&mut read.extensions, &id), meta.as_ref());
    let request = Request {
        method: "resources/read",
        target: Target::Resource(&read.params.uri),
        id: &id,
        version: version.as_deref(),
        http: true,
    };
    let span = span_of(&request, meta.as_deref());
    match answer_in(span, server.read_resource_for(read.params, caller)).await {
        Ok(result) => legacy_response(ServerResult::ReadResourceResult(result), id),
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    }
}

/// The reply to a `prompts/get` that is [`sessionless`], as the session's handler gives it.
async fn answer_prompt(server: &McpServer, id: RequestId, get: GetPromptRequest) -> ServerJsonRpcMessage {
    let mut get = get;
    let version = protocol_version(&get.extensions).map(ToOwned::to_owned);
    let meta = get.extensions.remove::<RequestMetaObject>().or_else(|| get.params.meta.take());
    let caller = known(server.content_caller_of(&mut get.extensions, &id), meta.as_ref());
    let request = Request {
        method: "prompts/get",
        target: Target::Prompt(&get.params.name),
        id: &id,
        version: version.as_deref(),
        http: true,
    };
    let span = span_of(&request, meta.as_deref());
    match answer_in(span, server.get_prompt_for(get.params, caller)).await {
        Ok(result) => legacy_response(ServerResult::GetPromptResult(result), id),
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    }
}

/// The reply to a call of `entry` that [`needs_no_session`], as the worker would give it to
/// a client of a revision before 2026-07-28.
async fn answer(
    server: &McpServer,
    registry: &Arc<Registry>,
    entry: &Entry,
    id: RequestId,
    call: CallToolRequest,
) -> ServerJsonRpcMessage {
    let mut call = call;
    let version = protocol_version(&call.extensions).map(ToOwned::to_owned);
    let meta = call.extensions.remove::<RequestMetaObject>().or_else(|| call.params.meta.take());
    let caller = known(caller_of(&mut call.extensions), meta.as_ref());
    let params = call.params;
    if let Err(error) = server.admit(entry, &caller) {
        return match server.unknown_result(registry, &params.name, &caller) {
            Some(result) => legacy_response(ServerResult::CallToolResult(result), id),
            None => ServerJsonRpcMessage::error(error, Some(id)),
        };
    }
    let span = call_span(&params.name, &id, version.as_deref(), true);
    if let Some(meta) = &meta
        && !span.is_disabled()
    {
        crate::telemetry::continue_trace(&span, &**meta);
    }
    let context = caller.with_state(Arc::clone(registry.state())).with_call_id(id.to_string());
    let arguments = Value::Object(params.arguments.unwrap_or_default());
    let call = || start(registry, entry, context, arguments);
    let outcome = crate::telemetry::traced(span, call, |span, outcome| {
        if outcome.is_err() {
            span.record("error.type", "tool_error");
        }
    })
    .await;
    let mut result = server.result(&outcome);
    // No header is 2025-03-26 (the transport's rule), which has no `structuredContent`.
    let revision = Value::String(version.unwrap_or_else(|| "2025-03-26".to_owned()));
    revision::call_result(&mut result, serde_json::from_value::<ProtocolVersion>(revision).ok().as_ref());
    legacy_response(ServerResult::CallToolResult(result), id)
}

/// `result` as the reply to `id`, as rmcp words a reply for a revision before 2026-07-28.
fn legacy_response(result: ServerResult, id: RequestId) -> ServerJsonRpcMessage {
    let mut result = result;
    result.strip_result_type_for_legacy_peer();
    result.strip_non_object_output_for_legacy_peer();
    ServerJsonRpcMessage::response(result, id)
}

/// The revision the client negotiated, which it repeats in every request's header from
/// 2025-06-18 (rmcp checked that it is one it knows).
fn protocol_version(extensions: &Extensions) -> Option<&str> {
    let parts = extensions.get::<axum::http::request::Parts>()?;
    parts.headers.get("mcp-protocol-version")?.to_str().ok()
}

/// `caller` with its client, as the request's `_meta` names it.
fn known(caller: ToolContext, meta: Option<&RequestMetaObject>) -> ToolContext {
    let client = meta
        .and_then(|meta| client_of(meta.client_info(), meta.client_capabilities().as_ref(), meta.protocol_version()));
    match client {
        Some(client) => caller.with_client(client),
        None => caller,
    }
}
