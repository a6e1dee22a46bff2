//! `ListTasks`: the caller's tasks from the task store, filtered by context and state, the
//! most recently updated first, in pages that a cursor chains (a page token names the last
//! task of the page before). A store that keeps a listing ([`TaskStore::query`]) gives the
//! page's ids and the count; only the page's tasks are read. Each save of a task writes its
//! listing (`listed.rs`).

use serde_json::{Map, Value, json};

use super::error::RpcError;
use super::listed::{listing, timestamp};
use super::lookup::{find, trim};
use super::run::store_key;
use super::shared::Shared;
use crate::tasks::{ListPage, ListPosition, ListQuery};

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
    let mut query = ListQuery::new(owner.map(str::to_owned), usize::try_from(page_size).unwrap_or(usize::MAX));
    query.context = context.map(str::to_owned);
    query.state = status.map(str::to_owned);
    query.updated_after_us = after;
    query.after = after_key.map(|(micros, id)| ListPosition::new(micros, store_key(&id)));
    let listed = shared.store.query(&query).await.map_err(|error| RpcError::internal(error.to_string()))?;
    let (tasks, total, next) = match listed {
        Some(page) => indexed(shared, &query, page).await,
        None => scanned(shared, &query).await?,
    };
    let next = next.map_or_else(String::new, |position| {
        format!("{}:{}", position.updated_us, position.id.strip_prefix("a2a:").unwrap_or_default())
    });
    let page: Vec<Value> = tasks
        .into_iter()
        .map(|(_, mut task)| {
            if !include_artifacts {
                task.as_object_mut().map(|task| task.remove("artifacts"));
            }
            trim(task, history_length)
        })
        .collect();
    Ok(json!({"tasks": page, "nextPageToken": next, "pageSize": page.len(), "totalSize": total}))
}

/// A page's tasks with their positions, the count under the filters, and where the next page
/// starts (`None` after the last).
type Page = (Vec<(ListPosition, Value)>, u64, Option<ListPosition>);

/// The tasks of a page the store's listing gave, each read as the caller may see it: one that
/// expired since, or no longer matches (its listing not yet written), is left out, and the
/// next page still starts after it.
async fn indexed(shared: &Shared, query: &ListQuery, page: ListPage) -> Page {
    let next = page.tasks.last().filter(|_| page.more).cloned();
    let mut tasks = Vec::with_capacity(page.tasks.len());
    for position in page.tasks {
        let Some(id) = position.id.strip_prefix("a2a:") else { continue };
        let Ok((_, task)) = find(shared, id, query.owner.as_deref()).await else { continue };
        if listing(&task, query.owner.clone()).matches(query) {
            tasks.push((position, task));
        }
    }
    (tasks, page.total, next)
}

/// The page read from every task, for a store that keeps no listing: each loaded, filtered,
/// sorted, and the page taken after the cursor.
async fn scanned(shared: &Shared, query: &ListQuery) -> Result<Page, RpcError> {
    let ids = shared
        .store
        .ids("a2a:")
        .await
        .map_err(|error| RpcError::new(-32004, "UNSUPPORTED_OPERATION", error.to_string()))?;
    let mut tasks = Vec::new();
    for key in ids {
        // A task that expired or is another caller's since the listing is left out.
        let Some(id) = key.strip_prefix("a2a:") else { continue };
        let Ok((_, task)) = find(shared, id, query.owner.as_deref()).await else { continue };
        let listed = listing(&task, query.owner.clone());
        if listed.matches(query) {
            tasks.push((listed.position(&key), task));
        }
    }
    // The most recently updated first, as the spec asks; ties by id, so the order is total.
    tasks.sort_by(|(a, _), (b, _)| a.cmp(b));
    let total = u64::try_from(tasks.len()).unwrap_or(u64::MAX);
    let mut rest =
        tasks.into_iter().filter(|(position, _)| query.after.as_ref().is_none_or(|after| position.follows(after)));
    let page: Vec<_> = rest.by_ref().take(query.limit).collect();
    let next = page.last().map(|(position, _)| position.clone()).filter(|_| rest.next().is_some());
    Ok((page, total, next))
}

/// The position a page token names: the last task of the page before (its update time in
/// microseconds, its id).
fn cursor(token: &str) -> Option<(u64, String)> {
    let (micros, id) = token.split_once(':')?;
    Some((micros.parse().ok()?, id.to_owned()))
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
