//! A remote agent's reply as a tool's result: a message's parts, a completed task's
//! artifacts (text joined, one data part as structured content, files as references); a
//! failed, rejected or canceled task as the tool's error with the remote status; a task that
//! needs input as a result carrying the question and the ids to answer with. Remote text is
//! quoted as data in every sentence the crate writes around it.

use serde_json::{Value, json};

use super::wire::{Part, Reply, TaskState, text};
use crate::output::ToolOutput;

/// `reply` as the result of the tool `tool`; `Err` is the tool's failure message.
pub(crate) fn to_result(tool: &str, reply: Reply) -> Result<ToolOutput, String> {
    let task = match reply {
        Reply::Message(parts) => return Ok(output(&parts)),
        Reply::Task(task) => task,
    };
    let failed = |how: &str| {
        let status = if task.status.is_empty() { String::new() } else { format!(": {}", quoted(&task.status)) };
        Err(format!("the remote agent's task {how}{status}"))
    };
    match task.state {
        TaskState::Completed => Ok(output(&task.artifacts)),
        TaskState::Failed => failed("failed"),
        TaskState::Rejected => failed("was rejected"),
        TaskState::Canceled => failed("was canceled"),
        TaskState::InputRequired | TaskState::AuthRequired | TaskState::Other(_) => {
            let (what, state) = match &task.state {
                TaskState::InputRequired => ("needs more input", "input_required"),
                TaskState::AuthRequired => ("needs authorization, given out of band", "auth_required"),
                _ => ("is not finished", "unfinished"),
            };
            let context = task.context_id.as_deref().unwrap_or_default();
            let text = format!(
                "The remote agent's task {what}: {}. To answer, call {tool} again with task_id {} and context_id {}.",
                quoted(&task.status),
                quoted(&task.id),
                quoted(context),
            );
            let ids = json!({"state": state, "task_id": task.id, "context_id": context, "message": task.status});
            Ok(ToolOutput::text(text).with_structured(ids))
        }
    }
}

/// Parts as a result: the text parts joined; a single data part as the structured content
/// too; files named by reference.
fn output(parts: &[Part]) -> ToolOutput {
    let mut lines = Vec::new();
    let data: Vec<&Value> = parts
        .iter()
        .filter_map(|part| match part {
            Part::Data(value) => Some(value),
            _ => None,
        })
        .collect();
    let joined = text(parts);
    if !joined.is_empty() {
        lines.push(joined);
    }
    lines.extend(data.iter().map(ToString::to_string));
    for part in parts {
        if let Part::File { name, media_type, url } = part {
            let name = name.as_deref().unwrap_or("a file");
            let media = media_type.as_deref().map(|media| format!(" ({media})")).unwrap_or_default();
            let place = url.as_deref().map_or_else(|| " sent inline".to_owned(), |url| format!(" at {url}"));
            lines.push(format!("{name}{media}{place}"));
        }
    }
    let output = ToolOutput::text(lines.join("\n"));
    match data.as_slice() {
        [one] => output.with_structured((*one).clone()),
        _ => output,
    }
}

/// `text` as a JSON string: remote text, quoted as data.
fn quoted(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}
