//! A streamed reply (`SendStreamingMessage`, server-sent events whose `data` is each a whole
//! JSON-RPC response) folded into the [`Reply`] a blocking call would have given: the task
//! as its first event named it, its status updates (their text reported as progress), its
//! artifacts in order; or a single message.

use serde_json::Value;

use super::A2aError;
use super::wire::{self, Part, Reply, Task, TaskState};

/// A streamed reply so far.
#[derive(Debug, Default)]
pub(crate) struct Fold {
    task: Option<Task>,
    message: Option<Vec<Part>>,
}

impl Fold {
    /// The id of the task, once an event has named it.
    pub(crate) fn task_id(&self) -> Option<&str> {
        self.task.as_ref().map(|task| task.id.as_str())
    }

    /// Holds `task` as the reply so far (a task followed with `GetTask`).
    pub(crate) fn hold(&mut self, task: Task) {
        self.task = Some(task);
    }

    /// Takes one event's `data`; returns the text of a status update, for progress.
    pub(crate) fn push(&mut self, data: &str) -> Result<Option<String>, A2aError> {
        let response: Value = serde_json::from_str(data)
            .map_err(|error| A2aError::Malformed { message: format!("a stream event is not JSON ({error})") })?;
        if response.get("error").is_some() {
            return Err(wire::reply(&response).err().unwrap_or(A2aError::Malformed { message: String::new() }));
        }
        let result = &response["result"];
        // 1.0 names each event's kind by its member; 0.3 by a `kind` member.
        let (kind, event) = ["statusUpdate", "artifactUpdate"]
            .into_iter()
            .find_map(|kind| result.get(kind).map(|event| (kind, event)))
            .unwrap_or_else(|| match result["kind"].as_str() {
                Some("status-update") => ("statusUpdate", result),
                Some("artifact-update") => ("artifactUpdate", result),
                _ => ("whole", result),
            });
        match kind {
            "statusUpdate" => {
                let task = self.task.get_or_insert_with(|| Task {
                    id: event["taskId"].as_str().unwrap_or_default().to_owned(),
                    context_id: event["contextId"].as_str().map(str::to_owned),
                    state: TaskState::Other("submitted".to_owned()),
                    status: String::new(),
                    artifacts: Vec::new(),
                });
                let state = event.pointer("/status/state").and_then(Value::as_str).unwrap_or_default();
                task.state = wire::state(state);
                task.status = wire::text(&wire::parts(event.pointer("/status/message/parts").unwrap_or(&Value::Null)));
                Ok((!task.status.is_empty()).then(|| task.status.clone()))
            }
            "artifactUpdate" => {
                let parts = wire::parts(event.pointer("/artifact/parts").unwrap_or(&Value::Null));
                if let Some(task) = &mut self.task {
                    task.artifacts.extend(parts);
                }
                Ok(None)
            }
            _ => {
                match wire::reply(&response)? {
                    Reply::Message(parts) => self.message = Some(parts),
                    Reply::Task(task) => {
                        // A whole task replaces what was folded, keeping the artifacts streamed
                        // so far when it carries none.
                        let streamed = self.task.take().map(|old| old.artifacts).unwrap_or_default();
                        let mut task = task;
                        if task.artifacts.is_empty() {
                            task.artifacts = streamed;
                        }
                        self.task = Some(task);
                    }
                }
                Ok(None)
            }
        }
    }

    /// The reply the stream gave, once it closed.
    pub(crate) fn finish(self) -> Result<Reply, A2aError> {
        match (self.message, self.task) {
            (Some(parts), _) => Ok(Reply::Message(parts)),
            (None, Some(task)) => Ok(Reply::Task(task)),
            (None, None) => {
                Err(A2aError::Malformed { message: "the stream closed before any task or message".to_owned() })
            }
        }
    }
}
