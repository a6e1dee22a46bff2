//! One task's run on this replica: the executor's future, what it reports (kept in the task,
//! written to the store, sent to every stream following it), and how it ends.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};
use tokio::sync::{broadcast, oneshot, watch};

use super::model::{Artifact, Incoming, Outcome};
use crate::a2a::part::Part;
use crate::context::CancellationToken;
use crate::tasks::{TaskRecord, TaskSettings, TaskStore};

/// The states after which a task runs no more until a client speaks (1.0's spelling).
pub(super) fn is_settled(state: &str) -> bool {
    is_terminal(state) || matches!(state, "TASK_STATE_INPUT_REQUIRED" | "TASK_STATE_AUTH_REQUIRED")
}

/// The states a task never leaves.
pub(super) fn is_terminal(state: &str) -> bool {
    matches!(state, "TASK_STATE_COMPLETED" | "TASK_STATE_FAILED" | "TASK_STATE_CANCELED" | "TASK_STATE_REJECTED")
}

/// Now, as a task status's `timestamp` (RFC 3339, UTC).
pub(super) fn now() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// Until when a lease taken now lasts, in milliseconds since the Unix epoch.
pub(super) fn lease_until_ms(settings: &TaskSettings) -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    u64::try_from((now + settings.lease).as_millis()).unwrap_or(u64::MAX)
}

/// The key of task `id` in the task store, apart from the MCP tasks it may share it with.
pub(super) fn store_key(id: &str) -> String {
    format!("a2a:{id}")
}

/// A task running here.
pub(super) struct Run {
    pub(super) id: String,
    pub(super) context_id: String,
    pub(super) cancel: CancellationToken,
    /// Who started it, when the request was authenticated.
    pub(super) owner: Option<String>,
    pub(super) store: Arc<dyn TaskStore>,
    pub(super) settings: TaskSettings,
    task: Mutex<Held>,
    /// Every event as a stream sends it (`{"task": ..}`, `{"statusUpdate": ..}`…).
    pub(super) events: broadcast::Sender<Value>,
    /// The blocking reply once the run stops or asks: `{"task": ..}` or `{"message": ..}`;
    /// `None` while it works.
    pub(super) settled: watch::Sender<Option<Value>>,
    /// Where the client's answer goes while the executor waits for one ([`TaskHandle::ask`](super::handle::TaskHandle::ask)).
    waiting: Mutex<Option<oneshot::Sender<Incoming>>>,
    /// The id of the last answer taken from the store (sent through another replica).
    last_answer: Mutex<Option<String>>,
    /// Whether the run has ended (it may still be in the replica's map a moment).
    done: AtomicBool,
}

/// The task store's key of an answer sent through another replica than the one asking.
pub(super) const ANSWER: &str = "answer";

struct Held {
    task: Value,
    /// Whether the task exists for clients (in the store, announced to streams): a run that
    /// answers with a message alone never makes one.
    announced: bool,
}

impl Run {
    /// A run of `incoming`, on a new task or on `existing` (the task it continues).
    pub(super) fn new(
        store: Arc<dyn TaskStore>,
        settings: TaskSettings,
        incoming: &Incoming,
        existing: Option<Value>,
        owner: Option<String>,
    ) -> Arc<Run> {
        let announced = existing.is_some();
        let mut task = existing.unwrap_or_else(|| {
            json!({
                "id": incoming.task_id,
                "contextId": incoming.context_id,
                "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": now()},
                "artifacts": [],
                "history": [],
            })
        });
        if let Some(history) = task["history"].as_array_mut() {
            history.push(incoming.message.clone());
        }
        if announced {
            // A task continued is at work from the moment it takes the answer.
            task["status"] = json!({"state": "TASK_STATE_WORKING", "timestamp": now()});
        }
        Arc::new(Run {
            id: incoming.task_id.clone(),
            context_id: incoming.context_id.clone(),
            cancel: CancellationToken::new(),
            owner,
            store,
            settings,
            task: Mutex::new(Held { task, announced }),
            events: broadcast::channel(256).0,
            settled: watch::channel(None).0,
            waiting: Mutex::new(None),
            last_answer: Mutex::new(None),
            done: AtomicBool::new(false),
        })
    }

    /// Whether the task exists for clients yet.
    pub(super) fn is_announced(&self) -> bool {
        self.held().announced
    }

    /// Whether the run has ended.
    pub(super) fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// Whether the executor waits for the client's answer.
    pub(super) fn is_waiting(&self) -> bool {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }

    /// Gives the executor waiting in [`TaskHandle::ask`](super::handle::TaskHandle::ask) the client's answer; `false` when it
    /// waits for none.
    pub(super) fn resume(&self, incoming: Incoming) -> bool {
        let Some(waiting) = self.waiting.lock().unwrap_or_else(PoisonError::into_inner).take() else {
            return false;
        };
        {
            let mut held = self.held();
            if let Some(history) = held.task["history"].as_array_mut() {
                history.push(incoming.message.clone());
            }
            held.task["status"] = json!({"state": "TASK_STATE_WORKING", "timestamp": now()});
        }
        self.settled.send_replace(None);
        waiting.send(incoming).is_ok()
    }

    /// Asks the client: the task waits (`INPUT_REQUIRED`, a blocking reply given) until an
    /// answer comes with the task's id, through this replica or another.
    pub(super) async fn ask(&self, question: &[Part]) -> Incoming {
        let (sender, answer) = oneshot::channel();
        *self.waiting.lock().unwrap_or_else(PoisonError::into_inner) = Some(sender);
        self.status("TASK_STATE_INPUT_REQUIRED", Some(question)).await;
        self.settled.send_replace(Some(json!({"task": self.task()})));
        match answer.await {
            Ok(incoming) => {
                self.status("TASK_STATE_WORKING", None).await;
                incoming
            }
            // The run is ending: its future is dropped before this is polled again.
            Err(_) => core::future::pending().await,
        }
    }

    /// The task as it stands.
    pub(super) fn task(&self) -> Value {
        self.held().task.clone()
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.task.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs the executor's future to its outcome (or the client's cancellation), then ends
    /// the run.
    pub(super) async fn drive(&self, execute: impl Future<Output = Outcome>) {
        let outcome = tokio::select! {
            outcome = execute => Some(outcome),
            () = self.cancel.cancelled() => None,
            () = self.watch_store() => None,
        };
        self.finish(outcome).await;
    }

    /// Returns when a client cancels the task through another replica, renewing the lease
    /// on the way.
    async fn watch_store(&self) {
        loop {
            tokio::time::sleep(self.settings.poll_interval).await;
            if !self.held().announced {
                continue;
            }
            let key = store_key(&self.id);
            match self.store.load(&key).await {
                Ok(Some(record)) if record.cancel_requested => return,
                Ok(None) => return,
                Ok(Some(record)) => {
                    let _ = self.store.renew(&key, lease_until_ms(&self.settings)).await;
                    if let Some(answer) = record.responses.get(ANSWER) {
                        self.take_answer(answer);
                    }
                }
                Err(error) => tracing::warn!(task = %self.id, %error, "a2a: the task store failed"),
            }
        }
    }

    /// Resumes the executor with an answer another replica wrote to the store, once.
    fn take_answer(&self, answer: &str) {
        let Ok(message) = serde_json::from_str::<Value>(answer) else { return };
        let id = message["messageId"].as_str().unwrap_or_default().to_owned();
        let mut last = self.last_answer.lock().unwrap_or_else(PoisonError::into_inner);
        if last.as_deref() == Some(id.as_str()) || !self.is_waiting() {
            return;
        }
        *last = Some(id.clone());
        drop(last);
        let incoming = Incoming {
            parts: crate::a2a::part::parts(&message["parts"]),
            message_id: id,
            task_id: self.id.clone(),
            context_id: self.context_id.clone(),
            continues: true,
            message,
        };
        self.resume(incoming);
    }

    /// Announces the task if it is not yet: stored, and sent to streams as `{"task": ..}`.
    pub(super) async fn announce(&self) {
        let task = {
            let mut held = self.held();
            if held.announced {
                return;
            }
            held.announced = true;
            held.task.clone()
        };
        let mut record = TaskRecord::new(task.to_string(), lease_until_ms(&self.settings));
        record.owner.clone_from(&self.owner);
        if let Err(error) = self.store.create(&store_key(&self.id), record, self.settings.ttl).await {
            tracing::warn!(task = %self.id, %error, "a2a: the task store failed");
        }
        super::listed::index(&*self.store, &store_key(&self.id), &task, self.owner.as_deref()).await;
        let _ = self.events.send(json!({"task": task}));
    }

    /// Sets the task's state, with an agent message when `parts` are given.
    pub(super) async fn status(&self, state: &str, parts: Option<&[Part]>) {
        self.announce().await;
        let mut status = json!({"state": state, "timestamp": now()});
        if let Some(parts) = parts {
            status["message"] = self.agent_message(parts);
        }
        let task = {
            let mut held = self.held();
            held.task["status"] = status.clone();
            if let (Some(message), Some(history)) = (status.get("message"), held.task["history"].as_array_mut()) {
                history.push(message.clone());
            }
            held.task.clone()
        };
        self.save(&task, is_terminal(state)).await;
        let _ = self
            .events
            .send(json!({"statusUpdate": {"taskId": self.id, "contextId": self.context_id, "status": status}}));
    }

    /// Adds an artifact to the task.
    pub(super) async fn artifact(&self, artifact: &Artifact) {
        self.announce().await;
        let artifact = artifact.to_json();
        let task = {
            let mut held = self.held();
            if let Some(artifacts) = held.task["artifacts"].as_array_mut() {
                artifacts.push(artifact.clone());
            }
            held.task.clone()
        };
        self.save(&task, false).await;
        let update = json!({"taskId": self.id, "contextId": self.context_id, "artifact": artifact, "append": false, "lastChunk": true});
        let _ = self.events.send(json!({"artifactUpdate": update}));
    }

    async fn save(&self, task: &Value, ended: bool) {
        let (key, text) = (store_key(&self.id), task.to_string());
        match self.store.save(&key, &text, ended, lease_until_ms(&self.settings)).await {
            Ok(true) => super::listed::index(&*self.store, &key, task, self.owner.as_deref()).await,
            Ok(false) => {}
            Err(error) => tracing::warn!(task = %self.id, %error, "a2a: the task store failed"),
        }
    }

    fn agent_message(&self, parts: &[Part]) -> Value {
        json!({
            "messageId": uuid::Uuid::new_v4().to_string(),
            "role": "ROLE_AGENT",
            "parts": parts.iter().map(Part::to_json).collect::<Vec<_>>(),
            "taskId": self.id,
            "contextId": self.context_id,
        })
    }

    /// Ends the run with `outcome` (`None`: canceled).
    async fn finish(&self, outcome: Option<Outcome>) {
        let text = |reason: String| vec![Part::Text(reason)];
        match outcome {
            Some(Outcome::Message(parts)) if !self.held().announced => {
                // No task was made, so the reply names none.
                let mut message = self.agent_message(&parts);
                message.as_object_mut().map(|message| message.remove("taskId"));
                let reply = json!({"message": message});
                let _ = self.events.send(reply.clone());
                self.done.store(true, Ordering::Release);
                self.settled.send_replace(Some(reply));
                return;
            }
            Some(Outcome::Message(parts)) => self.status("TASK_STATE_COMPLETED", Some(&parts)).await,
            Some(Outcome::Completed(artifacts)) => {
                for artifact in &artifacts {
                    self.artifact(artifact).await;
                }
                self.status("TASK_STATE_COMPLETED", None).await;
            }
            Some(Outcome::InputRequired(question)) => self.status("TASK_STATE_INPUT_REQUIRED", Some(&question)).await,
            Some(Outcome::Failed(reason)) => self.status("TASK_STATE_FAILED", Some(&text(reason))).await,
            Some(Outcome::Rejected(reason)) => self.status("TASK_STATE_REJECTED", Some(&text(reason))).await,
            None => self.status("TASK_STATE_CANCELED", None).await,
        }
        self.done.store(true, Ordering::Release);
        // No replica holds the task any more: an answer to it starts a new run.
        let _ = self.store.renew(&store_key(&self.id), 0).await;
        self.settled.send_replace(Some(json!({"task": self.task()})));
    }
}
