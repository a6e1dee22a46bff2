//! The server's side of the extension: starting a task for a `tools/call`, and answering
//! `tasks/get`, `tasks/update` and `tasks/cancel` from the store, for tasks this replica
//! runs or another one does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ErrorData;
use rmcp::model::{
    CreateTaskResult, DetailedTask, GetTaskResult, InputResponses, JsonObject, Task, TaskPayload, TaskStatus,
};
use serde_json::json;

use crate::context::ClientCapabilities;
use crate::context::{CancellationToken, ToolContext};
use crate::dispatch::ToolFuture;
use crate::mcp::server::host::Logging;
use crate::mcp::server::tasks::run::{ErrorText, Run, TaskHost, first_record, now_ms};
use crate::tasks::TaskSettings;
use crate::tasks::{TaskRecord, TaskStore};

/// A server's tasks: the store every replica shares, and the tasks running here.
pub(crate) struct Tasks {
    pub(super) store: Arc<dyn TaskStore>,
    pub(super) settings: TaskSettings,
    running: Mutex<HashMap<String, (CancellationToken, Arc<TaskHost>)>>,
}

/// What a new task's call starts from.
pub(crate) struct TaskCall {
    pub(crate) capabilities: ClientCapabilities,
    pub(crate) logging: Logging,
    /// The caller's context, with the registry's state; the task's id, host and cancellation
    /// are added here.
    pub(crate) context: ToolContext,
    pub(crate) error_text: Option<ErrorText>,
    /// Who starts it ([`owner`]), when the call came with a verified token.
    pub(crate) owner: Option<String>,
    /// The time to live the client asked for (2025-11-25's `task.ttl`), kept within the
    /// server's own.
    pub(crate) ttl: Option<core::time::Duration>,
    /// Where the tool's questions go (2025-11-25): to the client's session, tied to the
    /// task; `None` for the extension, which asks through `tasks/get` and `tasks/update`.
    pub(crate) forward: Option<rmcp::Peer<rmcp::RoleServer>>,
}

/// Who a verified token speaks for, as a task records its starter: the issuer and the
/// subject (the client, for a token without one).
pub(crate) fn owner(claims: &crate::auth::Claims) -> String {
    let who = claims.subject.as_deref().or(claims.client_id.as_deref()).unwrap_or_default();
    format!("{} {who}", claims.issuer.as_deref().unwrap_or_default())
}

impl Tasks {
    pub(crate) fn new(store: Arc<dyn TaskStore>, settings: TaskSettings) -> Self {
        Tasks { store, settings, running: Mutex::default() }
    }

    pub(super) fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, (CancellationToken, Arc<TaskHost>)>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Creates a task, starts `call` for it in the background, and answers with the task:
    /// once this returns, `tasks/get` finds it on every replica sharing the store.
    ///
    /// # Errors
    /// An internal error when the store could not create the task; the tool is not called.
    pub(crate) async fn start(
        self: &Arc<Self>,
        task_call: TaskCall,
        call: impl FnOnce(ToolContext) -> ToolFuture<'static>,
    ) -> Result<CreateTaskResult, ErrorData> {
        let id = uuid::Uuid::new_v4().to_string();
        let now = rmcp::task_manager::current_timestamp();
        let mut base = Task::new(id.clone(), TaskStatus::Working, now.clone(), now);
        // A client may ask for less time than the server keeps tasks, never for more; a
        // second at least, so that the task can be read once.
        let ttl = match (task_call.ttl, self.settings.ttl) {
            (Some(asked), Some(kept)) => Some(asked.clamp(core::time::Duration::from_secs(1), kept)),
            (Some(asked), None) => Some(asked.max(core::time::Duration::from_secs(1))),
            (None, kept) => kept,
        };
        base.ttl_ms = ttl.map(|ttl| u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        base.poll_interval_ms = Some(u64::try_from(self.settings.poll_interval.as_millis()).unwrap_or(u64::MAX));
        let mut record =
            first_record(&base, &self.settings).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        record.owner.clone_from(&task_call.owner);
        self.store
            .create(&id, record, ttl)
            .await
            .map_err(|error| ErrorData::internal_error(format!("the task could not be created: {error}"), None))?;
        let forward = task_call.forward.map(|peer| (peer, id.clone()));
        let host = Arc::new(TaskHost::new(task_call.capabilities, task_call.logging, forward));
        let cancellation = CancellationToken::new();
        let context = task_call
            .context
            .with_call_id(id.clone())
            .with_cancellation(cancellation.clone())
            .with_host(Arc::clone(&host) as Arc<dyn crate::context::Host>);
        self.running().insert(id.clone(), (cancellation.clone(), Arc::clone(&host)));
        let run = Run { id: id.clone(), base: base.clone(), host, cancellation, error_text: task_call.error_text };
        let call = call(context);
        let tasks = Arc::clone(self);
        tokio::spawn(async move {
            run.drive(&*tasks.store, &tasks.settings, call).await;
            tasks.running().remove(&id);
        });
        Ok(CreateTaskResult::new(base))
    }

    /// `tasks/get`: the task as its record says, or `failed` when the replica running it
    /// stopped renewing its lease (written back, so every reader sees the same end).
    pub(crate) async fn get(&self, id: &str, caller: Option<&str>) -> Result<GetTaskResult, ErrorData> {
        let record = self.owned(id, caller).await?;
        let task: DetailedTask = serde_json::from_str(&record.state)
            .map_err(|e| ErrorData::internal_error(format!("the task's record is unreadable: {e}"), None))?;
        if task.status().is_terminal() || record.lease_until_ms >= now_ms() {
            return Ok(GetTaskResult::new(task));
        }
        let message = "the server running this task stopped before it finished";
        let error = json!({"code": -32603, "message": message});
        let mut base = task.task;
        base.status_message = Some(message.to_owned());
        base.last_updated_at = rmcp::task_manager::current_timestamp();
        let failed = DetailedTask::new(base, TaskPayload::Failed { error: object(error) });
        if let Ok(state) = serde_json::to_string(&failed) {
            let _ = self.store.save(id, &state, true, record.lease_until_ms).await;
        }
        Ok(GetTaskResult::new(failed))
    }

    /// `tasks/update`: records the client's answers for whichever replica runs the task,
    /// and hands them over at once when it is this one.
    pub(crate) async fn update(
        &self,
        id: &str,
        caller: Option<&str>,
        responses: &InputResponses,
    ) -> Result<(), ErrorData> {
        self.owned(id, caller).await?;
        let texts: Vec<(String, String)> =
            responses.iter().map(|(key, value)| (key.clone(), value.to_string())).collect();
        if !self.store.respond(id, &texts).await.map_err(unavailable)? {
            return Err(unknown(id));
        }
        let host = self.running().get(id).map(|(_, host)| Arc::clone(host));
        if let Some(host) = host {
            host.deliver(responses.iter().map(|(key, value)| (key, value.clone())));
        }
        Ok(())
    }

    /// `tasks/cancel`: records the request for whichever replica runs the task, and
    /// cancels at once when it is this one.
    pub(crate) async fn cancel(&self, id: &str, caller: Option<&str>) -> Result<(), ErrorData> {
        self.owned(id, caller).await?;
        if !self.store.request_cancel(id).await.map_err(unavailable)? {
            return Err(unknown(id));
        }
        if let Some((cancellation, _)) = self.running().get(id) {
            cancellation.cancel();
        }
        Ok(())
    }
}

impl Tasks {
    /// The task `id`, when `caller` may see it: a task started with a verified token is
    /// another caller's unknown task (its existence is not revealed).
    pub(super) async fn owned(&self, id: &str, caller: Option<&str>) -> Result<TaskRecord, ErrorData> {
        let record = self.store.load(id).await.map_err(unavailable)?.ok_or_else(|| unknown(id))?;
        match &record.owner {
            Some(owner) if Some(owner.as_str()) != caller => Err(unknown(id)),
            _ => Ok(record),
        }
    }
}

fn object(value: serde_json::Value) -> JsonObject {
    match value {
        serde_json::Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

pub(super) fn unknown(id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Unknown task: {id} (it never existed, or its time to live ran out)"), None)
}

pub(super) fn unavailable(error: crate::tasks::StoreError) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}
