//! What the task store's listing knows of an A2A task ([`Listing`]), written after each save
//! of it, so `ListTasks` (`list.rs`) reads a page of ids rather than every task.

use serde_json::Value;

use crate::tasks::{Listing, TaskStore};

/// What a listing knows of `task`, of `owner`: its status's time, context and state.
pub(super) fn listing(task: &Value, owner: Option<String>) -> Listing {
    let updated = task.pointer("/status/timestamp").and_then(Value::as_str).and_then(timestamp).unwrap_or(0);
    let context = task["contextId"].as_str().unwrap_or_default();
    let state = task.pointer("/status/state").and_then(Value::as_str).unwrap_or_default();
    Listing::new(updated, owner, context, state)
}

/// Keeps `task`'s place in the store's listing, under its store `key`, after a save of it; a
/// store that fails is logged, and the task listed again at its next save.
pub(super) async fn index(store: &dyn TaskStore, key: &str, task: &Value, owner: Option<&str>) {
    let listed = listing(task, owner.map(str::to_owned));
    if let Err(error) = store.index(key, &listed).await {
        tracing::warn!(%key, %error, "a2a: the task store failed to list the task");
    }
}

/// An RFC 3339 time in microseconds since the Unix epoch (0 before it).
pub(super) fn timestamp(text: &str) -> Option<u64> {
    let at = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    Some(u64::try_from(at.unix_timestamp_nanos() / 1000).unwrap_or(0))
}
