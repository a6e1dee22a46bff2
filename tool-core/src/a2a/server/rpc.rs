//! The JSON-RPC binding of 1.0 on the server: requests checked as JSON-RPC 2.0 and A2A say,
//! each method answered from a run on this replica or from the task store, errors with the
//! spec's codes and a `google.rpc.ErrorInfo`.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::error::RpcError;
use super::lookup::{find, state, trim};
use super::run::{is_settled, is_terminal, lease_until_ms, now, store_key};
use super::shared::Shared;
use super::stream::{Answer, Events};

/// Runs `method` with `params`, for the caller `owner`.
pub(super) async fn call(
    shared: &Arc<Shared>,
    method: &str,
    params: &Map<String, Value>,
    owner: Option<String>,
) -> Result<Answer, RpcError> {
    match method {
        "SendMessage" => super::send::send(shared, params, false, owner).await,
        "SendStreamingMessage" => super::send::send(shared, params, true, owner).await,
        "GetTask" => get(shared, params, owner.as_deref()).await.map(Answer::Result),
        "ListTasks" => super::list::list(shared, params, owner.as_deref()).await.map(Answer::Result),
        "CancelTask" => cancel(shared, params, owner.as_deref()).await.map(Answer::Result),
        "SubscribeToTask" => subscribe(shared, params, owner.as_deref()).await,
        "CreateTaskPushNotificationConfig"
        | "GetTaskPushNotificationConfig"
        | "ListTaskPushNotificationConfigs"
        | "DeleteTaskPushNotificationConfig" => {
            super::push::call(shared, method, params, owner.as_deref()).await.map(Answer::Result)
        }
        // The name a 1.0 draft gave the list.
        "ListTaskPushNotificationConfig" => {
            super::push::call(shared, "ListTaskPushNotificationConfigs", params, owner.as_deref())
                .await
                .map(Answer::Result)
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
        let mut settled = run.settled.subscribe();
        run.cancel.cancel();
        let _ = settled.wait_for(|_| run.is_done()).await;
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
        if saved.map_err(|error| RpcError::internal(error.to_string()))? {
            super::listed::index(&*shared.store, &key, &task, owner).await;
        }
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
