//! The spans a `tools/call` makes, in the OpenTelemetry MCP and gen-AI conventions: the
//! server's `tools/call {tool}` and, as its child, the tool's `execute_tool {tool}`, with
//! their attributes and `error.type` on failure. Recorded by a layer of this test's own.

use serde_json::json;
use tracing_subscriber::layer::SubscriberExt;

use crate::fixture::{Client, call, connect_pipe};
use crate::recorder::{Recorded, Recorder};

fn field<'a>(span: &'a Recorded, name: &str) -> Option<&'a str> {
    span.field(name)
}

#[tokio::test]
async fn a_call_is_a_server_span_with_the_tool_span_inside() {
    let recorder = Recorder::default();
    let _default = tracing::subscriber::set_default(tracing_subscriber::registry().with(recorder.clone()));
    let connection = connect_pipe(Client::default()).await;
    call(&connection, "echo", json!({"zebra": "hi", "apple": 1})).await.unwrap();
    call(&connection, "refuse", json!({})).await.unwrap();
    connection.cancel().await.unwrap();

    let spans = recorder.spans();
    let servers: Vec<&Recorded> = spans.iter().filter(|span| span.name == "tools/call").collect();
    let tools: Vec<&Recorded> = spans.iter().filter(|span| span.name == "execute_tool").collect();
    assert_eq!((servers.len(), tools.len()), (2, 2), "{spans:#?}");
    for (server, tool, name) in [(servers[0], tools[0], "echo"), (servers[1], tools[1], "refuse")] {
        assert_eq!(field(server, "otel.name"), Some(format!("tools/call {name}").as_str()));
        assert_eq!(field(server, "otel.kind"), Some("server"));
        assert_eq!(field(server, "mcp.method.name"), Some("tools/call"));
        assert_eq!(field(server, "network.transport"), Some("pipe"));
        assert_eq!(field(server, "mcp.protocol.version"), Some("2025-11-25"));
        assert!(field(server, "jsonrpc.request.id").is_some_and(|id| id.parse::<u64>().is_ok()), "{server:?}");
        assert_eq!(field(server, "gen_ai.tool.name"), Some(name));

        assert_eq!(tool.parent, Some(server.id), "the tool's span is the call's child");
        assert_eq!(field(tool, "otel.name"), Some(format!("execute_tool {name}").as_str()));
        assert_eq!(field(tool, "gen_ai.operation.name"), Some("execute_tool"));
        assert_eq!(field(tool, "gen_ai.tool.name"), Some(name));
    }
    assert_eq!((field(servers[0], "error.type"), field(tools[0], "error.type")), (None, None));
    assert_eq!(field(servers[1], "error.type"), Some("tool_error"), "an isError result");
    assert_eq!(field(tools[1], "error.type"), Some("failed"), "the ToolError's kind");
}

/// Every other request is a server span too (`initialize`, `ping`, the listings, a read),
/// named `{method} {target}`, with the method, the id, the revision and the transport, and
/// the JSON-RPC code as `error.type` when it fails.
#[tokio::test]
async fn every_request_is_a_server_span() {
    let recorder = Recorder::default();
    let _default = tracing::subscriber::set_default(tracing_subscriber::registry().with(recorder.clone()));
    let connection = connect_pipe(Client::default()).await;
    connection.list_all_tools().await.unwrap();
    connection
        .send_request(rmcp::model::ClientRequest::PingRequest(rmcp::model::PingRequest::default()))
        .await
        .unwrap();
    connection.set_level(rmcp::model::SetLevelRequestParams::new(rmcp::model::LoggingLevel::Info)).await.unwrap();
    let read = rmcp::model::ReadResourceRequestParams::new("memory://nothing");
    connection.read_resource(read).await.unwrap_err();
    connection.cancel().await.unwrap();

    let spans = recorder.spans();
    let requests: Vec<&Recorded> = spans.iter().filter(|span| span.name == "mcp.server.request").collect();
    let names: Vec<&str> = requests.iter().filter_map(|span| field(span, "otel.name")).collect();
    assert_eq!(names, ["initialize", "tools/list", "ping", "logging/setLevel", "resources/read memory://nothing"]);
    for span in &requests {
        assert_eq!(field(span, "otel.kind"), Some("server"));
        assert_eq!(field(span, "network.transport"), Some("pipe"));
        assert!(field(span, "jsonrpc.request.id").is_some(), "{span:?}");
        assert!(
            field(span, "mcp.method.name").is_some_and(|method| field(span, "otel.name").unwrap().starts_with(method))
        );
    }
    let read = requests[4];
    assert_eq!(field(read, "mcp.resource.uri"), Some("memory://nothing"));
    assert_eq!(field(read, "error.type"), Some("-32002"));
    assert_eq!(field(requests[1], "mcp.protocol.version"), Some("2025-11-25"));
}
