//! What a server knows of its client: name, version, revision and capabilities, read by a
//! tool from its context and by a visibility rule that offers a tool only to clients that
//! can use it; on a session's `initialize` and on 2026-07-28's per-request `_meta`. And what
//! the server says of itself, in the words of each revision.

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Value, json};
use tool_core::mcp::{Icon, McpServer, Theme};
use tool_core::{Registry, ToolContext, tool};

use crate::fixture::{Client, Connection, call, text};

/// Says who called
#[tool]
fn whoami(ctx: &ToolContext) -> String {
    let Some(client) = ctx.client() else { return "nobody".to_owned() };
    let capabilities = client.capabilities();
    json!({
        "name": client.name(),
        "version": client.version(),
        "revision": client.protocol_version(),
        "sampling": capabilities.sampling,
        "elicitation": capabilities.elicitation,
        "tasks": capabilities.tasks,
    })
    .to_string()
}

/// Summarizes with the client's model
#[tool]
fn summarize() -> &'static str {
    "summarized"
}

fn server() -> McpServer {
    let mut registry = Registry::new();
    registry.add(WhoamiTool).unwrap().add(SummarizeTool).unwrap();
    // Sampling tools only for clients that declared sampling.
    McpServer::new(registry).with_tool_filter(|tool, caller| {
        tool.name() != "summarize" || caller.client().is_some_and(|client| client.capabilities().sampling)
    })
}

async fn connect(server: McpServer, client: Client, version: ProtocolVersion) -> Connection {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    let client = Client { version: Some(version.clone()), ..client };
    if version == ProtocolVersion::V_2026_07_28 {
        let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![version] };
        client.serve_with_lifecycle(client_end, lifecycle).await.expect("discovers")
    } else {
        rmcp::ServiceExt::serve(client, client_end).await.expect("initializes")
    }
}

#[tokio::test]
async fn a_tool_reads_its_client_and_a_rule_offers_tools_by_capability() {
    for version in [ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        for (client, sampling) in [(Client::capable(), true), (Client { tasks: true, ..Client::default() }, false)] {
            let tasks = client.tasks;
            let connection = connect(server(), client, version.clone()).await;
            let said: Value =
                serde_json::from_str(&text(&call(&connection, "whoami", json!({})).await.unwrap())).unwrap();
            let expected = json!({
                "name": "test-client", "version": "1.0.0", "revision": version.as_str(),
                "sampling": sampling, "elicitation": sampling, "tasks": tasks,
            });
            assert_eq!(said, expected, "on {version}");

            let listed = connection.list_tools(None).await.unwrap();
            let names: Vec<&str> = listed.tools.iter().map(|tool| tool.name.as_ref()).collect();
            assert_eq!(names.contains(&"summarize"), sampling, "on {version}: {names:?}");
            let called = call(&connection, "summarize", json!({})).await;
            assert_eq!(called.is_ok(), sampling, "on {version}: {called:?}");
            connection.cancel().await.unwrap();
        }
    }
}

/// `serverInfo` carries what each revision defines (`title` from 2025-06-18; description,
/// website and icons from 2025-11-25), and a session's tool list no 2026-07-28 cache hints.
#[tokio::test]
async fn each_revision_hears_of_the_server_only_what_it_defines() {
    let icon = Icon::new("data:image/svg+xml;base64,PHN2Zy8+").with_mime_type("image/svg+xml").with_sizes(["any"]);
    let named = || {
        server()
            .with_server_info("everything", "2.0.0")
            .with_title("Everything")
            .with_description("Every MCP feature")
            .with_website("https://example.com/everything")
            .with_icon(icon.clone().with_theme(Theme::Dark))
    };
    let full = json!({
        "name": "everything", "version": "2.0.0", "title": "Everything", "description": "Every MCP feature",
        "websiteUrl": "https://example.com/everything",
        "icons": [{"src": "data:image/svg+xml;base64,PHN2Zy8+", "mimeType": "image/svg+xml", "sizes": ["any"], "theme": "dark"}],
    });
    for (version, expected) in [
        (ProtocolVersion::V_2024_11_05, json!({"name": "everything", "version": "2.0.0"})),
        (ProtocolVersion::V_2025_03_26, json!({"name": "everything", "version": "2.0.0"})),
        (ProtocolVersion::V_2025_06_18, json!({"name": "everything", "version": "2.0.0", "title": "Everything"})),
        (ProtocolVersion::V_2025_11_25, full),
    ] {
        let connection = connect(named(), Client::default(), version.clone()).await;
        let info = connection.peer_info().expect("initialized");
        assert_eq!(info.protocol_version, version);
        assert_eq!(serde_json::to_value(&info.server_info).unwrap(), expected, "on {version}");
        let listed = connection.list_tools(None).await.unwrap();
        assert_eq!((listed.ttl_ms, listed.cache_scope), (None, None), "on {version}");
        connection.cancel().await.unwrap();
    }
}
