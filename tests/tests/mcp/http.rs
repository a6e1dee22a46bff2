//! Streamable HTTP as an attacker or a broken client meets it: oversize and malformed bodies,
//! DNS rebinding, a missing bearer token, a client gone mid-call; graceful shutdown; and the
//! shape of replies: JSON for one-message 2026-07-28 replies, and session calls answered on
//! their own request.

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

/// The events of an SSE body: each as its `id` (if any) and its `data`.
fn events(body: &str) -> Vec<(Option<String>, String)> {
    body.split("\n\n")
        .filter(|event| !event.trim().is_empty())
        .map(|event| {
            let field = |name: &str| {
                event.lines().filter_map(|line| line.strip_prefix(name)).map(str::trim_start).collect::<Vec<_>>()
            };
            (field("id:").first().map(|id| (*id).to_owned()), field("data:").join("\n"))
        })
        .collect()
}

/// A 2025-era session's call of a tool whose fn takes no context is answered on its own
/// request, without the session's worker: as `application/json` (the worker's replies come
/// in an event stream that opens with a priming event), in the shape the worker gives a
/// 2025-11-25 client. A tool that takes a context still goes through the worker.
#[tokio::test]
async fn a_session_call_needing_nothing_of_the_session_is_answered_on_its_request() {
    let http = Http::start(HttpOptions::default()).await;
    let client = reqwest::Client::new();
    let post = |session: Option<&str>, body: String| {
        let request = client
            .post(http.url())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25");
        match session {
            Some(id) => request.header("mcp-session-id", id),
            None => request,
        }
        .body(body)
        .send()
    };
    let opened = post(None, INITIALIZE.to_owned()).await.unwrap();
    let session = opened.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    opened.bytes().await.unwrap();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned();
    assert_eq!(post(Some(&session), initialized).await.unwrap().status(), StatusCode::ACCEPTED);
    // The reply's media type and body.
    let call = async |id: u32, tool: &str, arguments: serde_json::Value| {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        let response = post(Some(&session), body.to_string()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let media = response.headers()["content-type"].to_str().unwrap().to_owned();
        (media, response.text().await.unwrap())
    };

    for (id, tool, arguments, result) in [
        (
            2,
            "echo",
            json!({"zebra": "z", "apple": 1}),
            json!({"content": [{"type": "text", "text": "z 1"}], "isError": false}),
        ),
        (
            3,
            "count",
            json!({}),
            json!({"content": [{"type": "text", "text": "{\"count\":3}"}], "structuredContent": {"count": 3}, "isError": false}),
        ),
        (
            4,
            "refuse",
            json!({}),
            json!({"content": [{"type": "text", "text": "tool \"refuse\" failed: no, not today"}], "isError": true}),
        ),
    ] {
        let (media, body) = call(id, tool, arguments).await;
        assert_eq!(media, "application/json", "{tool}: {body}");
        let reply: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(reply, json!({"jsonrpc": "2.0", "id": id, "result": result}), "{tool}");
    }
    // Arguments the schema refuses: a result the model reads, as through the worker.
    let (_, body) = call(5, "echo", json!({"zebra": "", "apple": 1})).await;
    let reply: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["result"]["isError"], true, "{reply}");

    let (media, body) = call(6, "chatty", json!({})).await;
    assert!(media.starts_with("text/event-stream"), "{media}");
    let through_worker = events(&body);
    assert!(through_worker.first().is_some_and(|(id, _)| id.is_some()), "the worker primes: {through_worker:?}");
    let reply = through_worker.iter().find(|(_, data)| data.contains(r#""id":6"#)).expect("chatty's reply");
    assert!(reply.1.contains(r#""text":"done""#), "{through_worker:?}");
}

/// Calls answered on their own request keep what the server says of every call: a tool the
/// filter hides is unknown, and a failure is worded as the server words it.
#[tokio::test]
async fn a_call_answered_on_its_request_keeps_the_filter_and_the_wording() {
    use rmcp::ServiceExt as _;
    use rmcp::transport::StreamableHttpClientTransport;
    use tool_core::ToolError;
    let server =
        crate::fixture::server().with_tool_filter(|tool, _| tool.name() != "boom").with_error_text(
            |error| match error {
                ToolError::Failed { message, .. } => message.clone(),
                other => format!("Error: {other}"),
            },
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(tool_core::mcp::serve_http_on(server, listener, HttpOptions::default(), async {
        let _ = stopped.await;
    }));
    let connection = Client::default().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
    let hidden = call(&connection, "boom", json!({})).await.unwrap_err();
    assert!(hidden.contains("Unknown tool: boom"), "{hidden}");
    crate::calls::worded_as_asked(&connection).await;
    connection.cancel().await.unwrap();
    let _ = stop.send(());
    let _ = serving.await;
}
