//! The server asking the client (sampling, elicitation): [`ask`] sends the request as JSON of
//! the server's own, and in 2025-11-25 terms ties it to the task it serves (`io.modelcontextprotocol/related-task`), and run by the client as a
//! task of its own when it declared it can (`capabilities.tasks.requests`): the client
//! answers at once with a task, which the server follows with `tasks/get` at the client's
//! pace until it ends, then reads its answer with `tasks/result`. The tool sees only the
//! answer either way.

use core::time::Duration;

use rmcp::model::{ClientResult, CustomRequest, ServerRequest};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};

use crate::context::{ClientCapabilities, HostError};

/// The `_meta` key that ties a message to a task.
pub(in crate::mcp) const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// How long the server keeps following a task the client runs for it: a person may take a
/// while to fill in a form.
const CLIENT_TASK_TTL: Duration = Duration::from_mins(10);

/// Ties `params` (a request's) to the task `task_id`.
pub(in crate::mcp) fn relate(params: &mut Value, task_id: &str) {
    if let Value::Object(params) = params {
        let meta = params.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            meta.insert(RELATED_TASK.to_owned(), json!({"taskId": task_id}));
        }
    }
}

/// Whether the client runs `method` as a task of its own.
pub(in crate::mcp) fn runs_as_task(capabilities: ClientCapabilities, method: &str) -> bool {
    match method {
        "sampling/createMessage" => capabilities.sampling_as_task,
        "elicitation/create" => capabilities.elicitation_as_task,
        _ => false,
    }
}

/// Sends `method` to the client and waits for its answer, run as a client task when
/// `as_task`; the answer as JSON, or what went wrong.
pub(in crate::mcp) async fn ask(
    peer: &Peer<RoleServer>,
    method: &str,
    params: Value,
    as_task: bool,
) -> Result<Value, HostError> {
    let mut params = params;
    if as_task && let Value::Object(fields) = &mut params {
        fields.insert("task".to_owned(), json!({"ttl": CLIENT_TASK_TTL.as_millis()}));
    }
    let answer = send(peer, method, params).await?;
    // A client may still answer at once: that is the answer.
    let Some(task) = answer.get("task").filter(|_| as_task).cloned() else { return Ok(answer) };
    let Some(id) = task.get("taskId").and_then(Value::as_str).map(str::to_owned) else {
        return Err(HostError::Failed { message: format!("the client's task has no taskId: {task}") });
    };
    let deadline = tokio::time::Instant::now() + CLIENT_TASK_TTL;
    let mut task = task;
    while !ended(&task) {
        // The client's pace, within reason: from 50 ms to 5 s between looks.
        let pause = task.get("pollInterval").and_then(Value::as_u64).unwrap_or(1000).clamp(50, 5000);
        if tokio::time::Instant::now() + Duration::from_millis(pause) > deadline {
            return Err(HostError::Failed { message: format!("the client's task {id} did not end in time") });
        }
        tokio::time::sleep(Duration::from_millis(pause)).await;
        task = send(peer, "tasks/get", json!({"taskId": id})).await?;
    }
    send(peer, "tasks/result", json!({"taskId": id})).await
}

/// The client's `answer` to a request of `kind` (`sampling`, `elicitation`), read as `T`.
pub(in crate::mcp) fn read<T: serde::de::DeserializeOwned>(answer: Value, kind: &str) -> Result<T, HostError> {
    serde_json::from_value(answer).map_err(|e| HostError::Failed { message: format!("unreadable {kind} answer: {e}") })
}

/// Whether a 2025-11-25 task is in a terminal status (or names none: nothing to wait for).
fn ended(task: &Value) -> bool {
    !matches!(task.get("status").and_then(Value::as_str), Some("working" | "input_required"))
}

/// One request to the client, its answer as JSON.
async fn send(peer: &Peer<RoleServer>, method: &str, params: Value) -> Result<Value, HostError> {
    let request = ServerRequest::CustomRequest(CustomRequest::new(method.to_owned(), Some(params)));
    let answer: ClientResult =
        peer.send_request(request).await.map_err(|e| HostError::Failed { message: e.to_string() })?;
    serde_json::to_value(answer)
        .map_err(|e| HostError::Failed { message: format!("unreadable answer to {method}: {e}") })
}
