//! Push notification configs: 1.0's `Create/Get/List/DeleteTaskPushNotificationConfig` and
//! 0.3's `tasks/pushNotificationConfig/{set,get,list,delete}` (translated to 1.0's names on
//! the way in), and the config a `SendMessage` carries. Each is kept in the task store beside
//! its task, under `a2a-push:{task}:{config}` and with the task's time to live, so that every
//! replica reads them and the replica running the task delivers to them (`push_delivery.rs`).

use serde_json::{Map, Value, json};

use super::error::RpcError;
use super::lookup::find;
use super::shared::Shared;
use crate::tasks::TaskRecord;

/// The key of config `config` of task `task` in the task store.
pub(super) fn store_key(task: &str, config: &str) -> String {
    format!("a2a-push:{task}:{config}")
}

/// Runs the push method `method` (1.0's name) with `params`, for the caller `owner`.
pub(super) async fn call(
    shared: &Shared,
    method: &str,
    params: &Map<String, Value>,
    owner: Option<&str>,
) -> Result<Value, RpcError> {
    if !shared.push.enabled {
        return Err(RpcError::new(-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED", "this agent sends no push notifications"));
    }
    let task = task_id(params)?;
    // Only the task's owner sees or changes its configs; another caller is told the task does
    // not exist, as for the task itself.
    find(shared, task, owner).await?;
    match method {
        "CreateTaskPushNotificationConfig" => {
            let config = config(task, params)?;
            keep(shared, task, &config).await?;
            Ok(config)
        }
        "GetTaskPushNotificationConfig" => {
            let id = config_id(params)?;
            load(shared, task, id).await?.ok_or_else(|| missing(task, id))
        }
        "ListTaskPushNotificationConfigs" => Ok(json!({"configs": configs(shared, task).await?, "nextPageToken": ""})),
        _ => {
            let id = config_id(params)?;
            if load(shared, task, id).await?.is_none() {
                return Err(missing(task, id));
            }
            // A deleted config is ended with no content: the store never writes it again, and
            // it expires with its task.
            let key = store_key(task, id);
            shared.store.save(&key, "null", true, 0).await.map_err(|error| RpcError::internal(error.to_string()))?;
            Ok(json!({}))
        }
    }
}

/// Keeps the config a `SendMessage` carries (`configuration.taskPushNotificationConfig`, or
/// 0.3's `pushNotificationConfig`) for the task `task`.
pub(super) async fn from_send(shared: &Shared, task: &str, configuration: &Value) -> Result<(), RpcError> {
    let Some(given) =
        configuration.get("taskPushNotificationConfig").or_else(|| configuration.get("pushNotificationConfig"))
    else {
        return Ok(());
    };
    if !shared.push.enabled {
        return Err(RpcError::new(-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED", "this agent sends no push notifications"));
    }
    let Value::Object(given) = given else {
        return Err(RpcError::invalid_params("params.configuration.taskPushNotificationConfig: must be an object"));
    };
    let config = config(task, given)?;
    keep(shared, task, &config).await
}

/// The live configs of task `task`, as 1.0 answers them.
pub(super) async fn configs(shared: &Shared, task: &str) -> Result<Vec<Value>, RpcError> {
    let prefix = store_key(task, "");
    let keys = shared.store.ids(&prefix).await.map_err(|error| RpcError::internal(error.to_string()))?;
    let mut configs = Vec::new();
    for key in keys {
        if let Some(id) = key.strip_prefix(&prefix)
            && let Some(config) = load(shared, task, id).await?
        {
            configs.push(config);
        }
    }
    configs.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    Ok(configs)
}

/// The member naming the task: 1.0's `taskId`, or `task_id` (the proto field's own name,
/// which protobuf's JSON mapping accepts too).
fn task_member(params: &Map<String, Value>) -> Option<&Value> {
    params.get("taskId").or_else(|| params.get("task_id"))
}

/// The task a request names: 1.0's `taskId`, or 0.3's `id` (the task, in its get, list and
/// delete).
fn task_id(params: &Map<String, Value>) -> Result<&str, RpcError> {
    let task = match task_member(params) {
        Some(task) => task,
        None => params.get("id").unwrap_or(&Value::Null),
    };
    task.as_str()
        .filter(|task| !task.is_empty())
        .ok_or_else(|| RpcError::invalid_params("params.taskId: a non-empty string is required"))
}

/// The config a request names: 1.0's `id` beside `taskId`, or 0.3's `pushNotificationConfigId`.
fn config_id(params: &Map<String, Value>) -> Result<&str, RpcError> {
    let id = if task_member(params).is_some() { params.get("id") } else { params.get("pushNotificationConfigId") };
    id.and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| RpcError::invalid_params("params.id: the config's id, a non-empty string, is required"))
}

/// The config `given` states for task `task` (1.0's flat shape, or the config nested in
/// `pushNotificationConfig`), checked, with an id (a new one when none is given).
fn config(task: &str, given: &Map<String, Value>) -> Result<Value, RpcError> {
    let fields = match given.get("pushNotificationConfig") {
        Some(Value::Object(nested)) => nested,
        _ => given,
    };
    let invalid = |message: String| Err(RpcError::invalid_params(message));
    let Some(url) = fields.get("url").and_then(Value::as_str) else {
        return invalid("params.url: the webhook's URL is required".to_owned());
    };
    match reqwest::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host().is_some() => {}
        _ => return invalid(format!("params.url: {url:?} is not an http or https URL")),
    }
    let id = match fields.get("id") {
        None | Some(Value::Null) => uuid::Uuid::new_v4().to_string(),
        Some(Value::String(id)) if !id.is_empty() && !id.contains(':') => id.clone(),
        Some(_) => return invalid("params.id: must be a non-empty string without ':'".to_owned()),
    };
    let mut config = json!({"taskId": task, "id": id, "url": url});
    if let Some(token) = fields.get("token").filter(|token| !token.is_null()) {
        let Some(token) = token.as_str() else { return invalid("params.token: must be a string".to_owned()) };
        config["token"] = json!(token);
    }
    if let Some(authentication) = fields.get("authentication").filter(|auth| !auth.is_null()) {
        let scheme = authentication.get("scheme").and_then(Value::as_str).or_else(|| {
            // 0.3 names a list of schemes.
            authentication.get("schemes")?.as_array()?.first()?.as_str()
        });
        let Some(scheme) = scheme.filter(|scheme| !scheme.is_empty()) else {
            return invalid("params.authentication.scheme: the scheme (Bearer, Basic…) is required".to_owned());
        };
        let credentials = authentication.get("credentials").and_then(Value::as_str).unwrap_or_default();
        config["authentication"] = json!({"scheme": scheme, "credentials": credentials});
    }
    Ok(config)
}

/// Keeps `config` of task `task`, with the task's time to live.
async fn keep(shared: &Shared, task: &str, config: &Value) -> Result<(), RpcError> {
    let id = config["id"].as_str().unwrap_or_default();
    let record = TaskRecord::new(config.to_string(), 0);
    let key = store_key(task, id);
    shared.store.create(&key, record, shared.settings.ttl).await.map_err(|error| RpcError::internal(error.to_string()))
}

/// Config `id` of task `task`, unless it does not exist or was deleted.
async fn load(shared: &Shared, task: &str, id: &str) -> Result<Option<Value>, RpcError> {
    let record =
        shared.store.load(&store_key(task, id)).await.map_err(|error| RpcError::internal(error.to_string()))?;
    Ok(record.filter(|record| !record.ended).and_then(|record| serde_json::from_str(&record.state).ok()))
}

fn missing(task: &str, id: &str) -> RpcError {
    RpcError::new(-32001, "TASK_NOT_FOUND", format!("task {task} has no push notification config {id:?}"))
}
