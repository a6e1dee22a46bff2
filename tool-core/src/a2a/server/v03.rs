//! Protocol 0.3 on the same endpoint, for the clients that still speak it: its methods
//! (`message/send`, `tasks/get`…) and shapes (`kind` members, `user`/`agent` roles, parts
//! with a `kind`, kebab-case states, `final` on status updates) translated to 1.0's on the way
//! in and back on the way out, so every task is kept, and answers, in one form.

use serde_json::{Map, Value, json};

use super::run::is_settled;

/// 1.0's method for 0.3's `method`, if it is one of 0.3's.
pub(super) fn method(method: &str) -> Option<&'static str> {
    Some(match method {
        "message/send" => "SendMessage",
        "message/stream" => "SendStreamingMessage",
        "tasks/get" => "GetTask",
        "tasks/cancel" => "CancelTask",
        "tasks/resubscribe" => "SubscribeToTask",
        "tasks/pushNotificationConfig/set" => "CreateTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/get" => "GetTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/list" => "ListTaskPushNotificationConfigs",
        "tasks/pushNotificationConfig/delete" => "DeleteTaskPushNotificationConfig",
        _ => return None,
    })
}

/// 0.3's params in 1.0's shape: the message's role and parts, and `blocking` (0.3's default,
/// as its SDKs read it, is to wait) as `returnImmediately`.
pub(super) fn params(mut params: Map<String, Value>) -> Map<String, Value> {
    if let Some(Value::Object(message)) = params.get_mut("message") {
        message.remove("kind");
        if let Some(role) = message.get("role").and_then(Value::as_str) {
            let role = match role {
                "user" => "ROLE_USER",
                "agent" => "ROLE_AGENT",
                other => other,
            };
            message.insert("role".to_owned(), json!(role));
        }
        if let Some(Value::Array(parts)) = message.get_mut("parts") {
            for part in parts {
                *part = part_in(part.take());
            }
        }
    }
    if let Some(Value::Object(configuration)) = params.get_mut("configuration") {
        let blocking = configuration.remove("blocking").and_then(|blocking| blocking.as_bool()).unwrap_or(true);
        configuration.insert("returnImmediately".to_owned(), json!(!blocking));
    }
    params
}

fn part_in(part: Value) -> Value {
    let Value::Object(mut part) = part else { return part };
    let kind = part.remove("kind");
    if kind.as_ref().and_then(Value::as_str) == Some("file")
        && let Some(Value::Object(file)) = part.remove("file")
    {
        let renames = [("uri", "url"), ("bytes", "raw"), ("name", "filename"), ("mimeType", "mediaType")];
        for (old, new) in renames {
            if let Some(value) = file.get(old) {
                part.insert(new.to_owned(), value.clone());
            }
        }
    }
    Value::Object(part)
}

/// A 1.0 result in 0.3's shape: a task or a message itself (with its `kind`), an event with
/// its `kind` (and `final` on a status update).
pub(super) fn result(result: Value) -> Value {
    let Value::Object(mut result) = result else { return result };
    if let Some(task) = result.remove("task") {
        return task_out(task);
    }
    if let Some(message) = result.remove("message") {
        return message_out(message);
    }
    if let Some(Value::Object(mut update)) = result.remove("statusUpdate") {
        let state = update.get("status").and_then(|status| status.get("state")).and_then(Value::as_str);
        let settled = state.is_some_and(is_settled);
        update.insert("kind".to_owned(), json!("status-update"));
        update.insert("final".to_owned(), json!(settled));
        if let Some(status) = update.remove("status") {
            update.insert("status".to_owned(), status_out(status));
        }
        return Value::Object(update);
    }
    if let Some(Value::Object(mut update)) = result.remove("artifactUpdate") {
        update.insert("kind".to_owned(), json!("artifact-update"));
        if let Some(artifact) = update.remove("artifact") {
            update.insert("artifact".to_owned(), artifact_out(artifact));
        }
        return Value::Object(update);
    }
    // A task itself (GetTask, CancelTask answer one).
    if result.contains_key("status") && result.contains_key("id") {
        return task_out(Value::Object(result));
    }
    // Push notification configs: 0.3 nests each under its task, and lists them bare.
    if let Some(Value::Array(configs)) = result.remove("configs") {
        return configs.into_iter().map(config_out).collect();
    }
    if result.contains_key("url") && result.contains_key("taskId") {
        return config_out(Value::Object(result));
    }
    Value::Object(result)
}

/// A push notification config of 1.0 (flat) in 0.3's shape.
fn config_out(config: Value) -> Value {
    let Value::Object(mut config) = config else { return config };
    let task = config.remove("taskId").unwrap_or_default();
    if let Some(Value::Object(mut authentication)) = config.remove("authentication") {
        let scheme = authentication.remove("scheme").unwrap_or_default();
        authentication.insert("schemes".to_owned(), json!([scheme]));
        config.insert("authentication".to_owned(), Value::Object(authentication));
    }
    json!({"taskId": task, "pushNotificationConfig": config})
}

fn task_out(task: Value) -> Value {
    let Value::Object(mut task) = task else { return task };
    task.insert("kind".to_owned(), json!("task"));
    if let Some(status) = task.remove("status") {
        task.insert("status".to_owned(), status_out(status));
    }
    if let Some(Value::Array(artifacts)) = task.remove("artifacts") {
        task.insert("artifacts".to_owned(), artifacts.into_iter().map(artifact_out).collect());
    }
    if let Some(Value::Array(history)) = task.remove("history") {
        task.insert("history".to_owned(), history.into_iter().map(message_out).collect());
    }
    Value::Object(task)
}

fn status_out(status: Value) -> Value {
    let Value::Object(mut status) = status else { return status };
    if let Some(state) = status.get("state").and_then(Value::as_str) {
        let state = state.strip_prefix("TASK_STATE_").unwrap_or(state).to_ascii_lowercase().replace('_', "-");
        status.insert("state".to_owned(), json!(state));
    }
    if let Some(message) = status.remove("message") {
        status.insert("message".to_owned(), message_out(message));
    }
    Value::Object(status)
}

fn message_out(message: Value) -> Value {
    let Value::Object(mut message) = message else { return message };
    message.insert("kind".to_owned(), json!("message"));
    if let Some(role) = message.get("role").and_then(Value::as_str) {
        let role = if role == "ROLE_AGENT" { "agent" } else { "user" };
        message.insert("role".to_owned(), json!(role));
    }
    if let Some(Value::Array(parts)) = message.remove("parts") {
        message.insert("parts".to_owned(), parts.into_iter().map(part_out).collect());
    }
    Value::Object(message)
}

fn artifact_out(artifact: Value) -> Value {
    let Value::Object(mut artifact) = artifact else { return artifact };
    if let Some(Value::Array(parts)) = artifact.remove("parts") {
        artifact.insert("parts".to_owned(), parts.into_iter().map(part_out).collect());
    }
    Value::Object(artifact)
}

fn part_out(part: Value) -> Value {
    let Value::Object(mut part) = part else { return part };
    if part.contains_key("text") {
        part.remove("mediaType");
        part.insert("kind".to_owned(), json!("text"));
    } else if part.contains_key("data") {
        part.remove("mediaType");
        part.insert("kind".to_owned(), json!("data"));
    } else {
        let mut file = Map::new();
        for (new, old) in [("uri", "url"), ("bytes", "raw"), ("name", "filename"), ("mimeType", "mediaType")] {
            if let Some(value) = part.remove(old) {
                file.insert(new.to_owned(), value);
            }
        }
        part.insert("kind".to_owned(), json!("file"));
        part.insert("file".to_owned(), Value::Object(file));
    }
    Value::Object(part)
}
