//! The example MCP server started as a host starts it: a child process spoken to over stdio
//! with rmcp's client. Listing, a good call, a bad one, an unknown tool, and a booking that
//! asks the user (declined by this client) and reports progress.

use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

async fn call(
    client: &rmcp::service::RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Result<CallToolResult, String> {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    client.call_tool(CallToolRequestParams::new(name).with_arguments(arguments)).await.map_err(|e| e.to_string())
}

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().map(|t| t.text.as_str()).unwrap_or_default()
}

#[tokio::test]
async fn the_example_serves_over_stdio() {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_server"));
    let transport = TokioChildProcess::new(command).expect("the example starts");
    let client = tokio::time::timeout(Duration::from_secs(30), ().serve(transport))
        .await
        .expect("it answers initialize in time")
        .expect("it initializes");
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().map(|s| s.name.as_str()), Some("travel"));

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["get_weather", "book_trip", "estimate_trip"], "in the order the example adds them");

    let forecast = call(&client, "get_weather", json!({"city": "Lisbon", "days": 2})).await.unwrap();
    assert_eq!(text(&forecast), "Lisbon: sunny for the next 2 days (Celsius)");

    let bad = call(&client, "estimate_trip", json!({"stops": [], "currency": "euro"})).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        text(&bad),
        "invalid arguments for tool \"estimate_trip\"; fix these and call it again:\n\
         - /stops: must have at least 1 item, got 0\n\
         - /currency: must match the pattern \"^[A-Z]{3}$\", got \"euro\""
    );

    let unknown = call(&client, "get_forecast", json!({})).await.unwrap_err();
    assert!(unknown.contains("Unknown tool: get_forecast"), "{unknown}");

    // This client declares no elicitation: the tool is told, and says so.
    let trip = json!({"trip": {"stops": [{"city": "Rome", "nights": 2}], "currency": "EUR"}});
    let booking = call(&client, "book_trip", trip).await.unwrap();
    assert_eq!(text(&booking), "tool \"book_trip\" failed: the caller does not support elicitation");

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_example_is_a_remote_server_for_a_registry() {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_server"));
    let remote = tool_core::mcp::RemoteServer::stdio("travel", command).await.expect("it starts");
    let registry = remote.registry().await.expect("it lists its tools");
    assert_eq!(registry.names(), ["mcp_travel_book_trip", "mcp_travel_estimate_trip", "mcp_travel_get_weather"]);
    let context = registry.context();
    let forecast = registry.call_async(&context, "mcp_travel_get_weather", json!({"city": "Porto", "days": 1})).await;
    assert_eq!(forecast.unwrap().to_text(), "Porto: sunny for the next 1 days (Celsius)");
    remote.close().await;
    // The child is gone: a call is an error result, at once.
    let gone = tokio::time::timeout(
        Duration::from_secs(10),
        registry.call_async(&context, "mcp_travel_get_weather", json!({"city": "Porto", "days": 1})),
    )
    .await
    .expect("no hang");
    assert!(gone.is_err());
}

#[cfg(unix)]
#[tokio::test]
async fn the_example_serves_http_from_its_command_line_and_stops_on_sigterm() {
    use rmcp::transport::StreamableHttpClientTransport;
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_server"))
        .args(["--http", "127.0.0.1:0"])
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the example starts");
    let mut stderr = tokio::io::BufReader::new(child.stderr.take().expect("piped")).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), stderr.next_line())
        .await
        .expect("it reports its address in time")
        .unwrap()
        .expect("a line");
    let url = line.strip_prefix("MCP server on ").expect("the address line").to_owned();
    let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await.expect("it initializes");
    let forecast = call(&client, "get_weather", json!({"city": "Oslo", "days": 1})).await.unwrap();
    assert_eq!(text(&forecast), "Oslo: sunny for the next 1 days (Celsius)");
    client.cancel().await.unwrap();

    let pid = child.id().expect("running").to_string();
    let sent = std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(sent.success());
    let status =
        tokio::time::timeout(Duration::from_secs(30), child.wait()).await.expect("it stops on SIGTERM").unwrap();
    assert!(status.success(), "a graceful stop exits 0: {status}");
}
