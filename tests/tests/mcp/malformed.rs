//! Malformed JSON-RPC on the HTTP endpoint answered with JSON-RPC's own error codes and the
//! status the streamable HTTP transport specifies (rmcp alone answers `415` and a line of
//! text): `-32700` for text that is not JSON, `-32600` for JSON that is not a JSON-RPC 2.0
//! message (HTTP 400 for both, the error as the body), `-32602` for params that are not an
//! object; a good request after them is served as ever.

use serde_json::{Value, json};
use tool_core::mcp::HttpOptions;

use crate::fixture::Http;

async fn post(url: &str, body: &str) -> (u16, Value) {
    let response = crate::fixture::post_raw(url, body).await;
    let status = response.status().as_u16();
    assert_eq!(response.headers()["content-type"], "application/json", "{status}");
    (status, response.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_get_json_rpc_errors() {
    let http = Http::start(HttpOptions::default()).await;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    for (body, status, code, id) in [
        ("{not json", 400, -32700, Value::Null),
        (deep.as_str(), 400, -32700, Value::Null),
        (r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#, 400, -32600, Value::Null),
        (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, 400, -32600, Value::Null),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}"#, 200, -32602, json!(1)),
    ] {
        let (got, answer) = post(&http.url(), body).await;
        assert_eq!(
            (got, answer["error"]["code"].as_i64(), &answer["id"]),
            (status, Some(code), &id),
            "{body}: {answer}"
        );
        assert_eq!(answer["jsonrpc"], "2.0");
    }
    let (_, parse) = post(&http.url(), "{not json").await;
    assert!(parse["error"]["message"].as_str().unwrap().starts_with("Parse error: key must be a string"), "{parse}");
    // A good request is served as ever.
    let initialize = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}});
    let response = crate::fixture::post_raw(&http.url(), &initialize.to_string()).await;
    assert_eq!(response.status(), 200);
}

/// A known method whose params break its shape (`arguments` as an array or a string, a
/// numeric `name`) is invalid params, -32602, saying what is wrong, in a session as on its
/// own; an unknown method is still "method not found", -32601.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_known_method_with_misshapen_params_is_invalid_params() {
    let (client, server) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server);
    tokio::spawn(tool_core::mcp::serve_io(crate::fixture::server(), read, write));
    let mut raw = crate::fixture::RawLines::initialized(client).await;
    for (id, method, params, code, says) in [
        (
            1,
            "tools/call",
            json!({"name": "echo", "arguments": [1, 2]}),
            -32602,
            "Invalid params for tools/call: invalid type: sequence",
        ),
        (2, "tools/call", json!({"name": "echo", "arguments": "text"}), -32602, "invalid type: string"),
        (3, "tools/call", json!({"name": 7}), -32602, "invalid type: integer `7`"),
        (4, "prompts/get", json!({"arguments": {}}), -32602, "missing field `name`"),
        (5, "no/such", json!({}), -32601, "Method not found: no/such"),
    ] {
        let answer = raw.ask(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        assert_eq!((answer["id"].as_i64(), answer["error"]["code"].as_i64()), (Some(id), Some(code)), "{answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains(says), "{answer}");
    }
}
