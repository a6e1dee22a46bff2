//! Streamable HTTP as an attacker or a broken client meets it: oversize and malformed bodies,
//! DNS rebinding, a missing bearer token, a client gone mid-call; and graceful shutdown.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use tool_core::mcp::HttpOptions;

use crate::fixture::{Client, Http, SLOW, call, text};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

async fn post(url: &str, body: impl Into<reqwest::Body>, headers: &[(&str, &str)]) -> StatusCode {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(body).send().await.unwrap().status()
}

async fn still_serves(http: &Http) {
    let connection = http.connect(Client::default()).await;
    assert_eq!(text(&call(&connection, "echo", json!({"zebra": "alive", "apple": 0})).await.unwrap()), "alive 0");
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn oversize_and_malformed_bodies_are_refused_and_the_server_goes_on() {
    let http = Http::start(HttpOptions::default()).await;
    let url = http.url();
    // 10 MB, beyond the registry's 1 MiB argument limit plus the envelope.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"zebra":"{}"}}}}}}"#,
        "x".repeat(10 << 20)
    );
    assert_eq!(post(&url, huge, &[]).await, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(post(&url, "{not json", &[]).await.is_client_error());
    assert!(post(&url, "[1, 2, 3]", &[]).await.is_client_error());
    still_serves(&http).await;
}

#[tokio::test]
async fn a_session_delete_is_answered_no_content() {
    let http = Http::start(HttpOptions::default()).await;
    let client = reqwest::Client::new();
    let initialized = client
        .post(http.url())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert!(initialized.status().is_success());
    let session = initialized.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let deleted = client.delete(http.url()).header("mcp-session-id", &session).send().await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT, "the Python SDK accepts only 200 or 204");
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let after = post(&http.url(), list, &[("mcp-session-id", &session), ("mcp-protocol-version", "2025-11-25")]).await;
    assert!(after.is_client_error(), "the session is gone: {after}");
    still_serves(&http).await;
}

#[tokio::test]
async fn dns_rebinding_is_refused() {
    let http = Http::start(HttpOptions::default()).await;
    let url = http.url();
    assert_eq!(post(&url, INITIALIZE, &[("host", "evil.example.com")]).await, StatusCode::FORBIDDEN);
    let own_host = format!("localhost:{}", http.addr.port());
    assert_eq!(
        post(&url, INITIALIZE, &[("host", &own_host), ("origin", "http://evil.example.com")]).await,
        StatusCode::FORBIDDEN
    );
    let own_origin = format!("http://{own_host}");
    assert!(post(&url, INITIALIZE, &[("host", &own_host), ("origin", &own_origin)]).await.is_success());
    still_serves(&http).await;
}

#[tokio::test]
async fn a_bearer_token_is_required_when_asked_for() {
    let http = Http::start(HttpOptions::default().bearer(|token| token == "s3cret")).await;
    let url = http.url();
    assert_eq!(post(&url, INITIALIZE, &[]).await, StatusCode::UNAUTHORIZED);
    assert_eq!(post(&url, INITIALIZE, &[("authorization", "Bearer wrong")]).await, StatusCode::UNAUTHORIZED);
    assert!(post(&url, INITIALIZE, &[("authorization", "Bearer s3cret")]).await.is_success());
}

#[tokio::test]
async fn a_client_gone_mid_call_leaves_the_server_serving() {
    let http = Http::start(HttpOptions::default()).await;
    let connection = http.connect(Client::default()).await;
    let id = 301;
    let pending = tokio::spawn(async move {
        let _ = call(&connection, "slow", json!({"id": id})).await;
    });
    for _ in 0..1000 {
        if SLOW.lock().unwrap().get(&id).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(SLOW.lock().unwrap().get(&id), Some(&"started"));
    pending.abort();
    still_serves(&http).await;
}

#[tokio::test]
async fn shutdown_is_graceful_and_ends_calls_in_flight() {
    let mut http = Http::start(HttpOptions::default()).await;
    let connection = http.connect(Client::default()).await;
    let id = 302;
    let in_flight = tokio::spawn(async move { call(&connection, "slow", json!({"id": id})).await });
    for _ in 0..1000 {
        if SLOW.lock().unwrap().get(&id).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(http.stop.take());
    let stopped = tokio::time::timeout(Duration::from_secs(20), &mut http.done).await;
    assert!(matches!(stopped, Ok(Ok(Ok(())))), "the server stops: {stopped:?}");
    let _ = tokio::time::timeout(Duration::from_secs(5), in_flight).await;
}

/// A 2026-07-28 call whose reply is one message is answered `application/json`; one whose
/// tool reports progress first keeps the event stream, progress and all.
#[tokio::test]
async fn a_one_message_reply_of_2026_07_28_is_json_and_progress_keeps_the_stream() {
    let http = Http::start(HttpOptions::default()).await;
    let client = reqwest::Client::new();
    // SEP-2243's headers name the method and the tool.
    let send = |tool: &'static str, body: &'static str| {
        client
            .post(http.url())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .body(body)
            .send()
    };
    let echo = send(
        "echo",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"zebra":"z","apple":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    )
    .await
    .unwrap();
    assert_eq!(echo.status(), StatusCode::OK, "{}", echo.text().await.unwrap_or_default());
    assert_eq!(echo.headers()["content-type"], "application/json");
    let reply: serde_json::Value = echo.json().await.unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], "z 1", "{reply}");
    let chatty = send(
        "chatty",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chatty","arguments":{},"_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    )
    .await
    .unwrap();
    assert_eq!(chatty.status(), StatusCode::OK);
    assert!(chatty.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let stream = chatty.text().await.unwrap();
    let progress = stream.find("notifications/progress").expect(&stream);
    let result = stream.find(r#""id":2"#).expect(&stream);
    assert!(progress < result, "progress comes before the result: {stream}");
}
