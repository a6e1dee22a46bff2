//! What a server makes at run time: resources found at start-up or kept for the session
//! (`DynamicResource`), forms whose schema comes from configuration (`elicit_with_schema`),
//! and work that outlives its call and stops when the session ends (`connection_closed`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, FormElicitationCapability, Implementation, LoggingMessageNotificationParam,
    ReadResourceRequestParams, ResourceContents, SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use tool_core::context::{ElicitationAnswer, LogLevel};
use tool_core::mcp::{DynamicResource, McpServer, Resources, Subscription};
use tool_core::{Content, Registry, RegistryError, ToolContext, tool};

use crate::fixture::{eventually, text};

/// A client that fills forms with `answer` (when it has one) and counts resource list changes.
#[derive(Clone, Default)]
struct Filler {
    answer: Option<Value>,
    asked: Arc<Mutex<Vec<Value>>>,
    changed: Arc<AtomicUsize>,
    logs: Arc<Mutex<Vec<Value>>>,
}

impl ClientHandler for Filler {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.answer.is_some() {
            let form = ElicitationCapability::new().with_form(FormElicitationCapability::default());
            capabilities.elicitation = Some(form);
        }
        ClientConfig::new(capabilities, Implementation::new("filler", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.lock().unwrap().push(serde_json::to_value(&request).unwrap());
        let content = self.answer.clone();
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content.unwrap_or_default()))
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.changed.fetch_add(1, Ordering::SeqCst);
    }

    async fn on_logging_message(&self, params: LoggingMessageNotificationParam, _: NotificationContext<RoleClient>) {
        self.logs.lock().unwrap().push(params.data);
    }
}

async fn connect(server: McpServer, filler: Filler) -> RunningService<RoleClient, Filler> {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    filler.serve(client_end).await.expect("the client connects")
}

fn read_text(contents: &[ResourceContents]) -> Vec<(String, Option<String>, String)> {
    contents
        .iter()
        .map(|content| match content {
            ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
                (uri.clone(), mime_type.clone(), text.clone())
            }
            ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => {
                (uri.clone(), mime_type.clone(), format!("blob {blob}"))
            }
            other => panic!("{other:?}"),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_made_at_run_time_are_listed_read_added_and_removed() {
    let mut resources = Resources::new();
    let notes = DynamicResource::new("docs://notes.md", "notes.md", |_| async { "# Notes".to_owned() })
        .with_mime_type("text/markdown")
        .with_description("The team's notes")
        .with_title("Notes");
    // Names are free text and may repeat; URIs may not, and a dynamic one has no variables.
    resources.add_dynamic(notes).unwrap().add_dynamic(DynamicResource::text("docs://other", "notes.md", "x")).unwrap();
    let again = resources.add_dynamic(DynamicResource::text("docs://other", "again", "y")).unwrap_err();
    assert!(
        matches!(&again, RegistryError::InvalidSchema { reason, .. } if reason.contains("served already")),
        "{again}"
    );
    let template = resources.add_dynamic(DynamicResource::text("docs://{id}", "t", "z")).unwrap_err();
    assert!(template.to_string().contains("has variables"), "{template}");
    let failing = DynamicResource::new("docs://broken", "broken", |_| async { Err::<String, _>("disk gone") });
    resources.add_dynamic(failing).unwrap();

    let server = McpServer::new(Registry::new()).with_resources(resources);
    let handle = server.resources_handle();
    let filler = Filler::default();
    let connection = connect(server, filler.clone()).await;
    let listed = serde_json::to_value(connection.list_all_resources().await.unwrap()).unwrap();
    assert_eq!(
        listed,
        json!([
            {"uri": "docs://notes.md", "name": "notes.md", "title": "Notes", "description": "The team's notes", "mimeType": "text/markdown"},
            {"uri": "docs://other", "name": "notes.md", "mimeType": "text/plain"},
            {"uri": "docs://broken", "name": "broken", "mimeType": "text/plain"},
        ])
    );
    let read = connection.read_resource(ReadResourceRequestParams::new("docs://notes.md")).await.unwrap();
    let expected = ("docs://notes.md".to_owned(), Some("text/markdown".to_owned()), "# Notes".to_owned());
    assert_eq!(read_text(&read.contents), [expected]);
    let broken = connection.read_resource(ReadResourceRequestParams::new("docs://broken")).await.unwrap_err();
    assert!(broken.to_string().contains("disk gone"), "{broken}");

    // Added while serving (a result kept for the session): listed, read, and every session told.
    let kept = Content::resource_blob("session://report.gz", "application/gzip", &[1, 2, 3]);
    let added = handle
        .update(|resources| {
            let read = move |_| {
                let kept = kept.clone();
                async move { kept }
            };
            resources.add_dynamic(DynamicResource::new("session://report.gz", "report.gz", read)).map(|_| ())
        })
        .await;
    added.unwrap();
    assert!(eventually(Duration::from_secs(10), || filler.changed.load(Ordering::SeqCst) == 1).await);
    let read = connection.read_resource(ReadResourceRequestParams::new("session://report.gz")).await.unwrap();
    let expected = ("session://report.gz".to_owned(), Some("application/gzip".to_owned()), "blob AQID".to_owned());
    assert_eq!(read_text(&read.contents), [expected]);

    // Removed: unknown from then on (-32002), and a second removal finds nothing.
    assert!(handle.update(|resources| resources.remove("docs://notes.md")).await);
    assert!(!handle.update(|resources| resources.remove("docs://notes.md")).await);
    let gone = connection.read_resource(ReadResourceRequestParams::new("docs://notes.md")).await.unwrap_err();
    assert!(gone.to_string().contains("-32002") || gone.to_string().contains("not found"), "{gone}");
    let names: Vec<String> =
        connection.list_all_resources().await.unwrap().into_iter().map(|resource| resource.uri.clone()).collect();
    assert_eq!(names, ["docs://other", "docs://broken", "session://report.gz"]);
    connection.cancel().await.unwrap();
}

/// Asks for the instruments the user plays: a form only known at run time
#[tool]
async fn instruments(ctx: &ToolContext) -> Result<String, String> {
    let form = json!({"type": "object", "properties": {"played": {
        "type": "array", "items": {"type": "string", "enum": ["Guitar", "Piano"]}, "minItems": 1}}});
    match ctx.elicit_with_schema("Which do you play?", form).await.map_err(|error| error.to_string())? {
        ElicitationAnswer::Accept(content) => Ok(content.to_string()),
        _ => Ok("no answer".to_owned()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_built_at_run_time_is_sent_as_given_and_answered_as_received() {
    let mut registry = Registry::new();
    registry.add(InstrumentsTool).unwrap();
    let filler = Filler { answer: Some(json!({"played": ["Piano"]})), ..Filler::default() };
    let connection = connect(McpServer::new(registry.clone()), filler.clone()).await;
    let result = connection.call_tool(CallToolRequestParams::new("instruments")).await.unwrap();
    assert_eq!(text(&result), r#"{"played":["Piano"]}"#);
    let asked = filler.asked.lock().unwrap()[0].clone();
    assert_eq!(asked["message"], "Which do you play?");
    assert_eq!(asked["requestedSchema"]["properties"]["played"]["items"]["enum"], json!(["Guitar", "Piano"]));
    connection.cancel().await.unwrap();

    // A client that cannot show forms is never sent one.
    let connection = connect(McpServer::new(registry), Filler::default()).await;
    let result = connection.call_tool(CallToolRequestParams::new("instruments")).await.unwrap();
    assert_eq!(text(&result), "tool \"instruments\" failed: the caller does not support elicitation");
    connection.cancel().await.unwrap();
}

/// The context of the last `watch` call, kept past it.
static KEPT: Mutex<Option<ToolContext>> = Mutex::new(None);

/// Starts watching, past the call
#[tool]
fn watch(ctx: &ToolContext) -> String {
    *KEPT.lock().unwrap() = Some(ctx.clone());
    "watching".to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_kept_past_its_call_knows_when_the_session_ends() {
    assert!(!ToolContext::new().connection_closed(), "a caller without a connection never closes");
    let mut registry = Registry::new();
    registry.add(WatchTool).unwrap();
    let connection = connect(McpServer::new(registry), Filler::default()).await;
    let result = connection.call_tool(CallToolRequestParams::new("watch")).await.unwrap();
    assert_eq!(text(&result), "watching");
    let kept = KEPT.lock().unwrap().clone().expect("the call kept its context");
    assert!(!kept.connection_closed());
    connection.cancel().await.unwrap();
    assert!(eventually(Duration::from_secs(10), || kept.connection_closed()).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_subscription_hook_logs_to_the_session() {
    let mut resources = Resources::new();
    resources.add_dynamic(DynamicResource::text("docs://watched", "watched", "x")).unwrap();
    let server = McpServer::new(Registry::new()).with_resources(resources).on_subscription(|caller, change| {
        if let Subscription::Subscribed(uri) = change {
            caller.log(LogLevel::Info, format!("watching {uri}"));
        }
    });
    let filler = Filler::default();
    let connection = connect(server, filler.clone()).await;
    connection.subscribe(SubscribeRequestParams::new("docs://watched")).await.unwrap();
    let logs = || filler.logs.lock().unwrap().clone();
    assert!(eventually(Duration::from_secs(10), || logs() == [json!("watching docs://watched")]).await, "{:?}", logs());
    connection.cancel().await.unwrap();
}
