//! `ListTasks`: the caller's tasks from the task store, filtered by context and state, the
//! most recently updated first, in pages that a cursor chains (a page token names the last
//! task of the page before).

use serde_json::{Map, Value, json};

use super::error::RpcError;
use super::lookup::{find, state, trim};
use super::shared::Shared;

/// The most tasks a page holds, and the default size of one.
const MAX_PAGE: u64 = 100;
const DEFAULT_PAGE: u64 = 50;

pub(super) async fn list(shared: &Shared, params: &Map<String, Value>, owner: Option<&str>) -> Result<Value, RpcError> {
    let optional_string = |key: &str| match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.as_str())),
        Some(_) => Err(RpcError::invalid_params(format!("params.{key}: must be a string"))),
    };
    let optional_count = |key: &str| match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| RpcError::invalid_params(format!("params.{key}: must be a non-negative integer"))),
    };
    let context = optional_string("contextId")?;
    let status = optional_string("status")?;
    if let Some(status) = status.filter(|status| !STATES.contains(status)) {
        return Err(RpcError::invalid_params(format!(
            "params.status: {status} is not a task state ({})",
            STATES.join(", ")
        )));
    }
    let after = match optional_string("statusTimestampAfter")? {
        None => None,
        Some(text) => Some(timestamp(text).ok_or_else(|| {
            RpcError::invalid_params(format!("params.statusTimestampAfter: {text} is not an RFC 3339 timestamp"))
        })?),
    };
    let page_size = optional_count("pageSize")?.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&page_size) {
        return Err(RpcError::invalid_params(format!("params.pageSize: must be between 1 and {MAX_PAGE}")));
    }
    let history_length = optional_count("historyLength")?;
    let include_artifacts = params.get("includeArtifacts").and_then(Value::as_bool).unwrap_or(false);
    let after_key = match optional_string("pageToken")? {
        None | Some("") => None,
        Some(token) => Some(
            cursor(token).ok_or_else(|| RpcError::invalid_params("params.pageToken: not a token this server gave"))?,
        ),
    };
    let ids = shared
        .store
        .ids("a2a:")
        .await
        .map_err(|error| RpcError::new(-32004, "UNSUPPORTED_OPERATION", error.to_string()))?;
    let mut ids: Vec<&str> = ids.iter().filter_map(|key| key.strip_prefix("a2a:")).collect();
    ids.sort_unstable();
    let mut tasks = Vec::new();
    for id in ids {
        // A task that expired or is another caller's since the listing is left out.
        let Ok((_, task)) = find(shared, id, owner).await else { continue };
        let updated = task.pointer("/status/timestamp").and_then(Value::as_str).and_then(timestamp);
        if context.is_some_and(|context| task["contextId"] != context)
            || status.is_some_and(|status| state(&task) != status)
            || after.is_some_and(|after| updated.is_none_or(|updated| updated <= after))
        {
            continue;
        }
        let nanos = updated.map_or(0, time::OffsetDateTime::unix_timestamp_nanos);
        tasks.push(((nanos, id.to_owned()), task));
    }
    // The most recently updated first, as the spec asks; ties by id, so the order is total.
    tasks.sort_by(|(a, _), (b, _)| b.cmp(a));
    let total = tasks.len();
    let page_size = usize::try_from(page_size).unwrap_or(usize::MAX);
    let (page, next) = page(tasks, after_key.as_ref(), page_size, |mut task| {
        if !include_artifacts {
            task.as_object_mut().map(|task| task.remove("artifacts"));
        }
        trim(task, history_length)
    });
    Ok(json!({"tasks": page, "nextPageToken": next, "pageSize": page.len(), "totalSize": total}))
}

/// The page of `tasks` (sorted, the newest first) after the key `after`, at most `size` of
/// them, each as `shown` writes it; and the next page's token (empty after the last).
///
/// A page starts after the key the last one ended with, not at an offset: a task updated
/// since moved ahead of it and is not listed twice, and no task shifts another into the gap
/// between pages.
fn page(
    tasks: Vec<((i128, String), Value)>,
    after: Option<&(i128, String)>,
    size: usize,
    shown: impl Fn(Value) -> Value,
) -> (Vec<Value>, String) {
    let mut rest = tasks.into_iter().filter(|(key, _)| after.is_none_or(|after| key < after)).peekable();
    let mut page = Vec::new();
    let mut last = None;
    while page.len() < size {
        let Some((key, task)) = rest.next() else { break };
        page.push(shown(task));
        last = Some(key);
    }
    let next = match last {
        Some((nanos, id)) if rest.peek().is_some() => format!("{nanos}:{id}"),
        _ => String::new(),
    };
    (page, next)
}

/// The sort key a page token names: the last task of the page before (its update time in
/// nanoseconds, its id).
fn cursor(token: &str) -> Option<(i128, String)> {
    let (nanos, id) = token.split_once(':')?;
    Some((nanos.parse().ok()?, id.to_owned()))
}

/// Every task state, as 1.0 spells them.
const STATES: &[&str] = &[
    "TASK_STATE_SUBMITTED",
    "TASK_STATE_WORKING",
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_REJECTED",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_AUTH_REQUIRED",
];

fn timestamp(text: &str) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
}
