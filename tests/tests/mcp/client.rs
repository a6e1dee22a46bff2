//! What a server knows of its client: name, version, revision and capabilities, read by a
//! tool from its context and by visibility rules that offer a tool, a prompt or a resource
//! only to clients that can use it, on a session's `initialize` and on 2026-07-28's
//! per-request `_meta`; what the server says of itself, in the words of each revision; and
//! the client's roots.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Value, json};
use tool_core::mcp::{Icon, McpServer, Prompts, Resources, Theme, prompt, resource};
use tool_core::{Registry, ToolContext, tool};

use crate::fixture::{Client, Connection, call, eventually, text};

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

/// Asks for a summary in the client's model
#[prompt]
fn summary_prompt() -> String {
    "Summarize this.".to_owned()
}

/// What the client's model wrote
#[resource(uri = "samples://last")]
fn last_sample() -> String {
    "nothing yet".to_owned()
}

fn server() -> McpServer {
    let mut registry = Registry::new();
    registry.add(WhoamiTool).unwrap().add(SummarizeTool).unwrap();
    let mut prompts = Prompts::new();
    prompts.add(SummaryPromptPrompt).unwrap();
    let mut resources = Resources::new();
    resources.add(LastSampleResource).unwrap();
    let samples = |caller: &ToolContext| caller.client().is_some_and(|client| client.capabilities().sampling);
    // What needs sampling only for clients that declared sampling.
    McpServer::new(registry)
        .with_prompts(prompts)
        .with_resources(resources)
        .with_tool_filter(move |tool, caller| tool.name() != "summarize" || samples(caller))
        .with_prompt_filter(move |_, caller| samples(caller))
        .with_resource_filter(move |_, caller| samples(caller))
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
async fn a_tool_reads_its_client_and_rules_offer_tools_prompts_and_resources_by_capability() {
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
            let prompts = connection.list_all_prompts().await.unwrap();
            assert_eq!(prompts.len(), usize::from(sampling), "on {version}: {prompts:?}");
            let got = connection.get_prompt(rmcp::model::GetPromptRequestParams::new("summary_prompt")).await;
            assert_eq!(got.is_ok(), sampling, "on {version}: {got:?}");
            let resources = connection.list_all_resources().await.unwrap();
            assert_eq!(resources.len(), usize::from(sampling), "on {version}: {resources:?}");
            let read = connection.read_resource(rmcp::model::ReadResourceRequestParams::new("samples://last")).await;
            assert_eq!(read.is_ok(), sampling, "on {version}: {read:?}");
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

/// A client with roots it can change, which tells the server when it does.
#[derive(Clone, Default)]
struct Rooted {
    roots: Arc<Mutex<Vec<&'static str>>>,
    version: Option<ProtocolVersion>,
}

impl rmcp::ClientHandler for Rooted {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let capabilities =
            rmcp::model::ClientCapabilities::builder().enable_roots().enable_roots_list_changed().build();
        rmcp::model::ClientConfig::new(capabilities, rmcp::model::Implementation::new("rooted", "0.1.0"))
            .with_protocol_version(self.version.clone().unwrap_or(ProtocolVersion::V_2025_11_25))
    }

    async fn list_roots(
        &self,
        _: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, rmcp::ErrorData> {
        let roots =
            self.roots.lock().unwrap().iter().map(|uri| rmcp::model::Root::new(*uri).with_name("dir")).collect();
        Ok(rmcp::model::ListRootsResult::new(roots))
    }
}

/// Lists the client's roots
#[tool]
async fn where_am_i(ctx: &ToolContext) -> Result<String, String> {
    let roots = ctx.roots().await?;
    Ok(roots
        .iter()
        .map(|root| format!("{} ({})", root.uri, root.name.as_deref().unwrap_or("-")))
        .collect::<Vec<_>>()
        .join(", "))
}

/// A tool asks for the client's roots on every revision, a client without roots is told so,
/// and the server's hook hears them when the session starts and each time they change.
#[tokio::test]
async fn roots_are_asked_by_tools_and_followed_by_a_hook() {
    let heard: Arc<Mutex<Vec<Heard>>> = Arc::default();
    let server = || {
        let heard = Arc::clone(&heard);
        let mut registry = Registry::new();
        registry.add(WhereAmITool).unwrap();
        McpServer::new(registry).on_roots_changed(move |client, roots| {
            let uris = roots.into_iter().map(|root| root.uri).collect();
            heard.lock().unwrap().push((client.name().to_owned(), uris));
        })
    };
    let rooted = Rooted { roots: Arc::new(Mutex::new(vec!["file:///work/a", "file:///work/b"])), version: None };
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server(), read, write));
    let connection = rmcp::ServiceExt::serve(rooted.clone(), client_end).await.expect("initializes");
    let said = call_with(&connection, "where_am_i").await;
    assert_eq!(said, "file:///work/a (dir), file:///work/b (dir)");
    let first = ("rooted".to_owned(), vec!["file:///work/a".to_owned(), "file:///work/b".to_owned()]);
    assert!(eventually(Duration::from_secs(10), || heard.lock().unwrap().len() == 1).await);
    assert_eq!(heard.lock().unwrap()[0], first);

    rooted.roots.lock().unwrap().push("file:///work/c");
    connection.notify_roots_list_changed().await.unwrap();
    assert!(eventually(Duration::from_secs(10), || heard.lock().unwrap().len() == 2).await);
    assert_eq!(heard.lock().unwrap()[1].1.len(), 3);
    connection.cancel().await.unwrap();

    // 2026-07-28: the tool's request becomes an input round the client answers.
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server(), read, write));
    let rooted = Rooted { version: Some(ProtocolVersion::V_2026_07_28), ..rooted };
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let connection = rooted.serve_with_lifecycle(client_end, lifecycle).await.expect("discovers");
    assert_eq!(call_with(&connection, "where_am_i").await.matches("file://").count(), 3);
    connection.cancel().await.unwrap();

    // A client that declared no roots.
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server(), read, write));
    let connection = rmcp::ServiceExt::serve(Client::default(), client_end).await.expect("initializes");
    let refused = call(&connection, "where_am_i", json!({})).await.unwrap();
    assert_eq!(text(&refused), "tool \"where_am_i\" failed: the caller does not support roots");
    connection.cancel().await.unwrap();
    assert_eq!(heard.lock().unwrap().len(), 2, "a client without roots is not asked for them");
}

/// A client's name and the root URIs the hook heard.
type Heard = (String, Vec<String>);

async fn call_with<S: rmcp::service::Service<rmcp::RoleClient>>(
    connection: &rmcp::service::RunningService<rmcp::RoleClient, S>,
    name: &'static str,
) -> String {
    let result = connection.call_tool(rmcp::model::CallToolRequestParams::new(name)).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    text(&result)
}
