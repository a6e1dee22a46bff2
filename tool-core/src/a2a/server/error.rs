//! A JSON-RPC error as A2A spells it: the spec's code, its message, and a
//! `google.rpc.ErrorInfo` with the reason.

use serde_json::{Value, json};

/// A JSON-RPC error as A2A spells it.
#[derive(Debug)]
pub(super) struct RpcError {
    code: i64,
    reason: &'static str,
    message: String,
}

impl RpcError {
    pub(super) fn new(code: i64, reason: &'static str, message: impl Into<String>) -> Self {
        RpcError { code, reason, message: message.into() }
    }

    pub(super) fn parse(message: impl Into<String>) -> Self {
        RpcError::new(-32700, "PARSE_ERROR", message)
    }

    pub(super) fn invalid_request(message: impl Into<String>) -> Self {
        RpcError::new(-32600, "INVALID_REQUEST", message)
    }

    pub(super) fn invalid_params(message: impl Into<String>) -> Self {
        RpcError::new(-32602, "INVALID_PARAMS", message)
    }

    pub(super) fn not_found(id: &str) -> Self {
        RpcError::new(-32001, "TASK_NOT_FOUND", format!("Task not found: {id}"))
    }

    pub(super) fn unsupported(message: impl Into<String>) -> Self {
        RpcError::new(-32004, "UNSUPPORTED_OPERATION", message)
    }

    pub(super) fn version(version: &str) -> Self {
        RpcError::new(
            -32009,
            "VERSION_NOT_SUPPORTED",
            format!("A2A version '{version}' is not supported (this agent speaks 1.0)"),
        )
    }

    pub(super) fn internal(message: impl Into<String>) -> Self {
        RpcError::new(-32603, "INTERNAL", message)
    }

    /// The error response to request `id`.
    pub(super) fn response(&self, id: &Value) -> Value {
        let info = json!({
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": self.reason,
            "domain": "a2a-protocol.org",
        });
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": self.code, "message": self.message, "data": [info]}})
    }

    /// The error as the HTTP+JSON binding answers it: an HTTP status, and a
    /// `google.rpc.Status` body carrying the same `ErrorInfo`.
    pub(super) fn http(&self) -> (u16, Value) {
        let (status, name) = match self.code {
            -32001 | -32601 => (404, "NOT_FOUND"),
            -32002 | -32004 => (400, "FAILED_PRECONDITION"),
            -32003 | -32007 => (501, "UNIMPLEMENTED"),
            -32603 => (500, "INTERNAL"),
            _ => (400, "INVALID_ARGUMENT"),
        };
        let info = json!({
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": self.reason,
            "domain": "a2a-protocol.org",
        });
        (status, json!({"error": {"code": status, "status": name, "message": self.message, "details": [info]}}))
    }
}
