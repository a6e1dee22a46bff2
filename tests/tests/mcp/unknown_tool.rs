//! A call of a tool the server lacks (or hides from the caller): the protocol's error by
//! default, or an `isError` result the model reads, worded by the server's author.

use serde_json::json;
use tool_core::mcp::HttpOptions;

/// A call of an unknown tool answered, when asked, with an `isError` result the model reads
/// (as the TypeScript SDK answers), worded by `with_error_text` when that is set, naming only
/// the tools the caller may call; by default the protocol's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_tool_can_be_an_error_result_the_model_reads() {
    use rmcp::ServiceExt as _;
    use rmcp::transport::StreamableHttpClientTransport;
    use tool_core::mcp::McpServer;

    async fn serve(server: McpServer) -> crate::fixture::Connection {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        tokio::spawn(tool_core::mcp::serve_http_on(server, listener, HttpOptions::default(), std::future::pending()));
        crate::fixture::Client::default().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap()
    }
    // `boom` hidden from everyone: unknown to the caller, and never named to it.
    let hiding = || McpServer::new(crate::fixture::registry()).with_tool_filter(|tool, _| tool.name() != "boom");

    let answered = serve(hiding().unknown_tools_as_results()).await;
    for name in ["nope", "boom"] {
        let result = crate::fixture::call(&answered, name, json!({})).await.unwrap();
        assert_eq!(result.is_error, Some(true));
        let text = crate::fixture::text(&result);
        assert!(text.starts_with(&format!("unknown tool \"{name}\"; the available tools are: ")), "{text}");
        assert!(!text.contains("boom,") && !text.ends_with("boom"), "a hidden tool is never named: {text}");
    }
    answered.cancel().await.unwrap();

    let worded = serve(hiding().unknown_tools_as_results().with_error_text(|error| match error {
        tool_core::ToolError::UnknownTool { name, .. } => format!("Tool {name} not found"),
        other => other.to_string(),
    }))
    .await;
    let result = crate::fixture::call(&worded, "nope", json!({})).await.unwrap();
    assert_eq!(crate::fixture::text(&result), "Tool nope not found");
    worded.cancel().await.unwrap();

    let protocol = serve(hiding()).await;
    let error = crate::fixture::call(&protocol, "nope", json!({})).await.unwrap_err();
    assert!(error.contains("Unknown tool: nope"), "{error}");
    protocol.cancel().await.unwrap();
}
