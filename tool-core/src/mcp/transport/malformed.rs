//! Malformed JSON-RPC answered in JSON-RPC's own terms. rmcp refuses a POST body it cannot
//! read as a JSON-RPC message with `415 Unsupported Media Type` and a line of plain text;
//! JSON-RPC 2.0 says `-32700` (parse error) for text that is not JSON, `-32600` (invalid
//! request) for JSON that is not a JSON-RPC 2.0 message, and `-32602` (invalid params) for a
//! request whose params are not an object, and the streamable HTTP transport answers an
//! unreadable message with `400 Bad Request` and the error as the body. This layer keeps the
//! body it passes on (a shared buffer, not a copy) and, only when rmcp refused it, words the
//! answer so: a well-formed request costs nothing more than the buffering rmcp does anyway.
//! A request of a known method with params of the wrong shape, which rmcp reads as an
//! unknown method, is told apart on any transport ([`misread`]).

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use serde_json::{Value, json};

/// Answers `request` through `next`, rewording rmcp's refusal of an unreadable body.
pub(in crate::mcp) async fn answer(request: Request, next: Next, max_body: usize) -> Response {
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, max_body).await else {
        let error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message":
            format!("Invalid Request: the body is larger than the {max_body} bytes this server reads")}});
        return (StatusCode::PAYLOAD_TOO_LARGE, [(header::CONTENT_TYPE, "application/json")], error.to_string())
            .into_response();
    };
    // What rmcp would drop of the message is kept (`kept.rs`): the body it reads may differ.
    let passed = match crate::mcp::transport::kept::message(&bytes) {
        std::borrow::Cow::Borrowed(_) => bytes.clone(),
        std::borrow::Cow::Owned(moved) => Bytes::from(moved),
    };
    let response = next.run(Request::from_parts(parts, Body::from(passed))).await;
    if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
        && let Some((status, error)) = refusal(&bytes)
    {
        return (status, [(header::CONTENT_TYPE, "application/json")], error.to_string()).into_response();
    }
    response
}

/// The JSON-RPC error for a body rmcp could not read, and its HTTP status; `None` when the
/// body reads as a message after all (rmcp refused it for another reason: keep its answer).
fn refusal(bytes: &Bytes) -> Option<(StatusCode, Value)> {
    let error = |code: i64, message: String, id: Value| json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let message: Value = match serde_json::from_slice(bytes) {
        Ok(message) => message,
        Err(parse) => {
            return Some((StatusCode::BAD_REQUEST, error(-32700, format!("Parse error: {parse}"), Value::Null)));
        }
    };
    let Value::Object(fields) = &message else {
        let why = "a message must be one JSON object (batches are not part of MCP)".to_owned();
        return Some((StatusCode::BAD_REQUEST, error(-32600, format!("Invalid Request: {why}"), Value::Null)));
    };
    let invalid =
        |why: &str| Some((StatusCode::BAD_REQUEST, error(-32600, format!("Invalid Request: {why}"), Value::Null)));
    if fields.get("jsonrpc") != Some(&Value::from("2.0")) {
        return invalid("\"jsonrpc\" must be \"2.0\"");
    }
    let id = fields.get("id").cloned().unwrap_or(Value::Null);
    if !(id.is_null() || id.is_string() || id.is_i64() || id.is_u64()) {
        return invalid("\"id\" must be a string or an integer");
    }
    match fields.get("method") {
        Some(Value::String(_)) => {}
        Some(_) => return invalid("\"method\" must be a string"),
        None if fields.contains_key("result") || fields.contains_key("error") => return None,
        None => return invalid("a request needs a \"method\""),
    }
    match fields.get("params") {
        None | Some(Value::Object(_)) => None,
        // A request with an id gets its error as its answer; one without, as an unreadable message.
        Some(_) => {
            let status = if id.is_null() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
            Some((status, error(-32602, "Invalid params: \"params\" must be an object".to_owned(), id)))
        }
    }
}

/// The error for a request rmcp could not read as any it knows. rmcp reads a request of a
/// known method whose params break that method's shape (`tools/call` with `arguments` as an
/// array, a numeric `name`) as a custom method, which would be "method not found"; it is
/// invalid params (-32602), with what serde found wrong.
#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
pub(in crate::mcp) fn misread(method: &str, params: Option<Value>) -> rmcp::ErrorData {
    fn check<T: serde::de::DeserializeOwned>(params: Option<Value>) -> Option<String> {
        let params = params.unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        serde_json::from_value::<T>(params).err().map(|error| error.to_string())
    }
    let problem = match method {
        "tools/call" => check::<rmcp::model::CallToolRequestParams>(params),
        "prompts/get" => check::<rmcp::model::GetPromptRequestParams>(params),
        "resources/read" => check::<rmcp::model::ReadResourceRequestParams>(params),
        "resources/subscribe" | "resources/unsubscribe" => check::<rmcp::model::SubscribeRequestParams>(params),
        "completion/complete" => check::<rmcp::model::CompleteRequestParams>(params),
        "logging/setLevel" => check::<rmcp::model::SetLevelRequestParams>(params),
        "tools/list" | "prompts/list" | "resources/list" | "resources/templates/list" => {
            check::<rmcp::model::PaginatedRequestParams>(params)
        }
        _ => {
            return rmcp::ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
                None,
            );
        }
    };
    let why = problem.unwrap_or_else(|| "they do not have the shape this method takes".to_owned());
    rmcp::ErrorData::invalid_params(format!("Invalid params for {method}: {why}"), None)
}

#[cfg(test)]
mod tests {
    use super::refusal;

    fn code(body: &str) -> Option<i64> {
        refusal(&body.as_bytes().to_vec().into()).and_then(|(_, error)| error["error"]["code"].as_i64())
    }

    #[test]
    fn each_malformed_body_gets_its_code() {
        assert_eq!(code("{not json"), Some(-32700));
        assert_eq!(code(&format!("{}{}", "[".repeat(200), "]".repeat(200))), Some(-32700));
        assert_eq!(code("[1, 2]"), Some(-32600));
        assert_eq!(code(r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#), Some(-32600));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}"#), Some(-32600));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":7}"#), Some(-32600));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1}"#), Some(-32600));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}"#), Some(-32602));
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#), None);
    }
}
