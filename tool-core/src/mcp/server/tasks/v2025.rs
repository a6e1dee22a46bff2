//! Tasks as 2025-11-25 defines them, from the same store and runs as the extension's: a
//! task's wire shape ([`task_json`]), and `tasks/get`, `tasks/result`, `tasks/list` and
//! `tasks/cancel` with that revision's rules. What differs from the extension: a call whose
//! result is an error ends the task `failed`; `tasks/result` waits for the end and answers
//! what the call would have; `tasks/cancel` ends the task `cancelled` before it answers (and
//! refuses a task that already ended); the client's questions go to it directly
//! (`run.rs`).

use core::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{DetailedTask, ErrorCode, TaskPayload};
use serde_json::{Value, json};

use crate::mcp::server::tasks::Tasks;
use crate::mcp::server::tasks::asked::RELATED_TASK;
use crate::mcp::server::tasks::serve::{unavailable, unknown};

/// How many tasks one `tasks/list` page holds.
const PAGE: usize = 100;

/// `task` as 2025-11-25's `Task`: `ttl` (null for unlimited) and `pollInterval` in
/// milliseconds, and a call that ended in an error `failed`, with its text as the status
/// message.
pub(in crate::mcp) fn task_json(task: &DetailedTask) -> Value {
    let base = &task.task;
    let failed_call = match &task.payload {
        TaskPayload::Completed { result } => result.get("isError") == Some(&Value::Bool(true)),
        _ => false,
    };
    let status = if failed_call { json!("failed") } else { serde_json::to_value(base.status).unwrap_or_default() };
    let mut wire = json!({
        "taskId": base.task_id,
        "status": status,
        "createdAt": base.created_at,
        "lastUpdatedAt": base.last_updated_at,
        "ttl": base.ttl_ms,
    });
    let message = base.status_message.clone().or_else(|| match &task.payload {
        TaskPayload::Completed { result } if failed_call => result["content"][0]["text"].as_str().map(str::to_owned),
        TaskPayload::Failed { error } => error.get("message").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    });
    if let Some(message) = message {
        wire["statusMessage"] = json!(message);
    }
    if let Some(interval) = base.poll_interval_ms {
        wire["pollInterval"] = json!(interval);
    }
    wire
}

/// The 2025-11-25 status name `task` shows.
fn status_name(task: &DetailedTask) -> String {
    task_json(task)["status"].as_str().unwrap_or_default().to_owned()
}

impl Tasks {
    /// `tasks/get`.
    pub(in crate::mcp) async fn get_2025(&self, id: &str, caller: Option<&str>) -> Result<Value, ErrorData> {
        Ok(task_json(&self.get(id, caller).await?.task))
    }

    /// `tasks/result`: waits until the task ends, then answers what its call would have (a
    /// result tied to the task, or the call's error).
    pub(in crate::mcp) async fn result_2025(&self, id: &str, caller: Option<&str>) -> Result<Value, ErrorData> {
        // Bounded: a task ends, or its lease lapses (read as failed), or it expires (unknown).
        let pause = self.settings.input_poll.max(Duration::from_millis(10));
        let task = loop {
            let task = self.get(id, caller).await?.task;
            if task.status().is_terminal() {
                break task;
            }
            tokio::time::sleep(pause).await;
        };
        match task.payload {
            TaskPayload::Completed { result } => {
                let mut result = Value::Object(result);
                // Recorded as the extension writes a result; 2025-11-25 has no `resultType`.
                if let Value::Object(fields) = &mut result {
                    fields.remove("resultType");
                }
                let meta = result.as_object_mut().map(|fields| fields.entry("_meta").or_insert_with(|| json!({})));
                if let Some(Value::Object(meta)) = meta {
                    meta.insert(RELATED_TASK.to_owned(), json!({"taskId": id}));
                }
                Ok(result)
            }
            TaskPayload::Failed { error } => {
                let code = error.get("code").and_then(Value::as_i64).and_then(|code| i32::try_from(code).ok());
                let message = error.get("message").and_then(Value::as_str).unwrap_or("the task failed").to_owned();
                Err(ErrorData::new(ErrorCode(code.unwrap_or(-32603)), message, error.get("data").cloned()))
            }
            _ => Err(ErrorData::internal_error(
                format!("Task {id} was cancelled before it ended: it has no result"),
                None,
            )),
        }
    }

    /// `tasks/list`: the caller's tasks, oldest first, a page at a time; the cursor is where
    /// the last page ended, so a task created meanwhile neither repeats nor hides another.
    pub(in crate::mcp) async fn list_2025(
        &self,
        cursor: Option<&str>,
        caller: Option<&str>,
    ) -> Result<Value, ErrorData> {
        let after = match cursor {
            None => None,
            Some(cursor) => Some(cursor.split_once('|').ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("Invalid cursor for tasks/list: {cursor:?} was not given by this server"),
                    None,
                )
            })?),
        };
        let mut tasks = Vec::new();
        for id in self.store.ids("").await.map_err(unavailable)? {
            // Tasks of others (another caller's, A2A's) and those gone meanwhile are not listed.
            if let Ok(answer) = self.get(&id, caller).await {
                tasks.push(answer.task);
            }
        }
        tasks.sort_by(|a, b| (&a.task.created_at, &a.task.task_id).cmp(&(&b.task.created_at, &b.task.task_id)));
        let start = after.map_or(0, |(created, id)| {
            tasks.partition_point(|task| (task.task.created_at.as_str(), task.task.task_id.as_str()) <= (created, id))
        });
        let page: Vec<&DetailedTask> = tasks.iter().skip(start).take(PAGE).collect();
        let mut answer = json!({"tasks": page.iter().map(|task| task_json(task)).collect::<Vec<_>>()});
        if start + page.len() < tasks.len()
            && let Some(last) = page.last()
        {
            answer["nextCursor"] = json!(format!("{}|{}", last.task.created_at, last.task.task_id));
        }
        Ok(answer)
    }

    /// `tasks/cancel`: the task ends `cancelled` now (its tool is told to stop), and the
    /// answer is the cancelled task; a task that already ended is refused (-32602).
    pub(in crate::mcp) async fn cancel_2025(&self, id: &str, caller: Option<&str>) -> Result<Value, ErrorData> {
        let task = self.get(id, caller).await?.task;
        let refuse = |task: &DetailedTask| {
            let status = status_name(task);
            ErrorData::invalid_params(format!("Cannot cancel task {id}: already in terminal status '{status}'"), None)
        };
        if task.status().is_terminal() {
            return Err(refuse(&task));
        }
        let mut base = task.task.clone();
        base.status_message = Some("Cancelled by the client".to_owned());
        base.last_updated_at = rmcp::task_manager::current_timestamp();
        let cancelled = DetailedTask::new(base, TaskPayload::Cancelled);
        let state = serde_json::to_string(&cancelled).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let record = self.owned(id, caller).await?;
        if !self.store.save(id, &state, true, record.lease_until_ms).await.map_err(unavailable)? {
            // It ended (or expired) between the read and the write.
            return Err(match self.get(id, caller).await {
                Ok(ended) => refuse(&ended.task),
                Err(_) => unknown(id),
            });
        }
        // The running replica stops its tool: at once here, at its next heartbeat elsewhere.
        let _ = self.store.request_cancel(id).await;
        if let Some((cancellation, _)) = self.running().get(id) {
            cancellation.cancel();
        }
        Ok(task_json(&cancelled))
    }
}
