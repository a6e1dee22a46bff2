//! 2025-11-25 tasks beside the extension, chosen by the negotiated revision. rmcp 3.11 models
//! only the 2026-07-28 extension: its handler would refuse 2025-11-25's `CreateTaskResult`
//! (a task the extension did not ask for), and has no shape for that revision's `tasks/get`
//! and `tasks/cancel` answers, a tool's `execution.taskSupport` or the server's
//! `capabilities.tasks`. In a 2025-11-25 session, the session's transport ([`Answers`])
//! therefore hands `tasks/get`, `tasks/cancel`, `tools/list` and a task-augmented
//! `tools/call` to the handler as the custom requests they are in that revision, answered
//! here ([`McpServer::answer_2025`]) with their extensions (`_meta`, the caller) intact,
//! and words `initialize`'s answer. The task a client asks for arrives through
//! `transport/kept.rs`.

use core::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientJsonRpcMessage, ClientRequest, CustomRequest, CustomResult,
    GetExtensions as _, GetMeta as _, InitializeResult, ProtocolVersion, ServerJsonRpcMessage, ServerResult,
    TASKS_EXTENSION_ID,
};
use rmcp::service::RequestContext;
use rmcp::transport::Transport;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use crate::mcp::McpServer;
use crate::mcp::server::handler::task_caller;
use crate::mcp::server::traced::{Target, answer_in, request_span};
use crate::mcp::transport::kept::TASK;
use crate::tool::TaskSupport;

/// The methods a 2025-11-25 session's transport hands over as custom requests, with the two
/// that are custom requests anyway.
const METHODS: [&str; 6] = ["tools/call", "tools/list", "tasks/get", "tasks/cancel", "tasks/result", "tasks/list"];

impl McpServer {
    /// The answer to `request` when it is one of 2025-11-25's task requests in a 2025-11-25
    /// session; `Err(request)` back otherwise.
    pub(in crate::mcp) async fn answer_2025(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<Result<CustomResult, ErrorData>, CustomRequest> {
        if context.protocol_version() != Some(ProtocolVersion::V_2025_11_25)
            || !METHODS.contains(&request.method.as_str())
        {
            return Err(request);
        }
        let params = request.params.unwrap_or_else(|| json!({}));
        let method = request.method.as_str();
        let answer = match method {
            "tools/call" => self.call_2025(params, context).await,
            "tools/list" => {
                let span = request_span(method, Target::None, &context);
                answer_in(span, async { Ok(self.with_execution(self.list_tools_for(context))) }).await
            }
            _ => {
                let span = request_span(method, Target::None, &context);
                let tasks = self.tasks();
                let owner = task_caller(context);
                let owner = owner.as_deref();
                answer_in(span, async {
                    match method {
                        "tasks/list" => tasks.list_2025(params.get("cursor").and_then(Value::as_str), owner).await,
                        "tasks/get" => tasks.get_2025(&task_id(&params)?, owner).await,
                        "tasks/cancel" => tasks.cancel_2025(&task_id(&params)?, owner).await,
                        _ => tasks.result_2025(&task_id(&params)?, owner).await,
                    }
                })
                .await
            }
        };
        Ok(answer.map(CustomResult))
    }

    /// A 2025-11-25 `tools/call`: as a task when the client asked for one and the server
    /// runs tasks (`CreateTaskResult`, or -32601 for a tool that does not run as one), as a
    /// plain call otherwise.
    async fn call_2025(&self, params: Value, context: RequestContext<RoleServer>) -> Result<Value, ErrorData> {
        let request: CallToolRequestParams = serde_json::from_value(params)
            .map_err(|e| ErrorData::invalid_params(format!("Invalid params for tools/call: {e}"), None))?;
        let asked = context.meta.get(TASK).cloned();
        let Some(asked) = asked.filter(|_| self.offers_tasks()) else {
            // Plain, as the handler calls it; a call answers with a result here.
            return match self.call(request, context).await? {
                CallToolResponse::Complete(result) => serde_json::to_value(result),
                other => serde_json::to_value(ServerResult::from(other)),
            }
            .map_err(|e| ErrorData::internal_error(e.to_string(), None));
        };
        let span = crate::mcp::server::call::call_span(&request.name, &context.id, Some("2025-11-25"), false);
        let registry = self.registry();
        let mut context = context;
        let caller = crate::mcp::server::caller(&mut context);
        let entry = self.find(&registry, &request.name, &caller)?;
        if entry.task_support() == TaskSupport::Forbidden {
            let message = format!("Tool {} does not run as a task: call it without params.task", request.name);
            return Err(ErrorData::new(rmcp::model::ErrorCode::METHOD_NOT_FOUND, message, None));
        }
        let ttl = asked.get("ttl").and_then(Value::as_u64).map(Duration::from_millis);
        let peer = Some(context.peer.clone());
        let started = self.start_task(&registry, entry, request, &context, caller, (ttl, peer));
        let created = answer_in(span, started).await?;
        let task = rmcp::model::DetailedTask::new(created.task, rmcp::model::TaskPayload::Working);
        Ok(json!({"task": crate::mcp::server::tasks::v2025::task_json(&task)}))
    }

    /// Whether the server runs calls as tasks (a tool may be one, or it was told to).
    pub(in crate::mcp) fn offers_tasks(&self) -> bool {
        self.shared.tasks_declared || self.shared.live.current().tasks
    }

    /// A tool list with each tool's `execution.taskSupport`, when it may run as a task.
    fn with_execution(&self, listed: rmcp::model::ListToolsResult) -> Value {
        let mut listed = ServerResult::ListToolsResult(listed);
        listed.strip_result_type_for_legacy_peer();
        let mut wire = serde_json::to_value(listed).unwrap_or_default();
        let registry = self.registry();
        for tool in wire.get_mut("tools").and_then(Value::as_array_mut).into_iter().flatten() {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            let support = match registry.get(name).map(crate::registry::Entry::task_support) {
                Some(TaskSupport::Optional) => "optional",
                Some(TaskSupport::Required) => "required",
                _ => continue,
            };
            tool["execution"] = json!({"taskSupport": support});
        }
        wire
    }
}

/// The `taskId` a request names (-32602 without one).
fn task_id(params: &Value) -> Result<String, ErrorData> {
    params
        .get("taskId")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ErrorData::invalid_params("Invalid params: \"taskId\" is required and must be a string", None))
}

/// A session's transport, in 2025-11-25 terms once that revision is negotiated: the
/// `initialize` answer worded for its tasks ([`initialize_answer`]), and its task requests
/// handed over as custom ones ([`handed_over`]). Every other message passes as it is.
/// A client that declared the extension keeps it, in any revision.
pub(in crate::mcp) struct Answers<T> {
    inner: T,
    revision: Option<ProtocolVersion>,
    /// Whether the client declared the tasks extension.
    extension: bool,
}

impl<T> Answers<T> {
    pub(in crate::mcp) fn new(inner: T) -> Self {
        Answers { inner, revision: None, extension: false }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Answers<T> {
    type Error = T::Error;

    fn send(&mut self, item: ServerJsonRpcMessage) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let ServerJsonRpcMessage::Response(response) = &item
            && let ServerResult::InitializeResult(result) = &response.result
        {
            self.revision = Some(result.protocol_version.clone());
        }
        self.inner.send(initialize_answer(item, self.extension))
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        let message = self.inner.receive().await?;
        if let ClientJsonRpcMessage::Request(request) = &message
            && let ClientRequest::InitializeRequest(initialize) = &request.request
        {
            self.extension = initialize.params.capabilities.supports_tasks();
        }
        let era = self.revision == Some(ProtocolVersion::V_2025_11_25) && !self.extension;
        Some(if era { handed_over(message) } else { message })
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// `message` as the custom request it is in 2025-11-25, when rmcp read it as the
/// extension's (`tasks/get`, `tasks/cancel`), when it is `tools/list`, or a `tools/call` that
/// asks for a task; its id and extensions (`_meta`, the HTTP request, the caller) kept.
fn handed_over(message: ClientJsonRpcMessage) -> ClientJsonRpcMessage {
    let ClientJsonRpcMessage::Request(mut request) = message else { return message };
    let hand_over = match &request.request {
        ClientRequest::GetTaskRequest(_) | ClientRequest::CancelTaskRequest(_) | ClientRequest::ListToolsRequest(_) => {
            true
        }
        ClientRequest::CallToolRequest(_) => request.request.get_meta().contains_key(TASK),
        _ => false,
    };
    if !hand_over {
        return ClientJsonRpcMessage::Request(request);
    }
    let Ok(wire) = serde_json::to_value(&request.request) else { return ClientJsonRpcMessage::Request(request) };
    let method = wire.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut custom = CustomRequest::new(method, wire.get("params").cloned());
    custom.extensions = core::mem::take(request.request.extensions_mut());
    request.request = ClientRequest::CustomRequest(custom);
    ClientJsonRpcMessage::Request(request)
}

/// `message`, when it is a 2025-11-25 `initialize` answer of a server that runs tasks, with
/// that revision's `capabilities.tasks` in place of the extension (which 2025-11-25 does not
/// define; `revision.rs` keeps its entry for this).
pub(in crate::mcp) fn initialize_answer(message: ServerJsonRpcMessage, extension: bool) -> ServerJsonRpcMessage {
    match message {
        ServerJsonRpcMessage::Response(mut response) => {
            if let ServerResult::InitializeResult(result) = &response.result
                && result.protocol_version == ProtocolVersion::V_2025_11_25
            {
                response.result = ServerResult::CustomResult(CustomResult(tasks_declared(result, extension)));
            }
            ServerJsonRpcMessage::Response(response)
        }
        other => other,
    }
}

/// `result` as JSON, with `capabilities.tasks` when the server runs tasks; the extension's
/// entry stays only for a client that declared the extension.
fn tasks_declared(result: &InitializeResult, extension: bool) -> Value {
    let mut wire = serde_json::to_value(result).unwrap_or_default();
    let capabilities = &mut wire["capabilities"];
    let had_tasks = capabilities
        .get("extensions")
        .and_then(Value::as_object)
        .is_some_and(|extensions| extensions.contains_key(TASKS_EXTENSION_ID));
    if let Some(fields) = capabilities.as_object_mut() {
        if !extension {
            fields.remove("extensions");
        }
        if had_tasks {
            fields.insert("tasks".to_owned(), json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}));
        }
    }
    wire
}
