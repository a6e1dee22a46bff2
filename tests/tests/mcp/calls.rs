//! Listing and calling: the MCP dialect as listed, and every kind of outcome.

use serde_json::json;

use tool_core::mcp::HttpOptions;

use crate::fixture::{Client, Http, call, connect_pipe, text};

#[tokio::test]
async fn the_list_is_the_compile_time_dialect_in_declaration_order() {
    let connection = connect_pipe(Client::default()).await;
    let tools = connection.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    // In the order `fixture::registry` adds them, as the servers this ports list theirs.
    assert_eq!(names, ["echo", "boom", "refuse", "count", "slow", "chatty", "ask_llm", "ask_user"]);
    let echo = tools.iter().find(|tool| tool.name == "echo").unwrap();
    // Key order survives rmcp's `serde_json::Map` (the `mcp` feature turns on `preserve_order`).
    assert_eq!(
        serde_json::to_string(&echo.input_schema).unwrap(),
        r#"{"description":"Arguments whose declaration order is not alphabetical.","type":"object","properties":{"zebra":{"description":"What to say back","type":"string","minLength":1,"maxLength":100},"apple":{"type":"integer","minimum":0,"maximum":1000},"mango":{"anyOf":[{"type":"boolean"},{"type":"null"}]}},"required":["zebra","apple"],"additionalProperties":false}"#
    );
    assert_eq!(echo.title.as_deref(), Some("Echo"));
    let annotations = serde_json::to_value(echo.annotations.as_ref().unwrap()).unwrap();
    assert_eq!(annotations, json!({"title": "Echo", "readOnlyHint": true, "idempotentHint": true}));
    let count = tools.iter().find(|tool| tool.name == "count").unwrap();
    assert_eq!(serde_json::to_value(count.output_schema.as_ref().unwrap()).unwrap()["required"], json!(["count"]));
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn every_outcome_over_the_pipe_and_over_http() {
    let http = Http::start(HttpOptions::default()).await;
    for connection in [connect_pipe(Client::default()).await, http.connect(Client::default()).await] {
        let ok = call(&connection, "echo", json!({"zebra": "hi", "apple": 7})).await.unwrap();
        assert_eq!((text(&ok), ok.is_error), ("hi 7".to_owned(), Some(false)));

        // Invalid arguments are a result the model reads, with every violation.
        let invalid = call(&connection, "echo", json!({"zebra": "", "apple": 5000, "extra": 1})).await.unwrap();
        assert_eq!(invalid.is_error, Some(true));
        assert_eq!(
            text(&invalid),
            "invalid arguments for tool \"echo\"; fix these and call it again:\n\
             - /zebra: must be at least 1 character long, got 0: \"\"\n\
             - /apple: must be <= 1000, got 5000\n\
             - /extra: unknown property \"extra\"; the properties are \"zebra\", \"apple\", \"mango\""
        );

        // An unknown tool is a protocol error.
        let unknown = call(&connection, "nope", json!({})).await.unwrap_err();
        assert!(unknown.contains("-32602") && unknown.contains("Unknown tool: nope"), "{unknown}");

        let panicked = call(&connection, "boom", json!({})).await.unwrap();
        assert_eq!(panicked.is_error, Some(true));
        assert!(text(&panicked).contains("crashed (kaboom)"));

        let refused = call(&connection, "refuse", json!({})).await.unwrap();
        assert_eq!(
            (text(&refused), refused.is_error),
            ("tool \"refuse\" failed: no, not today".to_owned(), Some(true))
        );

        let counted = call(&connection, "count", json!({})).await.unwrap();
        assert_eq!(counted.structured_content, Some(json!({"count": 3})));
        assert_eq!(text(&counted), r#"{"count":3}"#);

        // And the server still answers.
        assert_eq!(text(&call(&connection, "echo", json!({"zebra": "again", "apple": 1})).await.unwrap()), "again 1");
        connection.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_failed_call_can_be_worded_as_another_server_words_it() {
    use rmcp::ServiceExt;
    use tool_core::ToolError;
    let server = crate::fixture::server().with_error_text(|error| match error {
        ToolError::Failed { message, .. } => message.clone(),
        other => format!("Error: {other}"),
    });
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    let connection = Client::default().serve(client_end).await.unwrap();
    worded_as_asked(&connection).await;
    connection.cancel().await.unwrap();
}

/// What a server worded by `with_error_text` (the tool's own message, `Error: ` before
/// ours) answers, whatever the transport: a refusal, invalid arguments, and a success.
pub(crate) async fn worded_as_asked(connection: &rmcp::service::RunningService<rmcp::RoleClient, Client>) {
    let refused = call(connection, "refuse", json!({})).await.unwrap();
    assert_eq!((text(&refused), refused.is_error), ("no, not today".to_owned(), Some(true)));
    let invalid = call(connection, "echo", json!({"zebra": ""})).await.unwrap();
    assert!(text(&invalid).starts_with("Error: invalid arguments for tool \"echo\""), "{}", text(&invalid));
    let ok = call(connection, "echo", json!({"zebra": "hi", "apple": 7})).await.unwrap();
    assert_eq!((text(&ok), ok.is_error), ("hi 7".to_owned(), Some(false)));
}
