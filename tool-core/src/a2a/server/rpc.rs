//! The JSON-RPC binding of 1.0 on the server: requests checked as JSON-RPC 2.0 and A2A say,
//! each method answered from a run on this replica or from the task store, errors with the
//! spec's codes and a `google.rpc.ErrorInfo`.

use std::sync::{Arc, PoisonError};

use serde_json::{Map, Value, json};

use super::error::RpcError;
use super::lookup::{find, state, trim};
use super::model::Incoming;
use super::run::{Run, TaskHandle, is_settled, is_terminal, lease_until_ms, now, store_key};
use super::shared::Shared;
use super::stream::Events;
use crate::a2a::part;

/// What a method answers: a result, or a stream of them.
pub(super) enum Answer {
    Result(Value),
    Stream(Events),
}

/// Runs `method` with `params`, for the caller `owner`.
pub(super) async fn call(
    shared: &Arc<Shared>,
    method: &str,
    params: &Map<String, Value>,
    owner: Option<String>,
) -> Result<Answer, RpcError> {
    match method {
        "SendMessage" => send(shared, params, false, owner).await,
        "SendStreamingMessage" => send(shared, params, true, owner).await,
        "GetTask" => get(shared, params, owner.as_deref()).await.map(Answer::Result),
        "ListTasks" => super::list::list(shared, params, owner.as_deref()).await.map(Answer::Result),
        "CancelTask" => cancel(shared, params, owner.as_deref()).await.map(Answer::Result),
        "SubscribeToTask" => subscribe(shared, params, owner.as_deref()).await,
        "message/send" | "message/stream" | "tasks/get" | "tasks/cancel" | "tasks/resubscribe" => {
            Err(RpcError::version("0.3"))
        }
        "CreateTaskPushNotificationConfig"
        | "GetTaskPushNotificationConfig"
        | "ListTaskPushNotificationConfigs"
        | "DeleteTaskPushNotificationConfig" => {
            Err(RpcError::new(-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED", "this agent sends no push notifications"))
        }
        "GetExtendedAgentCard" => {
            Err(RpcError::new(-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED", "this agent has no extended card"))
        }
        _ => Err(RpcError::new(-32601, "METHOD_NOT_FOUND", format!("Method not found: {method}"))),
    }
}

fn string<'a>(params: &'a Map<String, Value>, key: &str) -> Result<&'a str, RpcError> {
    params
        .get(key)
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| RpcError::invalid_params(format!("params.{key}: a non-empty string is required")))
}

/// Checks a `Message` as 1.0 defines it: every violation named by its path.
fn check_message(message: Option<&Value>) -> Result<&Map<String, Value>, RpcError> {
    let message = message
        .and_then(Value::as_object)
        .ok_or_else(|| RpcError::invalid_params("params.message: a Message object is required"))?;
    let mut problems = Vec::new();
    if message.get("messageId").and_then(Value::as_str).is_none_or(str::is_empty) {
        problems.push("params.message.messageId: a non-empty string is required".to_owned());
    }
    match message.get("role").and_then(Value::as_str) {
        Some("ROLE_USER" | "ROLE_AGENT") => {}
        _ => problems.push("params.message.role: must be ROLE_USER or ROLE_AGENT".to_owned()),
    }
    match message.get("parts").and_then(Value::as_array) {
        Some(parts) if !parts.is_empty() => {
            for (index, part) in parts.iter().enumerate() {
                let kinds = ["text", "raw", "url", "data"].iter().filter(|kind| part.get(**kind).is_some()).count();
                if kinds != 1 {
                    problems
                        .push(format!("params.message.parts[{index}]: must hold exactly one of text, raw, url, data"));
                }
            }
        }
        _ => problems.push("params.message.parts: a non-empty array of parts is required".to_owned()),
    }
    for key in ["taskId", "contextId"] {
        if message.get(key).is_some_and(|id| !id.is_string()) {
            problems.push(format!("params.message.{key}: must be a string"));
        }
    }
    if problems.is_empty() { Ok(message) } else { Err(RpcError::invalid_params(problems.join("; "))) }
}

async fn send(
    shared: &Arc<Shared>,
    params: &Map<String, Value>,
    stream: bool,
    owner: Option<String>,
) -> Result<Answer, RpcError> {
    let message = check_message(params.get("message"))?;
    let configuration = params.get("configuration").unwrap_or(&Value::Null);
    let immediately = configuration["returnImmediately"].as_bool().unwrap_or(false);
    let history_length = configuration["historyLength"].as_u64();
    let asked_context = message.get("contextId").and_then(Value::as_str);
    let (task_id, context_id, existing) = if let Some(task_id) = message.get("taskId").and_then(Value::as_str) {
        let (run, task) = find(shared, task_id, owner.as_deref()).await?;
        if run.is_some() {
            return Err(RpcError::unsupported(format!("task {task_id} is still working: send when it asks for input")));
        }
        if is_terminal(state(&task)) {
            return Err(RpcError::unsupported(format!("task {task_id} is in a terminal state ({})", state(&task))));
        }
        let context_id = task["contextId"].as_str().unwrap_or_default().to_owned();
        if asked_context.is_some_and(|asked| asked != context_id) {
            return Err(RpcError::invalid_params(format!(
                "params.message.contextId: task {task_id} belongs to context {context_id}"
            )));
        }
        (task_id.to_owned(), context_id, Some(task))
    } else {
        let context_id = asked_context.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
        (uuid::Uuid::new_v4().to_string(), context_id, None)
    };
    let mut stored = message.clone();
    stored.insert("taskId".to_owned(), json!(task_id));
    stored.insert("contextId".to_owned(), json!(context_id));
    let incoming = Incoming {
        parts: part::parts(&message["parts"]),
        message_id: message["messageId"].as_str().unwrap_or_default().to_owned(),
        continues: existing.is_some(),
        task_id,
        context_id,
        message: Value::Object(stored),
    };
    let run = Run::new(Arc::clone(&shared.store), shared.settings.clone(), &incoming, existing, owner);
    shared.runs.lock().unwrap_or_else(PoisonError::into_inner).insert(run.id.clone(), Arc::clone(&run));
    if immediately {
        run.announce().await;
    }
    let events = run.events.subscribe();
    let mut settled = run.settled.subscribe();
    let execute = shared.executor.execute(incoming, TaskHandle { run: Arc::clone(&run) });
    let (shared_for_run, running) = (Arc::clone(shared), Arc::clone(&run));
    tokio::spawn(async move {
        running.drive(execute).await;
        shared_for_run.runs.lock().unwrap_or_else(PoisonError::into_inner).remove(&running.id);
    });
    if stream {
        let first = if immediately { vec![json!({"task": run.task()})] } else { Vec::new() };
        return Ok(Answer::Stream(Events::new(first, events)));
    }
    if immediately {
        return Ok(Answer::Result(json!({"task": trim(run.task(), history_length)})));
    }
    let reply =
        settled.wait_for(Option::is_some).await.map_err(|_| RpcError::internal("the run ended without a reply"))?;
    let mut reply = reply.clone().unwrap_or_default();
    if let Some(task) = reply.get_mut("task") {
        *task = trim(task.take(), history_length);
    }
    Ok(Answer::Result(reply))
}

async fn get(shared: &Shared, params: &Map<String, Value>, owner: Option<&str>) -> Result<Value, RpcError> {
    let id = string(params, "id")?;
    let history_length = match params.get("historyLength") {
        None | Some(Value::Null) => None,
        Some(length) => Some(
            length
                .as_u64()
                .ok_or_else(|| RpcError::invalid_params("params.historyLength: a non-negative integer is required"))?,
        ),
    };
    let (_, task) = find(shared, id, owner).await?;
    Ok(trim(task, history_length))
}

async fn cancel(shared: &Shared, params: &Map<String, Value>, owner: Option<&str>) -> Result<Value, RpcError> {
    let id = string(params, "id")?;
    let (run, task) = find(shared, id, owner).await?;
    if let Some(run) = run {
        run.cancel.cancel();
        let mut settled = run.settled.subscribe();
        let _ = settled.wait_for(Option::is_some).await;
        return Ok(run.task());
    }
    if is_terminal(state(&task)) {
        return Err(RpcError::new(
            -32002,
            "TASK_NOT_CANCELABLE",
            format!("task {id} is {} and cannot be canceled", state(&task)),
        ));
    }
    let key = store_key(id);
    if is_settled(state(&task)) {
        // Waiting for the client, so no replica runs it: cancel it here.
        let mut task = task;
        task["status"] = json!({"state": "TASK_STATE_CANCELED", "timestamp": now()});
        let saved = shared.store.save(&key, &task.to_string(), true, lease_until_ms(&shared.settings)).await;
        saved.map_err(|error| RpcError::internal(error.to_string()))?;
        return Ok(task);
    }
    // Running on another replica: it sees the request at its next look at the store.
    shared.store.request_cancel(&key).await.map_err(|error| RpcError::internal(error.to_string()))?;
    let deadline = tokio::time::Instant::now() + shared.settings.lease;
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(shared.settings.input_poll).await;
        let (_, task) = find(shared, id, owner).await?;
        if is_terminal(state(&task)) {
            return Ok(task);
        }
    }
    Err(RpcError::internal(format!("task {id} did not stop within the lease")))
}

async fn subscribe(shared: &Shared, params: &Map<String, Value>, owner: Option<&str>) -> Result<Answer, RpcError> {
    let id = string(params, "id")?;
    let (run, task) = find(shared, id, owner).await?;
    if is_terminal(state(&task)) {
        return Err(RpcError::unsupported(format!("task {id} is in a terminal state ({})", state(&task))));
    }
    match run {
        Some(run) => {
            let events = run.events.subscribe();
            Ok(Answer::Stream(Events::new(vec![json!({"task": run.task()})], events)))
        }
        None => Ok(Answer::Stream(Events::new(vec![json!({"task": task})], tokio::sync::broadcast::channel(1).1))),
    }
}
