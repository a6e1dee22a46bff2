//! The HTTP+JSON binding of 1.0 on the client: each JSON-RPC request the client builds sent as
//! the binding's request (`POST /message:send`, `GET /tasks/{id}`…), and each reply read back
//! into the JSON-RPC form the rest of the client reads, a `google.rpc.Status` error into the
//! A2A error code its `ErrorInfo` names.

use serde_json::{Value, json};

/// The HTTP method, URL and body of JSON-RPC request `rpc` on the interface at `base`.
pub(crate) fn request(base: &str, rpc: &Value) -> (reqwest::Method, String, Option<Value>) {
    let base = base.trim_end_matches('/');
    let params = rpc.get("params").cloned().unwrap_or_else(|| json!({}));
    let task = params["id"].as_str().unwrap_or_default().to_owned();
    match rpc["method"].as_str().unwrap_or_default() {
        "SendStreamingMessage" => (reqwest::Method::POST, format!("{base}/message:stream"), Some(params)),
        "GetTask" => (reqwest::Method::GET, format!("{base}/tasks/{task}"), None),
        "CancelTask" => (reqwest::Method::POST, format!("{base}/tasks/{task}:cancel"), None),
        _ => (reqwest::Method::POST, format!("{base}/message:send"), Some(params)),
    }
}

/// A reply of the binding, with HTTP `status`, as a JSON-RPC response.
pub(crate) fn response(status: u16, body: Value) -> Value {
    if (200..300).contains(&status) {
        return json!({"result": body});
    }
    let error = &body["error"];
    let reason = error["details"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|detail| detail["reason"].as_str())
        .unwrap_or_default();
    let code = match reason {
        "TASK_NOT_FOUND" => -32001,
        "TASK_NOT_CANCELABLE" => -32002,
        "PUSH_NOTIFICATION_NOT_SUPPORTED" => -32003,
        "UNSUPPORTED_OPERATION" => -32004,
        "CONTENT_TYPE_NOT_SUPPORTED" => -32005,
        "INVALID_AGENT_RESPONSE" => -32006,
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED" => -32007,
        "EXTENSION_SUPPORT_REQUIRED" => -32008,
        "VERSION_NOT_SUPPORTED" => -32009,
        "INVALID_PARAMS" | "INVALID_ARGUMENT" => -32602,
        // No A2A reason: the HTTP status stands for the code.
        _ => i64::from(status),
    };
    let message = error["message"].as_str().map_or_else(|| format!("HTTP {status}: {body}"), str::to_owned);
    json!({"error": {"code": code, "message": message}})
}

/// A streamed event's `data` (the bare result) as a JSON-RPC response's text.
pub(crate) fn event(data: &str) -> String {
    format!(r#"{{"result":{data}}}"#)
}
