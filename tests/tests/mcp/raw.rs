//! Lines no client library would send, over the stdio transport: the server answers what it
//! can and keeps serving.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::fixture::server;

#[tokio::test]
async fn malformed_lines_between_good_requests() {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server(), server_read, server_write));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let mut send = async |line: &str| {
        write.write_all(line.as_bytes()).await.unwrap();
        write.write_all(b"\n").await.unwrap();
    };
    send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#).await;
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    send("this is not JSON").await;
    send("{}").await;
    // 10 MB, past the registry's argument limit: dropped unread, and the connection goes on.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"echo","arguments":{{"zebra":"{}","apple":1}}}}}}"#,
        "x".repeat(10 << 20)
    );
    send(&huge).await;
    send(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#).await;
    send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"zebra":"ok","apple":1}}}"#).await;
    send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"zebra":"","apple":-1}}}"#).await;
    send(r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#).await;

    let mut answers: Vec<Value> = Vec::new();
    // Requests run concurrently, so answers come in any order.
    while !(1..=5).all(|id: i64| answers.iter().any(|answer| answer["id"] == id)) {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("the server answers")
            .unwrap()
            .expect("the stream stays open");
        answers.push(serde_json::from_str(&line).unwrap());
    }
    let by_id = |id: i64| answers.iter().find(|answer| answer["id"] == id).cloned();
    assert_eq!(by_id(1).unwrap()["result"]["protocolVersion"], "2025-11-25");
    // Text that is not JSON is dropped (rmcp's choice since 2.1); JSON that is not a message
    // is an invalid request.
    assert!(answers.iter().any(|a| a.get("id").is_none() && a["error"]["code"] == -32600), "{answers:?}");
    assert!(by_id(9).is_none(), "the oversize line was dropped");
    assert_eq!(by_id(2).map(|a| a["error"]["code"].clone()), Some(json!(-32601)), "{answers:#?}");
    assert_eq!(by_id(3).unwrap()["result"]["content"], json!([{"type": "text", "text": "ok 1"}]));
    // `resultType` is 2026-07-28's; a 2025-11-25 client gets the shape it knows.
    assert!(by_id(3).unwrap()["result"].get("resultType").is_none(), "{answers:?}");
    let invalid = by_id(4).unwrap();
    assert_eq!(invalid["result"]["isError"], true);
    assert!(invalid["result"]["content"][0]["text"].as_str().unwrap().contains("/apple: must be >= 0, got -1"));
    assert_eq!(by_id(5).unwrap()["result"], json!({}));
}

/// Asks the client's model at a temperature of 0.7
#[tool_core::tool]
async fn warm(ctx: &tool_core::ToolContext) -> Result<String, String> {
    let request = tool_core::context::SamplingRequest::new("hi", 10).with_temperature(0.7);
    let response = ctx.sample(request).await?;
    Ok(response.content.as_text().unwrap_or_default().to_owned())
}

/// The sampling request carries the temperature as written (0.7), not widened from an
/// `f32` (0.699999988079071), and the client's answer reaches the tool.
#[tokio::test]
async fn a_sampling_request_carries_its_numbers_exactly() {
    let mut registry = tool_core::Registry::new();
    registry.add(WarmTool).unwrap();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(tool_core::mcp::McpServer::new(registry), server_read, server_write));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let mut send = async |message: Value| {
        write.write_all(format!("{message}\n").as_bytes()).await.unwrap();
    };
    send(json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"raw","version":"1"}}})).await;
    let mut next = async || -> String {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await.expect("a line in time");
        line.unwrap().expect("the server writes")
    };
    assert!(next().await.contains(r#""id":1"#));
    send(json!({"jsonrpc":"2.0","method":"notifications/initialized"})).await;
    send(json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"warm","arguments":{}}})).await;
    let asked = next().await;
    assert!(asked.contains(r#""temperature":0.7,"#) || asked.contains(r#""temperature":0.7}"#), "{asked}");
    let asked: Value = serde_json::from_str(&asked).unwrap();
    assert_eq!(asked["method"], "sampling/createMessage");
    let answer = json!({"role": "assistant", "content": {"type": "text", "text": "warm hello"}, "model": "m"});
    send(json!({"jsonrpc":"2.0","id":asked["id"],"result":answer})).await;
    let result: Value = serde_json::from_str(&next().await).unwrap();
    assert_eq!(result["id"], 2);
    assert_eq!(result["result"]["content"][0]["text"], "warm hello", "{result}");
}
