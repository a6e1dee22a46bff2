//! Running one task: the tool's call in the background, its [`Host`] (progress and logs
//! become the task's status message, sampling and elicitation its input requests), and the
//! heartbeat that renews its lease, hears of `tasks/cancel` and `tasks/update` from any
//! replica, and stops the tool once the task expired.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
use rmcp::model::{
    CallToolResult, CreateMessageResult, DetailedTask, ElicitResult, InputRequest, JsonObject, Task, TaskPayload,
};
use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot};

use crate::context::ClientCapabilities;
use crate::context::{
    CancellationToken, ElicitationAnswer, ElicitationRequest, Host, HostError, HostFuture, LogLevel, LogMessage,
    Progress, SamplingRequest, SamplingResponse,
};
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::mcp::server::host::Logging;
use crate::mcp::server::tasks::asked;
use crate::mcp::server::wire;
use crate::output::ToolOutput;
use crate::tasks::TaskRecord;
use crate::tasks::TaskSettings;
use crate::tasks::TaskStore;

/// Milliseconds since the Unix epoch: leases are compared across machines.
pub(in crate::mcp) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
}

/// The lease a heartbeat now grants.
fn lease_until(settings: &TaskSettings) -> u64 {
    now_ms().saturating_add(u64::try_from(settings.lease.as_millis()).unwrap_or(u64::MAX))
}

/// The host of a task's call, and what the task reports while it runs.
pub(crate) struct TaskHost {
    capabilities: ClientCapabilities,
    logging: Logging,
    state: Mutex<Reported>,
    next_key: AtomicUsize,
    /// Woken when the reported state changed and should be saved.
    changed: Notify,
    /// The client's session and the task's id, when questions go to the client directly
    /// (2025-11-25) rather than through `tasks/update`.
    forward: Option<(rmcp::Peer<rmcp::RoleServer>, String)>,
}

#[derive(Default)]
struct Reported {
    message: Option<String>,
    pending: BTreeMap<String, (InputRequest, oneshot::Sender<Value>)>,
}

impl TaskHost {
    pub(crate) fn new(
        capabilities: ClientCapabilities,
        logging: Logging,
        forward: Option<(rmcp::Peer<rmcp::RoleServer>, String)>,
    ) -> Self {
        TaskHost {
            capabilities,
            logging,
            state: Mutex::default(),
            next_key: AtomicUsize::new(0),
            changed: Notify::new(),
            forward,
        }
    }

    fn reported(&self) -> std::sync::MutexGuard<'_, Reported> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_message(&self, message: String) {
        self.reported().message = Some(message);
        self.changed.notify_one();
    }

    /// Whether the task waits for the client.
    fn waiting(&self) -> bool {
        !self.reported().pending.is_empty()
    }

    /// Hands the client's answers to the requests waiting for them; answers to keys not
    /// (or no longer) asked are ignored, as the extension says.
    pub(crate) fn deliver<'a>(&self, answers: impl IntoIterator<Item = (&'a String, Value)>) {
        let mut delivered = false;
        {
            let mut reported = self.reported();
            for (key, answer) in answers {
                if let Some((_, waiting)) = reported.pending.remove(key) {
                    let _ = waiting.send(answer);
                    delivered = true;
                }
            }
        }
        if delivered {
            self.changed.notify_one();
        }
    }

    /// The task as `tasks/get` answers it while it runs.
    fn detailed(&self, base: &Task) -> DetailedTask {
        let reported = self.reported();
        let mut task = base.clone();
        task.status_message.clone_from(&reported.message);
        task.last_updated_at = rmcp::task_manager::current_timestamp();
        let payload = if reported.pending.is_empty() {
            TaskPayload::Working
        } else {
            let input_requests = reported.pending.iter().map(|(key, (request, _))| (key.clone(), request.clone()));
            TaskPayload::InputRequired { input_requests: input_requests.collect() }
        };
        DetailedTask::new(task, payload)
    }

    /// Asks the client `request` (`{"method":..,"params":..}`) and waits for its answer:
    /// through `tasks/update` (the extension), or sent to the client tied to the task
    /// (2025-11-25). Either way the task is `input_required` meanwhile.
    async fn ask(&self, request: Value) -> Result<Value, HostError> {
        let input: InputRequest = serde_json::from_value(request.clone())
            .map_err(|e| HostError::Failed { message: format!("the input request could not be formed: {e}") })?;
        let key = format!("input-{}", self.next_key.fetch_add(1, Ordering::Relaxed));
        let (sender, answer) = oneshot::channel();
        self.reported().pending.insert(key.clone(), (input, sender));
        self.changed.notify_one();
        let Some((peer, task_id)) = &self.forward else {
            return answer
                .await
                .map_err(|_| HostError::Failed { message: "the task ended before the client answered".into() });
        };
        let method = request["method"].as_str().unwrap_or_default();
        let mut params = request.get("params").cloned().unwrap_or_else(|| json!({}));
        asked::relate(&mut params, task_id);
        let answered = asked::ask(peer, method, params, asked::runs_as_task(self.capabilities, method)).await;
        self.reported().pending.remove(&key);
        self.changed.notify_one();
        answered
    }
}

impl Host for TaskHost {
    fn progress(&self, progress: &Progress) {
        let done = match progress.total {
            Some(total) => format!("{}/{total}", progress.progress),
            None => progress.progress.to_string(),
        };
        self.set_message(match &progress.message {
            Some(message) => format!("{message} ({done})"),
            None => done,
        });
    }

    fn log_enabled(&self, level: LogLevel) -> bool {
        self.logging.enabled(level)
    }

    fn log(&self, message: LogMessage) {
        self.set_message(match message.data {
            Value::String(text) => text,
            other => other.to_string(),
        });
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
    fn sample(&self, request: SamplingRequest) -> HostFuture<'_, SamplingResponse> {
        Box::pin(async move {
            if !self.capabilities.sampling {
                return Err(HostError::Unsupported { capability: "sampling" });
            }
            let params = wire::sampling_params(&request)?;
            let answer = self.ask(json!({"method": "sampling/createMessage", "params": params})).await?;
            wire::sampling_response(&asked::read::<CreateMessageResult>(answer, "sampling")?)
        })
    }

    fn elicit(&self, request: ElicitationRequest) -> HostFuture<'_, ElicitationAnswer> {
        Box::pin(async move {
            if !self.capabilities.elicitation {
                return Err(HostError::Unsupported { capability: "elicitation" });
            }
            let params = wire::elicitation_params(request)?;
            let answer = self.ask(json!({"method": "elicitation/create", "params": params})).await?;
            Ok(wire::elicitation_answer(asked::read::<ElicitResult>(answer, "elicitation")?))
        })
    }
}

/// How a failed call's error reads to the client, when not as [`ToolError`]'s `Display`
/// (`McpServer::with_error_text`).
pub(crate) type ErrorText = Arc<dyn Fn(&ToolError) -> String + Send + Sync>;

/// One task started on this replica.
pub(crate) struct Run {
    pub(crate) id: String,
    pub(crate) base: Task,
    pub(crate) host: Arc<TaskHost>,
    pub(crate) cancellation: CancellationToken,
    /// How a failed call's error reads (the server's `with_error_text`).
    pub(crate) error_text: Option<ErrorText>,
}

/// The record a new task starts with.
pub(crate) fn first_record(base: &Task, settings: &TaskSettings) -> Result<TaskRecord, serde_json::Error> {
    let state = serde_json::to_string(&DetailedTask::new(base.clone(), TaskPayload::Working))?;
    Ok(TaskRecord::new(state, lease_until(settings)))
}

/// How a heartbeat found the task.
enum Beat {
    Running,
    /// Expired, lost by the store, or declared failed by a reader after a lapsed lease: the
    /// call is dropped unanswered.
    Gone,
}

impl Run {
    /// Drives `call` to its end, keeping the task's record current; the record ends with the
    /// call's result, or `cancelled` when the tool stopped for a `tasks/cancel`.
    pub(crate) async fn drive(self, store: &dyn TaskStore, settings: &TaskSettings, call: ToolFuture<'static>) {
        let mut call = call;
        let mut next_beat = tokio::time::Instant::now();
        let outcome = loop {
            let poll = if self.host.waiting() { settings.input_poll } else { settings.lease / 3 };
            next_beat = next_beat.min(tokio::time::Instant::now() + poll);
            tokio::select! {
                outcome = &mut call => break Some(outcome),
                () = self.host.changed.notified() => {
                    let state = self.state_text(self.host.detailed(&self.base));
                    if let Ok(false) = store.save(&self.id, &state, false, lease_until(settings)).await {
                        break None;
                    }
                }
                () = tokio::time::sleep_until(next_beat) => {
                    next_beat = tokio::time::Instant::now() + poll;
                    if let Beat::Gone = self.beat(store, settings).await {
                        break None;
                    }
                }
            }
        };
        let Some(outcome) = outcome else {
            // The task is gone: its tool is told, and given a heartbeat's time to wind down.
            self.cancellation.cancel();
            let _ = tokio::time::timeout(settings.lease / 3, &mut call).await;
            return;
        };
        let payload = match &outcome {
            // A tool that ends in an error after `tasks/cancel` stopped for it.
            Err(_) if self.cancellation.is_cancelled() => TaskPayload::Cancelled,
            _ => TaskPayload::Completed { result: self.result(&outcome) },
        };
        let mut task = self.base.clone();
        task.status_message = None;
        task.last_updated_at = rmcp::task_manager::current_timestamp();
        let state = self.state_text(DetailedTask::new(task, payload));
        // The result is what the client waits for: a store that is briefly away (a restart)
        // gets a few tries; past them the lease lapses and readers see the task failed.
        let mut pause = core::time::Duration::from_millis(100);
        for _ in 0..6 {
            match store.save(&self.id, &state, true, lease_until(settings)).await {
                Ok(_) => return,
                Err(error) => tracing::warn!(task = %self.id, %error, "the task's result could not be saved"),
            }
            tokio::time::sleep(pause).await;
            pause *= 2;
        }
    }

    /// Renews the lease and reads what other replicas recorded: a cancellation, answers.
    async fn beat(&self, store: &dyn TaskStore, settings: &TaskSettings) -> Beat {
        // A store that is away is tried again at the next beat; the tool goes on meanwhile.
        let Ok(record) = store.load(&self.id).await else { return Beat::Running };
        let Some(record) = record else { return Beat::Gone };
        if record.ended {
            return Beat::Gone;
        }
        if record.cancel_requested {
            self.cancellation.cancel();
        }
        if !record.responses.is_empty() {
            let answers =
                record.responses.iter().filter_map(|(key, text)| Some((key, serde_json::from_str(text).ok()?)));
            self.host.deliver(answers);
        }
        match store.renew(&self.id, lease_until(settings)).await {
            Ok(false) => Beat::Gone,
            _ => Beat::Running,
        }
    }

    fn result(&self, outcome: &Result<ToolOutput, ToolError>) -> JsonObject {
        let result: CallToolResult = match (outcome, &self.error_text) {
            (Err(error), Some(text)) => wire::error_result(&text(error)),
            _ => wire::call_result(outcome),
        };
        match serde_json::to_value(result) {
            Ok(Value::Object(result)) => result,
            _ => JsonObject::new(),
        }
    }

    fn state_text(&self, task: DetailedTask) -> String {
        serde_json::to_string(&task).unwrap_or_else(|_| {
            let failed = json!({"code": -32603, "message": "the task's state could not be written"});
            let payload = TaskPayload::Failed { error: failed.as_object().cloned().unwrap_or_default() };
            serde_json::to_string(&DetailedTask::new(self.base.clone(), payload)).unwrap_or_default()
        })
    }
}
