//! The JSON-RPC binding's requests and replies, in 1.0 (`SendMessage`, `ROLE_USER`, parts
//! as `{"text": ..}`, `TASK_STATE_COMPLETED`, `{"task": ..}`/`{"message": ..}`) and in 0.3
//! (`message/send`, `user`, parts with a `kind`, `completed`, the task or message itself), read
//! into one [`Reply`].

use serde_json::{Map, Value, json};

use super::A2aError;
pub(crate) use super::part::{Part, parts, text};

/// The protocol version an interface speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    V1,
    V03,
}

impl Version {
    /// The version of an interface's `protocolVersion`.
    pub(crate) fn of(version: &str) -> Version {
        if version == "0.3" { Version::V03 } else { Version::V1 }
    }

    /// The `A2A-Version` header's value.
    pub(crate) fn header(self) -> &'static str {
        match self {
            Version::V1 => "1.0",
            Version::V03 => "0.3",
        }
    }
}

/// A `SendMessage` of `text` as the user, continuing `task_id`/`context_id` when given:
/// streamed when `stream`, else answered at once with the task (`returnImmediately`), which
/// the client then follows with `GetTask` and can cancel.
pub(crate) fn send_message(
    version: Version,
    stream: bool,
    id: u64,
    message_id: &str,
    text: &str,
    task_id: Option<&str>,
    context_id: Option<&str>,
) -> Value {
    let mut message = Map::new();
    message.insert("messageId".to_owned(), json!(message_id));
    if let Some(task_id) = task_id {
        message.insert("taskId".to_owned(), json!(task_id));
    }
    if let Some(context_id) = context_id {
        message.insert("contextId".to_owned(), json!(context_id));
    }
    let (method, configuration) = match version {
        Version::V1 => {
            message.insert("role".to_owned(), json!("ROLE_USER"));
            message.insert("parts".to_owned(), json!([{"text": text}]));
            ("SendMessage", json!({"returnImmediately": !stream}))
        }
        Version::V03 => {
            message.insert("kind".to_owned(), json!("message"));
            message.insert("role".to_owned(), json!("user"));
            message.insert("parts".to_owned(), json!([{"kind": "text", "text": text}]));
            ("message/send", json!({"blocking": stream}))
        }
    };
    let method = match (stream, version) {
        (false, _) => method,
        (true, Version::V1) => "SendStreamingMessage",
        (true, Version::V03) => "message/stream",
    };
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"message": message, "configuration": configuration}})
}

/// A `GetTask` of `task_id`.
pub(crate) fn get_task(version: Version, id: u64, task_id: &str) -> Value {
    let method = match version {
        Version::V1 => "GetTask",
        Version::V03 => "tasks/get",
    };
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"id": task_id}})
}

/// The task a `GetTask` response carries.
///
/// # Errors
/// [`A2aError::Rpc`] for an error response, [`A2aError::Malformed`] for anything else that
/// is not a task.
pub(crate) fn task_reply(response: &Value) -> Result<Task, A2aError> {
    if response.get("error").is_some() {
        return Err(reply(response).err().unwrap_or(malformed("an error response without an error")));
    }
    task(response.get("result").ok_or_else(|| malformed("a response with neither result nor error"))?)
}

/// A `CancelTask` of `task_id`.
pub(crate) fn cancel_task(version: Version, id: u64, task_id: &str) -> Value {
    let method = match version {
        Version::V1 => "CancelTask",
        Version::V03 => "tasks/cancel",
    };
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"id": task_id}})
}

/// What a remote agent answered a message with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    /// A direct message.
    Message(Vec<Part>),
    /// A task, in whatever state it reached.
    Task(Task),
}

/// A task as the client reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Task {
    pub(crate) id: String,
    pub(crate) context_id: Option<String>,
    pub(crate) state: TaskState,
    /// The text of the status message (the question of an input-required task, the reason of a
    /// failed one).
    pub(crate) status: String,
    /// Every artifact's parts, in order.
    pub(crate) artifacts: Vec<Part>,
}

/// A task's state, in either version's spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TaskState {
    Completed,
    Failed,
    Canceled,
    Rejected,
    InputRequired,
    AuthRequired,
    /// Submitted, working, or a state this client does not know.
    Other(String),
}

/// A task state of either version's spelling.
pub(crate) fn state(state: &str) -> TaskState {
    TaskState::of(state)
}

impl TaskState {
    fn of(state: &str) -> TaskState {
        let state = state.strip_prefix("TASK_STATE_").unwrap_or(state).to_ascii_lowercase().replace('_', "-");
        match state.as_str() {
            "completed" => TaskState::Completed,
            "failed" => TaskState::Failed,
            "canceled" | "cancelled" => TaskState::Canceled,
            "rejected" => TaskState::Rejected,
            "input-required" => TaskState::InputRequired,
            "auth-required" => TaskState::AuthRequired,
            _ => TaskState::Other(state),
        }
    }
}

/// The reply of a JSON-RPC response.
///
/// # Errors
/// [`A2aError::Rpc`] for an error response, [`A2aError::Malformed`] for anything that is not
/// a task or a message.
pub(crate) fn reply(response: &Value) -> Result<Reply, A2aError> {
    if let Some(error) = response.get("error") {
        return Err(A2aError::Rpc {
            code: error["code"].as_i64().unwrap_or_default(),
            message: error["message"].as_str().unwrap_or_default().to_owned(),
        });
    }
    let result = response.get("result").ok_or_else(|| malformed("a response with neither result nor error"))?;
    // 1.0 wraps the object in its kind; 0.3 sends it with a `kind` member.
    let (kind, object) = match (result.get("task"), result.get("message")) {
        (Some(task), _) => ("task", task),
        (None, Some(message)) => ("message", message),
        (None, None) => (result["kind"].as_str().unwrap_or_default(), result),
    };
    match kind {
        "message" => Ok(Reply::Message(parts(&object["parts"]))),
        "task" => Ok(Reply::Task(task(object)?)),
        _ => Err(malformed("a result that is neither a task nor a message")),
    }
}

fn task(task: &Value) -> Result<Task, A2aError> {
    let id = task["id"].as_str().ok_or_else(|| malformed("a task without an id"))?.to_owned();
    let state =
        task.pointer("/status/state").and_then(Value::as_str).ok_or_else(|| malformed("a task without a state"))?;
    let status = text(&parts(task.pointer("/status/message/parts").unwrap_or(&Value::Null)));
    let artifacts =
        task["artifacts"].as_array().into_iter().flatten().flat_map(|artifact| parts(&artifact["parts"])).collect();
    Ok(Task {
        id,
        context_id: task["contextId"].as_str().map(str::to_owned),
        state: TaskState::of(state),
        status,
        artifacts,
    })
}

fn malformed(message: &str) -> A2aError {
    A2aError::Malformed { message: message.to_owned() }
}
