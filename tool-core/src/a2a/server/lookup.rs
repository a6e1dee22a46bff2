//! A task as a caller may see it: from its run on this replica, or from the task store.

use std::sync::{Arc, PoisonError};

use serde_json::Value;

use super::error::RpcError;
use super::run::{Run, store_key};
use super::shared::Shared;

/// The task `id` as a caller may see it: from its run here, or from the store.
pub(super) async fn find(
    shared: &Shared,
    id: &str,
    owner: Option<&str>,
) -> Result<(Option<Arc<Run>>, Value), RpcError> {
    let run = shared.runs.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned();
    if let Some(run) = run.filter(|run| !run.is_done()) {
        if run.owner.as_deref() != owner {
            return Err(RpcError::not_found(id));
        }
        return Ok((Some(Arc::clone(&run)), run.task()));
    }
    let record = shared.store.load(&store_key(id)).await.map_err(|error| RpcError::internal(error.to_string()))?;
    let record = record.filter(|record| record.owner.as_deref() == owner).ok_or_else(|| RpcError::not_found(id))?;
    let task = serde_json::from_str(&record.state).map_err(|error| RpcError::internal(error.to_string()))?;
    Ok((None, task))
}

/// The `state` of a task value.
pub(super) fn state(task: &Value) -> &str {
    task.pointer("/status/state").and_then(Value::as_str).unwrap_or_default()
}

/// `task` with at most `length` messages of its history (the latest).
pub(super) fn trim(mut task: Value, length: Option<u64>) -> Value {
    if let (Some(length), Some(history)) = (length, task["history"].as_array_mut()) {
        let keep = usize::try_from(length).unwrap_or(usize::MAX);
        if history.len() > keep {
            history.drain(..history.len() - keep);
        }
    }
    task
}
