//! [`TaskHandle`]: what an executor holds of the task it works on.

use std::sync::Arc;

use super::model::{Artifact, Incoming};
use super::run::Run;
use crate::a2a::part::Part;
use crate::context::CancellationToken;
#[cfg(feature = "agent")]
use crate::tasks::TaskStore;

/// The task an executor works on: what it reports while it runs, and whether the client
/// canceled it.
#[derive(Clone)]
pub struct TaskHandle {
    pub(super) run: Arc<Run>,
}

impl core::fmt::Debug for TaskHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TaskHandle").field("task_id", &self.run.id).finish_non_exhaustive()
    }
}

impl TaskHandle {
    /// The task's id.
    #[must_use]
    pub fn task_id(&self) -> &str {
        &self.run.id
    }

    /// Canceled when the client cancels the task; the server then stops waiting for the
    /// executor, whose future is dropped.
    #[must_use]
    pub fn cancellation(&self) -> &CancellationToken {
        &self.run.cancel
    }

    /// Reports that the task is working, with a status message (a stream's status update).
    pub async fn working(&self, parts: impl IntoIterator<Item = Part>) {
        let parts: Vec<Part> = parts.into_iter().collect();
        self.run.status("TASK_STATE_WORKING", Some(&parts)).await;
    }

    /// The task store, with the time to live of what goes in it, and the caller who owns the
    /// task (for what an executor keeps beside it: an agent's conversation).
    #[cfg(feature = "agent")]
    pub(super) fn store(&self) -> (&Arc<dyn TaskStore>, Option<core::time::Duration>, Option<&str>) {
        (&self.run.store, self.run.settings.ttl, self.run.owner.as_deref())
    }

    /// Ends the wait of a blocking `SendMessage` now: it returns the task as it stands,
    /// working, while the executor goes on in the background (the official SDKs'
    /// fire-and-forget agents; spec 1.0 §3.1.1: "task processing MAY continue
    /// asynchronously"). What the executor reports afterwards, and its outcome, reach
    /// `GetTask`, `ListTasks` and streams, as for any task. Without it, a blocking
    /// `SendMessage` returns once the task is terminal or interrupted (§3.2.2); a client that
    /// sends `returnImmediately` gets the task at once either way.
    pub async fn release(&self) {
        self.run.status("TASK_STATE_WORKING", None).await;
        self.run.settled.send_replace(Some(serde_json::json!({"task": self.run.task()})));
    }

    /// Adds an output to the task (a stream's artifact update).
    pub async fn artifact(&self, artifact: Artifact) {
        self.run.artifact(&artifact).await;
    }

    /// Asks the client `question` and waits for the answer: the task is `INPUT_REQUIRED` (a
    /// blocking `SendMessage` returns with it) until the client sends a message with the
    /// task's id, through this replica or another; then it works again. Unlike
    /// [`Outcome::InputRequired`](super::Outcome::InputRequired), the executor keeps its place (an agent's run in the
    /// middle of a tool call, say).
    pub async fn ask(&self, question: impl IntoIterator<Item = Part>) -> Incoming {
        let question: Vec<Part> = question.into_iter().collect();
        self.run.ask(&question).await
    }
}
